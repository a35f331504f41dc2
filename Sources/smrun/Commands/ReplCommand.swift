import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun repl MACHINE.yaml [--state FILE]`: an interactive session over one machine, from its
/// initial state or from a saved instance's snapshot (which it never writes).
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        _superCommandName: Smrun.name,
        abstract: "Explore a machine interactively: send inputs, look at its state, undo.",
        discussion: """
            Type an input (INPUT or INPUT ARG, as in a script) to send it; its result prints as `smrun run` \
            prints it. Commands start with ':' (:help lists them). On a terminal, lines are edited with \
            libedit (TAB completes inputs and commands; history in ~/.smrun_history), Ctrl-C cancels the \
            line and Ctrl-D leaves. Without a terminal, lines are read from standard input without prompts. \
            With --state FILE the session starts from the instance saved in FILE (state, context, clock and \
            pending timers) and never writes FILE; :save-state writes a snapshot to another file. \
            Exit status: 0, or 2 for an invalid machine, a state file that does not resume it, or a usage error.
            """
    )

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Option(help: "Output format of results: text (for people) or json (JSON Lines).")
    var format: OutputFormat = .text

    @Option(name: .customLong("max-steps"), help: "Most queued inputs processed for one external input before step-limit.")
    var stepLimit = RunLimits.defaultStepLimit

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp("Start from the instance saved in this state file, which the session never writes.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var stateFile: String?

    @OptionGroup var limits: MachineOptions

    func validate() throws {
        if stepLimit < 1 { throw ValidationError("--max-steps must be at least 1, not \(stepLimit)") }
    }

    func run() throws {
        let loaded = limits.load(machine)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        let snapshot = try stateFile.map { try Self.snapshot(in: $0, of: compiled, machinePath: machine) }
        try compiled.visitRunner(Interacting(command: self, machine: compiled, definition: loaded.definition, snapshot: snapshot)).get()
    }

    /// The snapshot in `path`, read without locking or changing it, which must resume `machine`
    /// on the virtual clock; otherwise says why on standard error and throws exit status 2.
    static func snapshot(in path: String, of machine: CompiledMachine, machinePath: String) throws -> MachineSnapshot {
        let (bytes, _) = try StateFile.readDocument(path)
        func refuse(_ message: String) -> ExitCode {
            FileHandleOutput.standardError("smrun: state file \(path): \(message)\n")
            return ExitCode(Smrun.Status.invalid)
        }
        let snapshot: MachineSnapshot
        do {
            snapshot = try SnapshotCodec(machine).decode(bytes)
        } catch {
            throw refuse(
                "\(error.message); smrun repl explores a snapshot of this very machine (`smrun status --state \(path) \(machinePath)` says why it is not; `smrun \(machinePath) --state \(path) --migrate` carries it over)")
        }
        if snapshot.clock == .real && !snapshot.timers.isEmpty {
            let count = snapshot.timers.count == 1 ? "its pending timer is" : "its \(snapshot.timers.count) pending timers are"
            throw refuse("\(count) on the real clock, and smrun repl runs the virtual clock (its time moves with :wait)")
        }
        return snapshot
    }

    /// The REPL on a session with the runner the machine's compiler chose.
    private struct Interacting: RunnerVisitor {
        let command: ReplCommand
        let machine: CompiledMachine
        let definition: MachineDefinition?
        let snapshot: MachineSnapshot?

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = ReplSession(
                RunSession<Runner>(
                    machine: machine, format: command.format, stepLimit: command.stepLimit, state: nil, snapshot: snapshot,
                    startsAtMargin: true),
                definition: definition, machinePath: command.machine, stateFile: command.stateFile)
            return Result { try ReplLoop.run(&session, machine) }
        }
    }
}
