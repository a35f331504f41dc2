import SmrunCore
import Statecraft
import Synchronization

/// One definition, ready to run its instances: the compiled machine, its snapshot codec, and
/// the runner its compiler chose, with printers and script parsers kept for reuse (building
/// one encodes every name of the machine). Safe to use from any thread.
package final class MachineRuntime: Sendable {
    package let machine: CompiledMachine
    package let codec: SnapshotCodec
    package let definition: StoredDefinition
    /// The definition as written, which the machine was compiled from: it tells how sources
    /// were written (`from: "*"`) and gives the descriptions, for diagrams.
    package let written: MachineDefinition?
    /// `statechart` when some state has children, else `flat`.
    package let kind: String
    private let core: any RuntimeCore

    package init(machine: CompiledMachine, definition: StoredDefinition, written: MachineDefinition?) {
        self.machine = machine
        self.written = written
        codec = SnapshotCodec(machine)
        self.definition = definition
        kind = Self.kind(of: machine)
        core = machine.visitRunner(CoreMaker(machine: machine, codec: codec))
    }

    package var fingerprint: String { definition.fingerprint }

    /// `statechart` when some state of `machine` has children, else `flat`.
    static func kind(of machine: CompiledMachine) -> String {
        machine.chart?.tree.parents.contains(where: { $0 >= 0 }) ?? false ? "statechart" : "flat"
    }

    /// Starts a new instance with `context` (the initial values where `nil`), at `now` on
    /// `clock`, then fires what is due at once.
    package func start(context: [Value]?, now: Int, clock: MachineSnapshot.Clock) -> InstanceRun {
        core.start(context: context, now: now, clock: clock)
    }

    /// Fires the timers due by `now`, each as an entry, then sends `input` with `argument`
    /// (JSON text, `nil` when none is given), then fires what that makes due at once.
    package func send(_ snapshot: MachineSnapshot, input: String, argument: String?, now: Int?) throws(InputRefusal) -> InstanceRun {
        try core.send(snapshot, input: input, argument: argument, now: now)
    }

    /// Fires the timers due by `now` (on a virtual clock: moves the clock to `now`), each as an entry.
    package func advance(_ snapshot: MachineSnapshot, to now: Int) -> InstanceRun {
        core.advance(snapshot, to: now)
    }

    /// The instance that `snapshot` describes, run no further: its document, active states and
    /// timers (a migrated snapshot, before it is stored).
    package func settle(_ snapshot: MachineSnapshot) -> InstanceRun {
        core.settle(snapshot)
    }

    /// The inputs that have a transition from where `snapshot` is.
    package func availableInputs(_ snapshot: MachineSnapshot) -> AvailableInputs {
        core.availableInputs(snapshot)
    }

    /// Decodes a stored snapshot document of this definition.
    package func snapshot(_ document: [UInt8]) throws -> MachineSnapshot {
        try codec.decode(document)
    }

    private struct CoreMaker: RunnerVisitor {
        let machine: CompiledMachine
        let codec: SnapshotCodec
        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> any RuntimeCore {
            RunnerCore<Runner>(machine: machine, codec: codec)
        }
    }
}

/// The runner-specific part of a ``MachineRuntime``.
private protocol RuntimeCore: Sendable {
    func start(context: [Value]?, now: Int, clock: MachineSnapshot.Clock) -> InstanceRun
    func send(_ snapshot: MachineSnapshot, input: String, argument: String?, now: Int?) throws(InputRefusal) -> InstanceRun
    func advance(_ snapshot: MachineSnapshot, to now: Int) -> InstanceRun
    func settle(_ snapshot: MachineSnapshot) -> InstanceRun
    func availableInputs(_ snapshot: MachineSnapshot) -> AvailableInputs
}

/// The ``RuntimeCore`` of machines that run on `Runner`.
///
/// Its methods are called through ``RuntimeCore``, where `Runner` is known only at run time:
/// each is also compiled for the two runners (`@_specialize`), so that an input's run, its
/// recorder and its printer run as specialised code, as smrun's own loop does, rather than
/// through witness tables and type metadata looked up on every call (round 28 of
/// docs/performance.md).
private final class RunnerCore<Runner: MachineRunner>: RuntimeCore {
    let machine: CompiledMachine
    let codec: SnapshotCodec
    /// Whether instances show one `state` (``MachineRuntime/kind``).
    let isFlat: Bool
    /// Printers and parsers not in use.
    private let spare = Mutex<[Tools]>([])
    /// A runner made for the machine and never run. Each run starts from a copy, which shares
    /// its buffers until the run changes them, rather than building its own (a statechart's
    /// runner builds some twelve arrays: 11,000 instructions an input, docs/performance.md).
    private let fresh: Runner

    /// A printer and a script parser, taken by one run at a time.
    final class Tools: @unchecked Sendable {
        var printer: ResultPrinter<Runner>?
        var parser: ScriptLineParser
        /// The active states (ids) of the instance the run resumed, before it ran.
        var activeBefore: [Int] = []

        init(machine: CompiledMachine) {
            printer = ResultPrinter(
                machine: machine, format: .json, stepLimit: RunLimits.defaultStepLimit, output: OutputBuffer(keepingInMemory: 1 << 16))
            parser = ScriptLineParser(machine: machine)
        }

        /// Notes `runner`'s active states as those the run resumed from.
        func noteActiveStates(of runner: Runner) {
            activeBefore.removeAll(keepingCapacity: true)
            runner.forEachActiveState { activeBefore.append($0) }
        }

        /// Whether the printer is back from the last run.
        var isReady: Bool {
            switch printer {
            case .some: true
            case .none: false
            }
        }
    }

    init(machine: CompiledMachine, codec: SnapshotCodec) {
        self.machine = machine
        self.codec = codec
        isFlat = MachineRuntime.kind(of: machine) == "flat"
        fresh = Runner(machine, stepLimit: RunLimits.defaultStepLimit, timerLimit: RunLimits.defaultTimerLimit)
    }

    private func withTools<T, Failure: Error>(_ body: (Tools) throws(Failure) -> T) throws(Failure) -> T {
        let tools = spare.withLock { $0.popLast() } ?? Tools(machine: machine)
        // A run that was refused kept its printer: the tools are dropped with it.
        defer { if tools.isReady { spare.withLock { $0.append(tools) } } }
        return try body(tools)
    }

    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    func start(context: [Value]?, now: Int, clock: MachineSnapshot.Clock) -> InstanceRun {
        withTools { tools in
            var runner = fresh
            if let context { runner.setContextBeforeStart(context) }
            if machine.hasTimers { runner.restoreTimers(time: now, pending: []) }
            var recorder = recorder(tools, clock: clock)
            recorder.begin(InstanceRun.Entry(kind: .start, at: now, results: ""), runner: runner)
            runner.start(into: &recorder)
            fireDue(&runner, by: now, into: &recorder)
            return finish(runner, recorder: recorder, tools: tools, clock: clock)
        }
    }

    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    func send(_ snapshot: MachineSnapshot, input: String, argument: String?, now: Int?) throws(InputRefusal) -> InstanceRun {
        try withTools { (tools) throws(InputRefusal) in
            var runner = fresh
            runner.restore(snapshot)
            tools.noteActiveStates(of: runner)
            let time = max(now ?? runner.time, runner.time)
            var recorder = recorder(tools, clock: snapshot.clock)
            fireDue(&runner, by: time, into: &recorder)
            if machine.hasTimers && runner.time < time { runner.advance(to: time, into: &recorder) }
            recorder.begin(InstanceRun.Entry(kind: .input, at: time, input: input, argument: argument, results: ""), runner: runner)
            recorder.inInputRun = true
            try Self.withBytes(input, argument) { (name, given) throws(InputRefusal) in
                try dispatch(tools.parser.parse(name: name, argument: given), input: input, argument: argument, runner: &runner, recorder: &recorder)
            }
            recorder.inInputRun = false
            return finish(runner, recorder: recorder, tools: tools, clock: snapshot.clock, before: snapshot)
        }
    }

    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    func advance(_ snapshot: MachineSnapshot, to now: Int) -> InstanceRun {
        withTools { tools in
            var runner = fresh
            runner.restore(snapshot)
            tools.noteActiveStates(of: runner)
            var recorder = recorder(tools, clock: snapshot.clock)
            let time = max(now, runner.time)
            fireDue(&runner, by: time, into: &recorder)
            if machine.hasTimers && runner.time < time { runner.advance(to: time, into: &recorder) }
            return finish(runner, recorder: recorder, tools: tools, clock: snapshot.clock, before: snapshot)
        }
    }

    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    func settle(_ snapshot: MachineSnapshot) -> InstanceRun {
        withTools { tools in
            var runner = fresh
            runner.restore(snapshot)
            return finish(runner, recorder: recorder(tools, clock: snapshot.clock), tools: tools, clock: snapshot.clock)
        }
    }

    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    func availableInputs(_ snapshot: MachineSnapshot) -> AvailableInputs {
        var runner = fresh
        runner.restore(snapshot)
        return AvailableInputs(runner)
    }

    /// Runs what the parser made of an input sent from outside, or refuses it, worded as smrun
    /// words a script's `unknown-input` and `bad-argument` (the argument shown as the JSON given).
    private func dispatch(
        _ parsed: ScriptLineParser.Parsed, input name: String, argument given: String?, runner: inout Runner,
        recorder: inout EntryRecorder<Runner>
    ) throws(InputRefusal) {
        func refusal(_ kind: RejectionKind, input: Int) -> String {
            runner.message(for: runner.rejection(kind, input: input), inputName: name, argument: .null)
        }
        let problem = given.map { "got \($0)" } ?? "but none was given"
        switch parsed {
        case .input(let input, let argument):
            // The argument is JSON, not a script line's word: a string argument must be a JSON
            // string (a number, `true` or an object is no string here).
            if machine.argumentTypes[input] == .string, given?.first != "\"" {
                throw .badArgument(input: name, message: refusal(.badArgument, input: input) + ", " + problem)
            }
            recorder.printer.argument = argument
            runner.send(input, argument: argument.value, into: &recorder)
            recorder.printer.argument = .absent
        case .undeclaredEvent(let input, let eventName, let argument):
            if argument != nil { throw .badArgument(input: name, message: "'\(name)' takes no argument, \(problem)") }
            if let input {
                recorder.printer.eventName = Array(eventName)
                runner.send(input, argument: .null, into: &recorder)
                recorder.printer.eventName = []
            } else {
                recorder.printer.receiveUnmatchedEvent(eventName, runner: &runner)
            }
        case .badArgument(let input, _):
            throw .badArgument(input: name, message: refusal(.badArgument, input: input) + ", " + problem)
        case .unknownInput, .skip, .wait, .badWait:
            throw .unknownInput(name: name, message: refusal(.unknownInput, input: -1))
        }
    }

    /// Calls `body` with the UTF-8 bytes of `name` and of `argument` (`nil` when none).
    private static func withBytes(
        _ name: String, _ argument: String?, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) throws(InputRefusal) -> Void
    ) throws(InputRefusal) {
        var name = name
        var argument = argument
        let result: Result<Void, InputRefusal> = name.withUTF8 { name in
            guard argument != nil else { return Result { () throws(InputRefusal) in try body(UnsafeRawBufferPointer(name), nil) } }
            return argument!.withUTF8 { given in Result { () throws(InputRefusal) in try body(UnsafeRawBufferPointer(name), UnsafeRawBufferPointer(given)) } }
        }
        try result.get()
    }

    private func recorder(_ tools: Tools, clock: MachineSnapshot.Clock) -> EntryRecorder<Runner> {
        var printer = tools.printer.take()!
        printer.forgetContextVersion()
        _ = printer.output.takeBytes()
        return EntryRecorder(printer: printer, codec: codec, clock: clock, isFlat: isFlat, hasTimers: machine.hasTimers)
    }

    /// Fires each timer due by `time` as an entry of its own (one whose `after` guards are all
    /// false is an entry without results).
    private func fireDue(_ runner: inout Runner, by time: Int, into recorder: inout EntryRecorder<Runner>) {
        guard machine.hasTimers else { return }
        var instant = TimerInstant()
        while let due = runner.nextTimerDue(), due <= time {
            let next = runner.pendingTimers.min { $0.due < $1.due }
            recorder.begin(
                InstanceRun.Entry(kind: .timer, at: due, timer: next.map { recorder.timerText(SnapshotTimer($0)) }, results: ""), runner: runner)
            guard runner.fireNextTimer(dueBy: time, instant: &instant, into: &recorder) != nil else { break }
        }
    }

    /// The run's entries and the instance after them; its active states and timers only when
    /// they differ from `before`'s (the snapshot the run resumed, whose active states are
    /// `tools.activeBefore`).
    private func finish(
        _ runner: Runner, recorder: consuming EntryRecorder<Runner>, tools: Tools, clock: MachineSnapshot.Clock, before: MachineSnapshot? = nil
    ) -> InstanceRun {
        let entries = recorder.finish(runner: runner)
        tools.printer = Optional(recorder.takePrinter())
        var snapshot = codec.snapshot(of: runner)
        snapshot.clock = clock
        // As a transaction that reads the document back finds it (the SQLite store keeps it).
        snapshot = codec.readBack(snapshot)
        var active: [String]? = nil
        var activeBefore: [String]? = nil
        if before.map({ $0.state != snapshot.state || $0.configuration != snapshot.configuration }) ?? true {
            var names: [String] = []
            runner.forEachActiveState { names.append(machine.stateNames[$0]) }
            active = names
            if before != nil { activeBefore = tools.activeBefore.map { machine.stateNames[$0] } }
        }
        var timers: [PendingTimer]? = nil
        if before.map({ $0.timers != snapshot.timers }) ?? true {
            timers = snapshot.timers.map { timer in
                var text: [UInt8] = []
                codec.appendTimer(timer, due: clock == .real ? DueTime.utc(timer.due) : nil, compact: true, to: &text)
                return PendingTimer(due: timer.due, description: String(decoding: text, as: UTF8.self))
            }
        }
        var run = InstanceRun(
            entries: entries, snapshot: snapshot, document: codec.encode(snapshot), isFinal: runner.isFinished, activeStates: active,
            timers: timers)
        run.activeStatesBefore = activeBefore
        return run
    }
}
