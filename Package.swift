// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Statecraft",
    products: [
        .library(name: "Statecraft", targets: ["Statecraft"]),
        .library(name: "StatecraftYAML", targets: ["StatecraftYAML"]),
        .library(name: "StatecraftSCXML", targets: ["StatecraftSCXML"]),
        // Durable keyed instances of machines (SQLite), and the HTTP API that serves them: apart
        // from `Statecraft`, so that an app that runs machines in-process builds none of their
        // packages.
        .library(name: "StatecraftStore", targets: ["StatecraftStore"]),
        // The same store on PostgreSQL, for several servers on one database: apart from
        // `StatecraftStore`, so that an app that embeds the SQLite store builds no postgres-nio.
        .library(name: "StatecraftPostgres", targets: ["StatecraftPostgres"]),
        .library(name: "StatecraftServer", targets: ["StatecraftServer"]),
        .executable(name: "smrun", targets: ["smrun"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // smrun's formats, shared with the server: script lines and arguments in, result lines
        // out (a library, so that the fuzz targets and the server reach them).
        .target(name: "SmrunCore", dependencies: ["Statecraft"]),
        .target(
            name: "StatecraftStore",
            dependencies: [
                "Statecraft", "StatecraftYAML", "StatecraftSCXML", "SmrunCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "StatecraftPostgres",
            dependencies: [
                "StatecraftStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "StatecraftServer",
            dependencies: [
                "Statecraft", "StatecraftStore", "SmrunCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [
                .embedInCode("openapi.json"),
                // The inspector (docs/inspector.md): plain files, no build step.
                .embedInCode("Inspector/index.html"),
                .embedInCode("Inspector/inspector.css"),
                .embedInCode("Inspector/app.js"),
                .embedInCode("Inspector/api.js"),
                .embedInCode("Inspector/events.js"),
                .embedInCode("Inspector/dom.js"),
                .embedInCode("Inspector/diagram.js"),
                .embedInCode("Inspector/arguments.js"),
                .embedInCode("Inspector/timeline.js"),
                .embedInCode("Inspector/machines.js"),
                .embedInCode("Inspector/instance.js"),
            ]
        ),
        .executableTarget(
            name: "smrun",
            dependencies: [
                "Statecraft",
                "StatecraftYAML",
                "StatecraftSCXML",
                "SmrunCore",
                "StatecraftStore",
                "StatecraftPostgres",
                "StatecraftServer",
                "CLibEdit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // An application of one's own that embeds the store and the API (docs/serving.md), run by
        // the tests.
        .executableTarget(
            name: "EmbeddedOrderServer",
            dependencies: [
                "StatecraftServer", "StatecraftStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "docs/examples/EmbeddedOrderServer"),
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
        .testTarget(
            name: "StatecraftStoreTests",
            dependencies: ["StatecraftStore", "StatecraftPostgres", "Statecraft", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "SmrunTests", dependencies: ["smrun", "Statecraft", "StatecraftYAML", "TestSupport"], exclude: ["Fixtures"]),
    ]
)
