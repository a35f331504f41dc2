import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftStore
import StatecraftYAML

/// What `smrun run` does, with its options as plain values; each defaults as its option does.
struct RunSettings {
    static let defaultMaximumLineBytes = 64 << 20

    var machine: String
    /// The file of input lines (`-`: standard input, as without one).
    var script: String?
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
    var lineFormat = InputLineFormat.script
    var machineFormat: MachineFormat?
    var limits = LoadLimits.default
    /// `--by-key`: each line starts with an instance's key (``KeyedRunSession``).
    var byKey = false
    /// `--store`: where a `--by-key` run's instances are kept (``KeyedStore``).
    var store: String?

    /// The `--send` and `--wait` arguments in the order given (``CommandLineSteps``).
    private var steps: [CommandLineSteps.Step] {
        CommandLineSteps.inOrder(sends: inputs, waits: waits, arguments: CommandLine.arguments)
    }

    func run() throws {
        let loaded = MachineLoader.load(machine, format: machineFormat, limits: limits)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        let source = readsLines ? try ScriptSource.open(script) : nil
        if byKey, let source {
            if let store { return try runStored(in: store, source: source) }
            return try compiled.visitRunner(KeyedDriving(settings: self, machine: compiled, store: nil, source: source)).get()
        }
        let state = try StateFile.open(
            stateFile, machine: compiled, recovery: reset ? .reset : migrate ? .migrate : nil, clock: clock.snapshotClock, timerLimit: timerLimit)
        try compiled.visitRunner(Driving(settings: self, machine: compiled, state: state, source: source)).get()
    }

    /// Whether the inputs are lines (of the script file or standard input), not `--send` and
    /// `--wait` steps.
    private var readsLines: Bool { inputs.isEmpty && waits.isEmpty }

    /// ``drive(_:source:)`` on a session with the runner the machine's compiler chose.
    private struct Driving: RunnerVisitor {
        let settings: RunSettings
        let machine: CompiledMachine
        let state: StateFile?
        let source: ScriptSource?

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = RunSession<Runner>(
                machine: machine, format: settings.format, stepLimit: settings.stepLimit, timerLimit: settings.timerLimit, state: state,
                clock: settings.clock)
            return Result { try settings.drive(&session, source: source) }
        }
    }

    /// `--by-key --store`: opens the store and runs the script's instances with it, on the
    /// machine compiled from the source the store keeps (the one `smrun serve` would run).
    /// A store that cannot be opened, or holds instances on the real clock, is exit status 2.
    private func runStored(in text: String, source: ScriptSource) throws {
        guard case .success(let bytes) = FileReader.contents(of: machine, maximumBytes: limits.maximumBytes),
            let runtime = DefinitionCatalog.runtime(
                source: bytes, format: (machineFormat ?? MachineFormat.of(path: machine)) == .scxml ? .scxml : .yaml,
                defaultName: FileReader.baseName(of: machine, extensions: [".yaml", ".yml", ".scxml"])
            ).0
        else { throw ExitCode(Smrun.Status.invalid) }
        let held: HeldStore
        let store: KeyedStore
        do {
            held = try HeldStore(text)
            store = try KeyedStore(held, runtime: runtime, file: machine)
        } catch {
            FileHandleOutput.standardError("smrun: --store \(StoreOpener.name(text)): \(error)\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        defer { try? held.close() }
        do {
            try runtime.machine.visitRunner(KeyedDriving(settings: self, machine: runtime.machine, store: store, source: source)).get()
        } catch let failure as KeyedStoreFailure {
            FileHandleOutput.standardError("smrun: \(failure)\n")
            throw ExitCode(Smrun.Status.invalid)
        }
    }

    /// `--by-key`: the script's instances on one session.
    private struct KeyedDriving: RunnerVisitor {
        let settings: RunSettings
        let machine: CompiledMachine
        let store: KeyedStore?
        let source: ScriptSource

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Result<Void, any Error> {
            var session = KeyedRunSession<Runner>(
                machine: machine, format: settings.format, stepLimit: settings.stepLimit, timerLimit: settings.timerLimit, store: store)
            return Result {
                let skippedLines = try session.runScript(from: source, maximumLineBytes: settings.maximumLineBytes)
                if let status = StopSignals.exitStatus { throw ExitCode(status) }
                if skippedLines > 0 || session.hadRejections { throw ExitCode(Smrun.Status.rejected) }
            }
        }
    }

    /// Runs the input lines of `source`, or (without one) the `--send`/`--wait` steps in
    /// command-line order, then (with `--wait-pending`) the timers still pending, and finishes:
    /// exit status 1 when an input was rejected or a line skipped.
    fileprivate func drive<Session: DrivenSession & ~Copyable>(_ session: inout Session, source: ScriptSource?) throws {
        var skippedLines = 0
        if let source {
            skippedLines = try session.runLines(from: source, format: lineFormat, maximumLineBytes: maximumLineBytes)
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
