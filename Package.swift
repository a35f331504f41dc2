// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Statecraft",
    products: [
        .library(name: "Statecraft", targets: ["Statecraft"]),
        .library(name: "StatecraftYAML", targets: ["StatecraftYAML"]),
        .executable(name: "smrun", targets: ["smrun"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(name: "Statecraft"),
        .target(name: "StatecraftYAML", dependencies: ["Statecraft", "CLibYAML"]),
        .executableTarget(
            name: "smrun",
            dependencies: [
                "Statecraft",
                "StatecraftYAML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "StatecraftTests", dependencies: ["Statecraft"]),
        .testTarget(name: "StatecraftYAMLTests", dependencies: ["StatecraftYAML"]),
        .testTarget(name: "SmrunTests", dependencies: ["smrun", "Statecraft"], exclude: ["Fixtures"]),
    ]
)
