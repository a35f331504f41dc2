// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Statecraft",
    products: [
        .library(name: "Statecraft", targets: ["Statecraft"]),
        .library(name: "StatecraftYAML", targets: ["StatecraftYAML"]),
        .library(name: "StatecraftSCXML", targets: ["StatecraftSCXML"]),
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
        // The system's libxml2, for SCXML documents, and the system's libedit, for `smrun repl`'s
        // line editing: their declarations only, as each is loaded with dlopen on first use
        // rather than linked (so that a program that reads no SCXML and edits no lines never
        // loads them nor what they need). Headers only: no C is compiled.
        .systemLibrary(name: "CLibXML2"),
        .systemLibrary(name: "CLibEdit"),
        .target(name: "Statecraft"),
        .target(name: "StatecraftYAML", dependencies: ["Statecraft", "CLibYAML"]),
        .target(name: "StatecraftSCXML", dependencies: ["Statecraft", "CLibXML2"]),
        // smrun's input-script parsing, a library so that the fuzz targets can reach it.
        .target(name: "SmrunCore", dependencies: ["Statecraft"]),
        .executableTarget(
            name: "smrun",
            dependencies: [
                "Statecraft",
                "StatecraftYAML",
                "StatecraftSCXML",
                "SmrunCore",
                "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer targets (`make fuzz`); a plain build makes them crash reproducers: `FuzzX FILE...`.
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzMachineFile", dependencies: ["FuzzSupport", "Statecraft", "StatecraftYAML"],
            path: "Fuzz/FuzzMachineFile"),
        .executableTarget(
            name: "FuzzScriptLine", dependencies: ["FuzzSupport", "Statecraft", "StatecraftYAML", "SmrunCore"],
            path: "Fuzz/FuzzScriptLine"),
        .executableTarget(
            name: "FuzzSCXML", dependencies: ["FuzzSupport", "Statecraft", "StatecraftYAML", "StatecraftSCXML"],
            path: "Fuzz/FuzzSCXML"),
        .executableTarget(
            name: "FuzzExpression", dependencies: ["FuzzSupport", "Statecraft"], path: "Fuzz/FuzzExpression"),
        // In-process benchmarks that `make bench` runs (benchmarks/bench.sh); build with -c release.
        .executableTarget(
            name: "StatecraftBenchmarks", dependencies: ["Statecraft", "StatecraftYAML", "StatecraftSCXML"],
            path: "benchmarks/StatecraftBenchmarks"),
        // Helpers the test targets share (a stream's next elements, a log observers append to, the
        // `.timeBound` trait); a plain target, as a test target cannot depend on another.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StatecraftTests", dependencies: ["Statecraft", "TestSupport"]),
        .testTarget(name: "StatecraftYAMLTests", dependencies: ["StatecraftYAML", "TestSupport"]),
        .testTarget(name: "StatecraftSCXMLTests", dependencies: ["StatecraftSCXML", "StatecraftYAML", "TestSupport"]),
        .testTarget(name: "SmrunCoreTests", dependencies: ["SmrunCore", "Statecraft"]),
        .testTarget(name: "SmrunTests", dependencies: ["smrun", "Statecraft", "StatecraftYAML", "TestSupport"], exclude: ["Fixtures"]),
    ]
)
