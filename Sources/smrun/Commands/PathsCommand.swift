import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun paths MACHINE`: a shortest input sequence to every state and every transition.
struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        _superCommandName: Smrun.name,
        abstract: "Print a shortest input sequence to every state and transition of a machine.",
        discussion: """
            Inputs with arguments are tried with the values their guards compare against; a path \
            waits (@wait) for a timer when the machine has one pending. Every path is run on the \
            engine before it is printed. States that no path reaches are listed \
            with the reason. Exit status: 0, or 1 when the --to state is unreachable, 2 for an \
            invalid machine or a usage error.
            """
    )

    @Argument(help: "The machine file (YAML).")
    var machine: String

    @Option(name: .customLong("to"), help: ArgumentHelp("Print only the path to this state.", valueName: "state"))
    var target: String?

    @Option(help: "Output format: script (smrun run input, one per target after a '# to ...' line) or test (a scenario file for smrun test).")
    var format: PathsFormat = .script

    @OptionGroup var limits: MachineOptions

    func run() throws {
        let loaded = limits.load(machine)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        var targetState: Int?
        if let target {
            guard let id = compiled.stateNames.firstIndex(of: target) else {
                FileHandleOutput.standardError(
                    "smrun paths: machine '\(compiled.name)' has no state '\(target)'" + Suggestion.didYouMean(target, in: compiled.stateNames) + "\n")
                throw ExitCode(Smrun.Status.invalid)
            }
            targetState = id
        }
        // A statechart's history states are never active: no path ends in one.
        let isHistory = { (state: Int) in compiled.chart?.tree.kinds[state].isHistory ?? false }
        if let targetState, isHistory(targetState) {
            FileHandleOutput.standardError(
                "smrun paths: '\(compiled.stateNames[targetState])' is a history state, never active; ask for a path to a state it leads to\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        let paths = MachinePaths(compiled)
        var printer = PathsPrinter(machine: compiled, machinePath: machine, format: format)
        if let targetState {
            guard let path = paths.toState[targetState], printer.addState(targetState, path: path) else {
                let why = paths.whyUnreached[targetState] ?? "its path did not replay"
                FileHandleOutput.standardError("smrun paths: state '\(compiled.stateNames[targetState])' is unreachable: \(why)\n")
                throw ExitCode(Smrun.Status.rejected)
            }
        } else {
            for state in 0..<compiled.stateCount where !isHistory(state) {
                if let path = paths.toState[state], printer.addState(state, path: path) { continue }
                printer.addUnreachable(state, why: paths.whyUnreached[state] ?? "its path did not replay")
            }
            for transition in compiled.transitions.indices {
                if let path = paths.toTransition[transition], printer.addTransition(transition, path: path) { continue }
                printer.addUntaken(transition)
            }
        }
        var output = OutputBuffer(fd: 1)
        output.append(printer.finished)
        output.flush()
    }
}

/// How `smrun paths` prints its paths.
enum PathsFormat: String, ExpressibleByArgument, CaseIterable {
    /// Input scripts for `smrun run`, each after a `# to ...` comment.
    case script
    /// A scenario file for `smrun test`, a scenario per target.
    case test
}
