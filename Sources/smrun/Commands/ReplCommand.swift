import ArgumentParser
import Statecraft
import StatecraftYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun repl MACHINE.yaml`: an interactive session over one machine.
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
            Exit status: 0, or 2 for an invalid machine or a usage error.
            """
    )

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Option(help: "Output format of results: text (for people) or json (JSON Lines).")
    var format: OutputFormat = .text

    @Option(name: .customLong("max-steps"), help: "Most queued inputs processed for one external input before step-limit.")
    var stepLimit = RunLimits.defaultStepLimit

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if stepLimit < 1 { throw ValidationError("--max-steps must be at least 1, not \(stepLimit)") }
    }

    func run() throws {
        let loaded = limits.load(machine)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        try compiled.visitRunner(Interacting(command: self, machine: compiled, definition: loaded.definition)).get()
    }

    /// The REPL on a session with the runner the machine's compiler chose.
    private struct Interacting: RunnerVisitor {
        let command: ReplCommand
        let machine: CompiledMachine
        let definition: MachineDefinition?

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = ReplSession(
                RunSession<Runner>(machine: machine, format: command.format, stepLimit: command.stepLimit, state: nil), definition: definition,
                machinePath: command.machine)
            return Result { try ReplLoop.run(&session, machine) }
        }
    }
}
