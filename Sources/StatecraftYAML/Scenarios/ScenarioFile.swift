import Statecraft

/// Runs scenario files (`NAME.test.yaml`, docs/testing-machines.md) from Swift, as `smrun test`
/// does: a package's own `swift test` can check its machines' scenarios.
///
/// ```swift
/// @Test func orderScenarios() throws {
///     let report = try ScenarioFile.run(path: "machines/order.test.yaml")
///     #expect(report.passed, "\(report)")
/// }
/// ```
public enum ScenarioFile {
    /// Loads the scenario file at `path` and the machine file it names (its `machine:` path,
    /// relative to the scenario file), checks every name it uses, and runs each scenario.
    ///
    /// - Parameters:
    ///   - machine: the machine to run the scenarios on, instead of the file they name: an
    ///     SCXML document loaded with `SCXMLFile`, or a machine built in Swift.
    ///   - limits: the bounds on both files' size, nesting and nodes.
    /// - Throws: ``LoadError`` when the scenario file or its machine cannot be read or is
    ///   invalid, or a scenario names what the machine does not have.
    public static func run(path: String, machine: CompiledMachine? = nil, limits: LoadLimits = .default) throws(LoadError) -> ScenarioReport {
        let loaded = ScenarioFileLoader.load(path: path, limits: limits)
        guard let file = loaded.file, !loaded.diagnostics.hasErrors else { throw LoadError(diagnostics: loaded.diagnostics) }
        let compiled: CompiledMachine
        if let machine {
            compiled = machine
        } else {
            let machinePath = ScenarioFileLoader.machinePath(of: file, scenarioPath: path)
            if machinePath.hasSuffix(".scxml") {
                throw LoadError(diagnostics: [
                    .error(
                        .invalidValue,
                        "machine '\(machinePath)' is an SCXML document: load it with SCXMLFile.load(path:) and pass it as `machine`",
                        at: file.machinePathPosition)
                ])
            }
            let named = YAMLFile.load(path: machinePath, limits: limits)
            guard let machine = named.machine else { throw LoadError(diagnostics: named.diagnostics) }
            compiled = machine
        }
        let problems = ScenarioFileLoader.check(file, against: compiled)
        if problems.hasErrors { throw LoadError(diagnostics: problems) }
        let runner = ScenarioRunner(compiled)
        var coverage = ScenarioCoverage(compiled)
        let results = file.scenarios.map { runner.run($0, coverage: &coverage) }
        return ScenarioReport(
            file: path,
            scenarios: results.map { result in
                ScenarioReport.Scenario(
                    name: result.name, line: result.position.line,
                    failure: result.failure.map { ScenarioResult.text(of: $0, file: path, indent: "") })
            })
    }
}

/// How the scenarios of one scenario file went.
public struct ScenarioReport: Sendable, CustomStringConvertible {
    /// One scenario's outcome.
    public struct Scenario: Sendable {
        /// Its `name:`.
        public let name: String
        /// The line it starts on.
        public let line: Int
        /// For a scenario that failed, the failing step as `smrun test` prints it: its action,
        /// and each expectation expected (`-`) and actual (`+`); `nil` when it passed.
        public let failure: String?

        /// Whether every step's expectations held.
        public var passed: Bool { failure == nil }
    }

    /// The scenario file's path.
    public let file: String
    /// Every scenario, in file order.
    public let scenarios: [Scenario]

    /// Whether every scenario passed.
    public var passed: Bool { scenarios.allSatisfy(\.passed) }

    /// `N passed, M failed`, then each failure, as `smrun test` prints them.
    public var description: String {
        let failed = scenarios.filter { !$0.passed }
        var text = "\(scenarios.count - failed.count) passed, \(failed.count) failed\n"
        for scenario in failed {
            text += "FAIL \(file):\(scenario.line): \(scenario.name)\n" + (scenario.failure ?? "")
        }
        return text
    }
}
