/// A machine loaded from a file (YAML or SCXML), or any ``CompiledMachine``, flat or statechart,
/// running on the engine `smrun` runs, with the observation API of ``TypedStateMachine``.
///
/// States are the file's state names; a statechart's state is its configuration, the active
/// atomic states in document order joined by `, ` (as `smrun` prints it), also listed by
/// ``configuration``. Inputs are the file's input names with ``Value`` arguments; results report
/// an argument as its Swift value, so `result.input.is(Input("count", taking: Int.self))` holds
/// for an input `count: int`.
///
/// Swift code binds the file's effect names to closures: a bound closure runs each time its
/// effect runs, after the step is taken (and the effect's `set`/`send` body, if any, has run), in
/// the order the step runs its effects. Inputs it sends to the machine are queued like those of
/// `send:` bodies (run to completion).
///
/// ```swift
/// let launcher = try StateMachine(YAMLFile.load(path: "machines/app-launcher.yaml"), effects: [
///     "logIn": { call in showLoggedInExperience() },
/// ])
/// launcher.send("initialize")
/// ```
///
/// A machine saves itself with ``snapshot()`` in the document `smrun --state` writes, and a new
/// one resumes from it with ``init(_:restoring:stepLimit:clock:effects:)``.
public final class StateMachine: @unchecked Sendable {
    /// A binding to an effect name that the machine does not have.
    public struct BindingError: Error, Sendable, CustomStringConvertible {
        /// The name bound.
        public let effect: String
        /// What is wrong, with a did-you-mean suggestion.
        public let description: String
    }

    /// The compiled machine.
    public let machine: CompiledMachine
    // Every `var` is guarded by `observers.lock`.
    let observers = Observers<StateTransitionResult<String>, String>()
    /// The runner the machine's compiler chose (``CompiledMachine/visitRunner(_:)``).
    private var runner: any MachineRunner
    private let inputIDs: [String: Int]
    /// Per effect id, the closure bound to it.
    private let bindings: [(@Sendable (EffectCall) -> Void)?]
    /// The active atomic states and the context after the last result, readable while the
    /// runner runs.
    private var currentStates: [Int]
    private var currentContext: [Value]
    /// Inputs bound closures sent during the current result, not yet queued in the runner.
    private var sentFromRun: [(input: Int, argument: Value, sentBy: Int)] = []
    /// The effect whose closure is running.
    private var runningEffect = -1
    /// Fires the machine's timers on its clock; nil for a machine without timers.
    private var timerDriver: TimerDriver?

    /// Runs `machine`, with `effects` bound to its effect names, and starts it: the initial
    /// configuration's entry effects (and their bound closures) run now, and its `after` timers
    /// start.
    ///
    /// The machine's timers (`after:` transitions, and sends with a `delay`) fire on `clock`:
    /// real time by default, where they fire on their own while nothing is sent, each result
    /// published to observers; a ``ManualClock`` in tests, where they fire inside its
    /// ``ManualClock/advance(by:)``. A machine without timers never reads the clock.
    ///
    /// - Parameters:
    ///   - machine: the compiled machine, from `YAMLFile.load` or `SCXMLFile.load`.
    ///   - stepLimit: queued inputs and eventless steps per input before `step-limit`.
    ///   - clock: the clock the machine's timers fire on.
    ///   - effects: Swift closures, by the effect names they bind.
    /// - Throws: ``BindingError`` when a bound name is not one of the machine's effects.
    public convenience init(
        _ machine: CompiledMachine, stepLimit: Int = RunLimits.defaultStepLimit, clock: any Clock<Duration> = ContinuousClock(),
        effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws(BindingError) {
        try self.init(unstarted: machine, stepLimit: stepLimit, effects: effects)
        observers.lock.withLock {
            if machine.hasTimers { timerDriver = TimerDriver(clock: clock, machine: self) }
            runHosted(.start, external: nil, argument: .null)
            // A start that ran no effect published nothing: the configuration entered is read here.
            currentStates = runner.activeStates
            currentContext = runner.context
            timerDriver?.schedule(nextDue: runner.nextTimerDue(), for: self)
        }
    }

    /// Resumes `machine` from a snapshot document (what ``snapshot()`` and `smrun --state`
    /// write), without running entry effects: its configuration, history records, context,
    /// clock and pending timers, which then fire on `clock` as they fall due.
    ///
    /// - Throws: ``SnapshotError`` when the document is not a snapshot of this machine's
    ///   definition (another fingerprint: another table of states, inputs and transitions),
    ///   is malformed, or has timers pending on the wall clock (`smrun --clock real`); ``BindingError`` when a bound name is not one of its effects.
    public convenience init(
        _ machine: CompiledMachine, restoring snapshot: [UInt8], stepLimit: Int = RunLimits.defaultStepLimit,
        clock: any Clock<Duration> = ContinuousClock(), effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws {
        let restored = try SnapshotCodec(machine).decode(snapshot)
        // Timers saved on the wall clock (`smrun --clock real`) are due at times since 1970, which
        // mean nothing on the machine's own clock: refused rather than left to fire decades on.
        guard restored.clock == .virtual || restored.timers.isEmpty else {
            throw SnapshotError(
                .invalidField,
                "\"clock\" is \"real\": its pending timers are due on the wall clock, and a Swift machine restores timers saved on its own clock (smrun without --clock real)")
        }
        try self.init(unstarted: machine, stepLimit: stepLimit, effects: effects)
        observers.lock.withLock {
            runner.restore(restored)
            if machine.hasTimers { timerDriver = TimerDriver(clock: clock, machine: self, resumedAt: runner.time) }
            currentStates = runner.activeStates
            currentContext = runner.context
            timerDriver?.schedule(nextDue: runner.nextTimerDue(), for: self)
        }
    }

    /// The machine with its bindings and runner, not started.
    private init(unstarted machine: CompiledMachine, stepLimit: Int, effects: [String: @Sendable (EffectCall) -> Void]) throws(BindingError) {
        var bindings = [(@Sendable (EffectCall) -> Void)?](repeating: nil, count: machine.effectNames.count)
        for (name, closure) in effects {
            guard let id = machine.effectNames.firstIndex(of: name) else {
                throw BindingError(
                    effect: name,
                    description: "machine '\(machine.name)' has no effect '\(name)'"
                        + Suggestion.didYouMean(name, in: machine.effectNames))
            }
            bindings[id] = closure
        }
        self.machine = machine
        self.bindings = bindings
        runner = machine.visitRunner(RunnerMaker(machine: machine, stepLimit: stepLimit))
        inputIDs = Dictionary(machine.inputNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        currentStates = []
        currentContext = machine.initialContext
        currentStates = runner.activeStates
    }

    deinit {
        timerDriver?.stop()
        observers.finish()
    }

    /// The current state's name; for a statechart, its configuration: the active atomic
    /// states in document order, joined by `, `.
    public var state: String {
        observers.lock.withLock { text(of: currentStates) }
    }

    /// The active atomic states, in document order (one state for a flat machine).
    public var configuration: [String] {
        observers.lock.withLock { currentStates.map { machine.stateNames[$0] } }
    }

    /// Whether the state named `name` is active: an active atomic state or one of its
    /// ancestors; `false` for a name the machine does not have.
    public func isActive(_ name: String) -> Bool {
        guard let state = machine.stateNames.firstIndex(of: name) else { return false }
        return observers.lock.withLock {
            currentStates.contains { $0 == state || (machine.chart?.tree.isDescendant($0, of: state) ?? false) }
        }
    }

    /// The context: each variable's current value.
    public var context: [String: Value] {
        observers.lock.withLock { contextDictionary(currentContext) }
    }

    /// Receives the lines the machine's `log` steps write, as they run; `nil` (the default)
    /// drops them. It is called while the machine processes an input: it must not use the machine.
    public var logHandler: EffectLogHandler? {
        get { observers.lock.withLock { runner.logHandler } }
        set { observers.lock.withLock { runner.logHandler = newValue } }
    }

    /// Sends the input named `input`, with `argument` if it takes one; returns its result, also
    /// published to observers. An unknown name is an `unknownInput` failure, and so is an
    /// internal input (declared `internal: true`: only effects may send it); a missing,
    /// extra or mistyped argument is a `badArgument` one (an int is accepted for a double).
    ///
    /// Called from inside one of this machine's bound closures (the Swift side of an effect), a
    /// valid input, internal ones included, is queued instead (run to completion), and the
    /// result is a `queued` failure.
    @discardableResult
    public func send(_ input: String, _ argument: Value? = nil) -> StateTransitionResult<String> {
        let result = observers.lock.withLock { () -> StateTransitionResult<String> in
            let nested = observers.lock.depth > 1
            guard let id = inputIDs[input], nested || !machine.inputIsInternal[id] else {
                return reject(Self.sent(input, argument, queued: nested), .unknownInput, input: -1)
            }
            guard let value = Self.checked(argument, for: machine.argumentTypes[id]) else {
                return reject(Self.sent(input, argument, queued: nested), .badArgument, input: id)
            }
            let sent = Self.sent(input, value, queued: nested)
            if nested {
                sentFromRun.append((id, value, runningEffect))
                return .failure(StateTransitionError(state: text(of: currentStates), input: sent, kind: .queued, explanation: .queued))
            }
            if let timerDriver { fireTimers(dueBy: timerDriver.now(notBefore: runner.time)) }
            let first = runHosted(.send(id), external: sent, argument: value)
            timerDriver?.schedule(nextDue: runner.nextTimerDue(), for: self)
            return first!
        }
        observers.deliver()
        return result
    }

    /// A stream of every result from now on, in the order transitions happened. Each access
    /// is a new subscription; it ends when the machine is released.
    public var results: AsyncStream<StateTransitionResult<String>> {
        observers.results { $0 }
    }

    /// A stream of the current state's name (a statechart's configuration), then of every one
    /// entered.
    public var states: AsyncStream<String> {
        observers.states { text(of: currentStates) }
    }

    /// Calls `handler` with every result from now on, in order.
    public func observeResults(_ handler: @escaping @Sendable (StateTransitionResult<String>) -> Void) -> Observation {
        observers.observeResults(handler)
    }

    /// Calls `handler` with the current state's name (a statechart's configuration), then with
    /// every one entered, in order.
    public func observeStates(_ handler: @escaping @Sendable (String) -> Void) -> Observation {
        observers.observeStates(current: { text(of: currentStates) }, handler)
    }

    // MARK: - Saving

    /// The machine's configuration, history records, context, clock and pending timers, as the
    /// snapshot document `smrun --state` writes (UTF-8 JSON, docs/snapshots.md; `Data(bytes)`
    /// with Foundation). Its time is the machine's own clock: milliseconds since it started,
    /// carried over by a restore. Called from inside a bound closure, it shows the machine as of
    /// the step before.
    public func snapshot() -> [UInt8] {
        let codec = SnapshotCodec(machine)
        let snapshot = observers.lock.withLock {
            // The machine's clock is brought to now (firing what fell due), so that the pending
            // timers resume as far from their due times as they are now.
            if observers.lock.depth == 1, let timerDriver {
                fireTimers(dueBy: timerDriver.now(notBefore: runner.time))
                timerDriver.schedule(nextDue: runner.nextTimerDue(), for: self)
            }
            return codec.snapshot(of: runner)
        }
        observers.deliver()
        return codec.encode(snapshot)
    }

    // MARK: - Running

    /// What a run does.
    private enum Run {
        case start
        case send(Int)
        case advance(to: Int)
    }

    /// Runs the runner with a host publishing its results and running the bound closures; the
    /// host's first result. Called with the lock held, outside any run.
    @discardableResult
    private func runHosted(_ run: Run, external: SentInput?, argument: Value) -> StateTransitionResult<String>? {
        func go<Runner: MachineRunner>(_ runner: inout Runner) -> StateTransitionResult<String>? {
            var host = Host<Runner>(machine: self, external: external, externalArgument: argument)
            switch run {
            case .start: runner.start(into: &host)
            case .send(let input): runner.send(input, argument: argument, into: &host)
            case .advance(let time): runner.advance(to: time, into: &host)
            }
            return host.first
        }
        return go(&runner)
    }

    /// Fires the timers due by `time` (the machine's clock, in milliseconds), each result
    /// published. Called with the lock held, outside any run.
    private func fireTimers(dueBy time: Int) {
        runHosted(.advance(to: time), external: nil, argument: .null)
    }

    /// An input as results report it: its argument as a Swift value (`Int`, `Double`, `Bool`,
    /// `String`, a ``Value/Record`` of an input's data, or `()` for none), so that it matches the ``Input`` of that name and type.
    private static func sent(_ name: String, _ argument: Value?, queued: Bool) -> SentInput {
        let (value, type): (any Sendable, Any.Type) =
            switch argument {
            case .int(let number)?: (number, Int.self)
            case .double(let number)?: (number, Double.self)
            case .bool(let flag)?: (flag, Bool.self)
            case .string(let text)?: (text, String.self)
            case .list(let items)?: (items, [Value].self)
            case .record(let data)?: (data, Value.Record.self)
            case .null?, nil: ((), Void.self)
            }
        return SentInput(.named(name, argumentType: ObjectIdentifier(type)), argument: value, isQueued: queued)
    }

    /// The argument to send for an input taking `type`, or nil when `argument` does not fit.
    private static func checked(_ argument: Value?, for type: ValueType?) -> Value? {
        switch (argument, type) {
        case (nil, nil): .null
        case (.int(let number)?, .double?): .double(Double(number))
        case (let value?, let type?) where value.type == type: value
        default: nil
        }
    }

    /// Publishes the rejection of an input refused before it reached the runner (which may be
    /// running: this reads only the mirrored states).
    private func reject(_ input: SentInput, _ kind: RejectionKind, input id: Int) -> StateTransitionResult<String> {
        let states = text(of: currentStates)
        var result = TransitionResult(.external, input: id, outcome: .rejected(kind))
        result.from = currentStates.first ?? -1
        let message = machine.message(
            for: result, inputName: input.name, before: states, after: { states }, stepLimit: RunLimits.defaultStepLimit, falseGuards: { nil })
        let failure = StateTransitionResult<String>.failure(
            StateTransitionError(state: states, input: input, kind: kind, explanation: .text(message)))
        observers.publish(failure, newState: nil)
        return failure
    }

    private func text(of states: [Int]) -> String {
        states.map { machine.stateNames[$0] }.joined(separator: ", ")
    }

    private func contextDictionary(_ values: [Value]) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: zip(machine.variableNames, values))
    }

    /// Makes the runner the machine's compiler chose.
    private struct RunnerMaker: RunnerVisitor {
        let machine: CompiledMachine
        let stepLimit: Int
        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> any MachineRunner {
            Runner(machine, stepLimit: stepLimit, timerLimit: RunLimits.defaultTimerLimit)
        }
    }

    /// Publishes the runner's results and runs the bound closures.
    private struct Host<Runner: MachineRunner>: ResultSink {
        static var queuesInputs: Bool { true }
        unowned let machine: StateMachine
        /// The external input, or nil at start and for timers.
        let external: SentInput?
        /// The external input's argument as the runner took it.
        let externalArgument: Value
        var first: StateTransitionResult<String>?

        mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
            let machine = machine
            let compiled = machine.machine
            let input = self.input(of: result, runner)
            let from = runner.statesText(before: true, of: result)
            let typed: StateTransitionResult<String>
            switch result.outcome {
            case .accepted:
                machine.currentStates = runner.activeStates
                machine.currentContext = runner.context
                let to = machine.text(of: machine.currentStates)
                typed = .success(StateTransition(from: from, to: to, input: input, isIgnored: false))
                machine.observers.publish(typed, newState: to)
                runner.forEachEffect(of: result) { effect in
                    guard let closure = machine.bindings[effect] else { return }
                    machine.runningEffect = effect
                    closure(
                        EffectCall(
                            effect: compiled.effectNames[effect], input: result.isStart ? nil : input, from: from, to: to,
                            context: machine.contextDictionary(machine.currentContext), machine: machine))
                }
                machine.runningEffect = -1
            case .ignored:
                typed = .success(StateTransition(from: from, to: from, input: input, isIgnored: true))
                machine.observers.publish(typed, newState: nil)
            case .rejected(let kind):
                let argument = result.trigger == .external && !result.isTimer ? externalArgument : runner.queuedArgument(of: result) ?? .null
                typed = .failure(
                    StateTransitionError(
                        state: from, input: input, kind: kind,
                        explanation: .text(runner.message(for: result, inputName: input.name, argument: argument))))
                machine.observers.publish(typed, newState: nil)
            }
            if first == nil { first = typed }
            for sent in machine.sentFromRun { runner.enqueue(sent.input, argument: sent.argument, sentBy: sent.sentBy) }
            machine.sentFromRun.removeAll(keepingCapacity: true)
        }

        /// The input of `result` as results report it.
        private func input(of result: TransitionResult, _ runner: borrowing Runner) -> SentInput {
            let compiled = machine.machine
            if result.trigger == .external, !result.isTimer, let external { return external }
            if result.isTimer, result.sentBy < 0, let delay = compiled.timers?.afterTexts[result.input] {
                // An `after` transition's timer: reported as `after 30s`.
                return SentInput(.named("after \(delay)", argumentType: ObjectIdentifier(After.self)), argument: (), isQueued: false)
            }
            let name =
                switch result.trigger {
                case .start: "start"
                case .eventless: "(eventless)"
                default: result.input >= 0 ? compiled.inputNames[result.input] : "?"
                }
            return StateMachine.sent(name, runner.queuedArgument(of: result), queued: result.trigger != .external && result.trigger != .start)
        }
    }
}

/// A bound closure's view of its effect running.
public struct EffectCall: Sendable {
    /// The effect's name.
    public let effect: String
    /// The input whose step runs the effect, with its argument; nil for the initial
    /// configuration's entry effects, run when the machine starts.
    public let input: SentInput?
    /// The state left (the initial state, at start); a statechart's configuration before the step.
    public let from: String
    /// The state entered (or stayed in); a statechart's configuration after the step.
    public let to: String
    /// The context after the step's effect bodies.
    public let context: [String: Value]
    /// The machine, to read or send to (sends are queued).
    public let machine: StateMachine
}

// MARK: - Clock

extension StateMachine: ClockDrivenMachine {
    func nextTimerDue() -> Int? {
        observers.lock.withLock { observers.lock.depth > 1 ? nil : runner.nextTimerDue() }
    }

    func fireDueTimers(wokenBy generation: Int?) {
        observers.lock.withLock {
            guard observers.lock.depth == 1, let timerDriver, generation.map(timerDriver.takeWake) ?? true else { return }
            fireTimers(dueBy: timerDriver.now(notBefore: runner.time))
            timerDriver.schedule(nextDue: runner.nextTimerDue(), for: self)
        }
        observers.deliver()
    }
}
