import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun status --state FILE [MACHINE]`: shows a state file without running anything.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        _superCommandName: Smrun.name,
        abstract: "Show a state file's saved state, context and pending queue, and whether it resumes a machine.",
        discussion: """
            Reads FILE without locking or changing it (saves replace it atomically, so it is always a \
            whole snapshot). Given MACHINE, also says whether the snapshot resumes it (same \
            fingerprint, state and context) and, if not, what --migrate would keep and drop. Exit \
            status: 0 when FILE is readable (and resumes MACHINE, when given), 1 when it does not \
            resume MACHINE, 2 when FILE is missing, unreadable or not a snapshot, or MACHINE is invalid.
            """
    )

    @Option(name: .customLong("state"), help: ArgumentHelp("The state file to show.", valueName: "file"))
    var stateFile: String

    @Argument(help: "A machine file (YAML) to check the snapshot against.")
    var machine: String?

    @Option(help: "Output format: text (for people) or json (one object).")
    var format: OutputFormat = .text

    @OptionGroup var limits: MachineOptions

    /// `--state` names one file: the argument parser keeps the last of several, which would show
    /// one file silently in place of the others, so they are counted on the command line.
    func validate() throws {
        let given = Self.stateOptions(in: CommandLine.arguments)
        if given.count > 1 {
            throw ValidationError(
                "--state names one file, given \(given.count) times (\(given.joined(separator: ", "))); run smrun status once per file")
        }
    }

    /// The values of the `--state FILE` and `--state=FILE` options in `arguments`, before `--`.
    static func stateOptions(in arguments: [String]) -> [String] {
        var values: [String] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            if arguments[index] == "--state" {
                values.append(index + 1 < arguments.count ? arguments[index + 1] : "")
                index += 1
            } else if arguments[index].hasPrefix("--state=") {
                values.append(String(arguments[index].dropFirst("--state=".count)))
            }
            index += 1
        }
        return values
    }

    func run() throws {
        let (bytes, saved) = try StateFile.readDocument(stateFile)
        var status = SnapshotStatus(file: stateFile, saved: saved)
        if let machine {
            let loaded = limits.load(machine)
            DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
            guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
            status.machine = (machine, compiled, SnapshotStatus.match(saved, bytes: bytes, machine: compiled))
        }
        var output = OutputBuffer(fd: 1)
        output.append(format == .json ? status.json : status.text)
        output.flush()
        if case .differs? = status.machine?.match { throw ExitCode(Smrun.Status.rejected) }
    }
}
