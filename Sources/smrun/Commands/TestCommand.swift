import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun test [PATH...]`: runs scenario files (`*.test.yaml`) against the machines they name.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        _superCommandName: Smrun.name,
        abstract: "Run scenario files (*.test.yaml) against the machines they name.",
        discussion: """
            A directory stands for every *.test.yaml and *.test.yml file under it (hidden folders \
            skipped); no path means the current directory. Every file is checked before any runs. \
            Exit status: 0 when every scenario passed, 1 when any failed (or coverage is below \
            --min-coverage), 2 for an unreadable or invalid scenario or machine file, or nothing to run.

            Examples:
              smrun test
              smrun test machines/scenarios --coverage
              smrun test door.test.yaml --filter locks --format junit
            """
    )

    @Argument(help: "Scenario files, or directories to search for *.test.yaml files (default: the current directory).")
    var paths: [String] = []

    @Option(help: "Run only the scenarios whose name contains this text.")
    var filter: String?

    @Option(help: "Output format: text (for people), json (one object per scenario, JSON Lines) or junit (JUnit XML).")
    var format: TestOutputFormat = .text

    @Flag(help: "Report which states, transitions and effects the scenarios exercised and which never ran.")
    var coverage = false

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail when the scenarios take fewer than this percentage of the machines' transitions.", valueName: "percent"))
    var minimumCoverage: Double?

    @OptionGroup var limits: MachineOptions

    func validate() throws {
        if let minimumCoverage, !(0...100).contains(minimumCoverage) {
            throw ValidationError("--min-coverage is a percentage from 0 to 100, not \(minimumCoverage)")
        }
    }

    func run() throws {
        let files = try scenarioFiles()
        guard let suite = ScenarioSuite.load(files, limits: limits.limits) else { throw ExitCode(Smrun.Status.invalid) }
        let run = suite.run(filter: filter)
        if run.results.isEmpty {
            FileHandleOutput.standardError("smrun test: no scenario\(filter.map { " matches --filter '\($0)'" } ?? " in the files given")\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        var output = OutputBuffer(fd: 1)
        let report = TestReport(run: run)
        switch format {
        case .text:
            output.append(report.text())
            if coverage { output.append(CoverageReport.text(run.coverage)) }
            output.append(report.summary + "\n")
        case .json:
            output.append(report.jsonLines())
            if coverage { output.append(CoverageReport.jsonLines(run.coverage)) }
            FileHandleOutput.standardError(report.summary + "\n")
        case .junit:
            output.append(report.junit())
            if coverage { FileHandleOutput.standardError(CoverageReport.text(run.coverage)) }
            FileHandleOutput.standardError(report.summary + "\n")
        }
        output.flush()
        var failed = run.failedCount > 0
        if let minimumCoverage {
            let percent = CoverageReport.transitionPercentage(run.coverage)
            if percent < minimumCoverage {
                FileHandleOutput.standardError(
                    "smrun test: transition coverage \(CoverageReport.formatted(percent)) is below --min-coverage \(CoverageReport.formatted(minimumCoverage))\n")
                failed = true
            }
        }
        if failed { throw ExitCode(Smrun.Status.rejected) }
    }

    /// The files to run: each path as given, directories expanded (sorted), duplicates removed.
    private func scenarioFiles() throws -> [String] {
        var files: [String] = []
        for path in paths.isEmpty ? ["."] : paths {
            guard MachineFileFinder.isDirectory(path) else {
                files.append(path)
                continue
            }
            var found = MachineFileFinder.scenarioFiles(under: path)
            if paths.isEmpty { found = found.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 } }
            if found.isEmpty {
                FileHandleOutput.standardError("smrun test: no *.test.yaml files under directory '\(path)'\n")
                throw ExitCode(Smrun.Status.invalid)
            }
            files += found
        }
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }
    }
}

/// How `smrun test` prints its results.
enum TestOutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Failures with their diffs, then a summary, for people.
    case text
    /// JSON Lines, one object per scenario.
    case json
    /// JUnit XML, for CI systems: a scenario file is a test suite, a scenario a test case.
    case junit
}
