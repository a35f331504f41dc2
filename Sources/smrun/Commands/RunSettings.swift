import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// What `smrun run` does, with its options as plain values; each defaults as its option does.
struct RunSettings {
    static let defaultMaximumLineBytes = 64 << 20

    var machine: String
    var inputs: [String] = []
    var waits: [String] = []
    var clock: ClockOption = .virtual
    var waitPending = false
    var timerLimit = RunLimits.defaultTimerLimit
    var format: OutputFormat = .text
    var stepLimit = RunLimits.defaultStepLimit
    var maximumLineBytes = defaultMaximumLineBytes
    var stateFile: String?
    var reset = false
    var migrate = false
    var inputFormat: InputFormat?
    var limits = LoadLimits.default
    /// `--by-key`: each line starts with an instance's key (``KeyedRunSession``).
    var byKey = false

    /// The `--send` and `--wait` arguments in the order given (``CommandLineSteps``).
    private var steps: [CommandLineSteps.Step] {
        CommandLineSteps.inOrder(sends: inputs, waits: waits, arguments: CommandLine.arguments)
    }

    func run() throws {
        let loaded = MachineLoader.load(machine, format: inputFormat, limits: limits)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        if byKey { return try compiled.visitRunner(KeyedDriving(settings: self, machine: compiled)).get() }
        let state = try StateFile.open(
            stateFile, machine: compiled, recovery: reset ? .reset : migrate ? .migrate : nil, clock: clock.snapshotClock, timerLimit: timerLimit)
        try compiled.visitRunner(Driving(settings: self, machine: compiled, state: state)).get()
    }

    /// ``drive(_:)`` on a session with the runner the machine's compiler chose.
    private struct Driving: RunnerVisitor {
        let settings: RunSettings
        let machine: CompiledMachine
        let state: StateFile?

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = RunSession<Runner>(
                machine: machine, format: settings.format, stepLimit: settings.stepLimit, timerLimit: settings.timerLimit, state: state,
                clock: settings.clock)
            return Result { try settings.drive(&session) }
        }
    }

    /// `--by-key`: the script's instances on one session.
    private struct KeyedDriving: RunnerVisitor {
        let settings: RunSettings
        let machine: CompiledMachine

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = KeyedRunSession<Runner>(
                machine: machine, format: settings.format, stepLimit: settings.stepLimit, timerLimit: settings.timerLimit)
            return Result {
                let skippedLines = try session.runScript(maximumLineBytes: settings.maximumLineBytes)
                if let status = StopSignals.exitStatus { throw ExitCode(status) }
                if skippedLines > 0 || session.hadRejections { throw ExitCode(Smrun.Status.rejected) }
            }
        }
    }

    /// Runs the script, or the `--send`/`--wait` steps in command-line order, then (with
    /// `--wait-pending`) the timers still pending, and finishes: exit status 1 when an input
    /// was rejected or a line skipped.
    fileprivate func drive<Session: DrivenSession & ~Copyable>(_ session: inout Session) throws {
        var skippedLines = 0
        if inputs.isEmpty && waits.isEmpty {
            skippedLines = try session.runScript(maximumLineBytes: maximumLineBytes)
        } else {
            for step in steps where !StopSignals.shouldStop() {
                switch step {
                case .send(let input): session.send(input)
                case .wait(let milliseconds): session.wait(milliseconds: milliseconds)
                }
            }
        }
        if waitPending { session.waitForPendingTimers() }
        session.finish()
        if let status = StopSignals.exitStatus { throw ExitCode(status) }
        if skippedLines > 0 || session.hadRejections { throw ExitCode(Smrun.Status.rejected) }
    }
}

extension OutputFormat: ExpressibleByArgument {}
