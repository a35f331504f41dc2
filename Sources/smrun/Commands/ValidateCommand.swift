import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun validate FILE...`: checks machine files for CI and reports every problem in every file.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        _superCommandName: Smrun.name,
        abstract: "Check machine files and report every error and warning.",
        discussion: """
            A directory stands for every *.yaml, *.yml and *.scxml file under it. Exit status: 0 when no file \
            has an error (nor, with --strict, a warning), 1 otherwise, 2 for a usage error or an \
            unreadable file.

            Examples:
              smrun validate machines/traffic-light.yaml
              smrun validate --strict machines
              smrun validate --format github machines
            """
    )

    @Argument(
        help: "Machine files, or directories to search for *.yaml, *.yml and *.scxml files.",
        completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var paths: [String]

    @Option(help: "Output format: text (compiler style), json (one array), github (workflow annotations).")
    var format: ValidationFormat = .text

    @Flag(help: "Treat warnings as errors for the exit status.")
    var strict = false

    @OptionGroup var limits: MachineOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one machine file or directory") }
    }

    func run() throws {
        try ValidationRun(paths: paths, format: format, strict: strict, limits: limits.limits, machineFormat: limits.machineFormat).run()
    }
}

/// What `smrun validate` does, with its options as plain values; each defaults as its option
/// does (`smrun validate PATH...` with no option runs it without a parse of the command line,
/// ``Smrun/loneValidation(_:)``).
struct ValidationRun {
    var paths: [String]
    var format = ValidationFormat.text
    var strict = false
    var limits = LoadLimits.default
    var machineFormat: MachineFormat?

    func run() throws {
        let files = try machineFiles()
        var reports: [ValidationReport.FileReport] = []
        for file in files {
            let loaded = MachineLoader.load(file, format: machineFormat, limits: limits)
            var diagnostics = loaded.diagnostics
            if let machine = loaded.machine, let definition = loaded.definition {
                diagnostics += MachineLinter.lint(machine, definition: definition)
                diagnostics.sort(by: Diagnostic.inFileOrder)
            }
            reports.append(.init(file: file, diagnostics: diagnostics))
        }
        let report = ValidationReport(files: reports)
        var output = OutputBuffer(fd: 1)
        output.append(report.rendered(as: format))
        output.flush()
        if format == .text { FileHandleOutput.standardError(report.summary + "\n") }
        if report.hasUnreadableFile { throw ExitCode(Smrun.Status.invalid) }
        if report.errorCount > 0 || (strict && report.warningCount > 0) { throw ExitCode(Smrun.Status.rejected) }
    }

    /// The files to check: each path as given, directories expanded (sorted), duplicates removed.
    private func machineFiles() throws -> [String] {
        var files: [String] = []
        for path in paths {
            if MachineFileFinder.isDirectory(path) {
                let found = MachineFileFinder.machineFiles(under: path)
                if found.isEmpty {
                    // Not a usage error: the command line is right, the directory holds nothing to check.
                    FileHandleOutput.standardError("smrun validate: no *.yaml, *.yml or *.scxml files under directory '\(path)'\n")
                    throw ExitCode(Smrun.Status.invalid)
                }
                files += found
            } else {
                files.append(path)
            }
        }
        var seen: Set<String> = []
        return files.filter { seen.insert($0).inserted }
    }
}
