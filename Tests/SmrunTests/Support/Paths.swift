import Foundation

/// Where the built `smrun`, the example machines and the fixtures are.
enum Paths {
    /// The package's root directory: smrun runs here, so `machines/x.yaml` is a valid argument.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `machines/`, the example and reference machines.
    static let machines = packageRoot.appendingPathComponent("machines")

    /// A fixture's path relative to ``packageRoot``, as smrun prints it in diagnostics.
    static func fixture(_ name: String) -> String { "Tests/SmrunTests/Fixtures/\(name)" }

    /// The `smrun` that SwiftPM built beside the test runner (`/proc/self/exe`).
    static func smrun() throws -> URL {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = runner.deletingLastPathComponent().appendingPathComponent("smrun")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw SmrunNotFound(expected: candidate.path)
        }
        return candidate
    }
}

/// The built `smrun` is not where SwiftPM puts it next to the test runner.
struct SmrunNotFound: Error, CustomStringConvertible {
    var expected: String
    var description: String {
        "smrun not found at \(expected) (beside the test runner); build it with `swift build --build-tests` first"
    }
}
