import Statecraft
import StatecraftYAML

/// Scenario files loaded and checked with the machines they name, ready to run.
struct ScenarioSuite {
    /// A checked scenario file and its machine.
    struct File {
        var path: String
        var machinePath: String
        var scenarios: [Scenario]
    }

    /// What running the suite produced.
    struct Run {
        /// Each scenario run, with the scenario file it belongs to, in file order.
        var results: [(file: String, result: ScenarioResult)]
        /// Per machine path, in the order first tested.
        var coverage: [(machinePath: String, coverage: ScenarioCoverage)]

        var failedCount: Int { results.count { !$0.result.passed } }
    }

    var files: [File]
    var machines: [String: CompiledMachine]

    /// Loads every file and its machine (each machine once), printing every problem to
    /// standard error; `nil` when any file or machine has an error.
    static func load(_ paths: [String], limits: LoadLimits) -> ScenarioSuite? {
        var suite = ScenarioSuite(files: [], machines: [:])
        var refusedMachines: Set<String> = []
        var valid = true
        for path in paths {
            let loaded = ScenarioFileLoader.load(path: path, limits: limits)
            var diagnostics = loaded.diagnostics
            defer {
                DiagnosticPrinter.printToStandardError(diagnostics, file: path)
                if diagnostics.hasErrors { valid = false }
            }
            guard let file = loaded.file else { continue }
            let machinePath = ScenarioFileLoader.machinePath(of: file, scenarioPath: path)
            if suite.machines[machinePath] == nil && !refusedMachines.contains(machinePath) {
                let machine = MachineLoader.load(machinePath, limits: limits)
                if let compiled = machine.machine {
                    suite.machines[machinePath] = compiled
                } else {
                    refusedMachines.insert(machinePath)
                    if machine.diagnostics.count == 1, machine.diagnostics[0].code == .unreadableFile {
                        diagnostics.append(
                            .error(.unreadableFile, "machine '\(machinePath)': \(machine.diagnostics[0].message)", at: file.machinePathPosition))
                    } else {
                        DiagnosticPrinter.printToStandardError(machine.diagnostics, file: machinePath)
                        diagnostics.append(.error(.invalidValue, "machine '\(machinePath)' is invalid", at: file.machinePathPosition))
                    }
                }
            }
            guard let machine = suite.machines[machinePath] else { continue }
            diagnostics += ScenarioFileLoader.check(file, against: machine)
            diagnostics.sort(by: Diagnostic.inFileOrder)
            suite.files.append(File(path: path, machinePath: machinePath, scenarios: file.scenarios))
        }
        return valid ? suite : nil
    }

    /// Runs every scenario whose name contains `filter` (every one without it).
    func run(filter: String?) -> Run {
        var run = Run(results: [], coverage: [])
        var coverageIndex: [String: Int] = [:]
        var runners: [String: ScenarioRunner] = [:]
        for file in files {
            let machine = machines[file.machinePath]!
            let runner = runners[file.machinePath] ?? ScenarioRunner(machine)
            runners[file.machinePath] = runner
            let index = coverageIndex[file.machinePath] ?? run.coverage.count
            if index == run.coverage.count {
                coverageIndex[file.machinePath] = index
                run.coverage.append((file.machinePath, ScenarioCoverage(machine)))
            }
            for scenario in file.scenarios where filter.map({ scenario.name.contains($0) }) ?? true {
                run.results.append((file.path, runner.run(scenario, coverage: &run.coverage[index].coverage)))
            }
        }
        return run
    }
}
