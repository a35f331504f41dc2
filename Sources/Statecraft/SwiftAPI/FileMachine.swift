/// A machine loaded from a machine file (or any ``CompiledMachine``), running on the same
/// engine as `smrun`, with the observation API of ``TypedStateMachine``: states are the file's
/// state names, inputs its input names with ``Value`` arguments. Results report an argument as
/// its Swift value, so `result.input.is(Input("count", taking: Int.self))` holds for an input
/// `count: int`.
///
/// Swift code binds the file's effect names to closures: a bound closure runs each time its
/// effect runs, after the transition is taken (and the effect's `set`/`send` body, if any, has
/// run), in the order the transition runs its effects. Inputs it sends to the machine are queued
/// like those of `send:` bodies (run to completion).
///
/// ```swift
/// let launcher = try FileMachine(compiled, effects: [
///     "logIn": { call in showLoggedInExperience() },
/// ])
/// launcher.send("initialize")
/// ```
///
/// `StatecraftYAML` loads files: `FileMachine(contentsOf: "machines/app-launcher.yaml", effects: ...)`.
public final class FileMachine: @unchecked Sendable {
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
    private var runner: Runner
    private let inputIDs: [String: Int]
    /// Per effect id, the closure bound to it.
    private let bindings: [(@Sendable (EffectCall) -> Void)?]
    /// The state and context after the last result, readable while the runner runs.
    private var currentState: Int
    private var currentContext: [Value]
    /// Inputs bound closures sent during the current result, not yet queued in the runner.
    private var sentFromRun: [(input: Int, argument: Value, sentBy: Int)] = []
    /// The effect whose closure is running.
    private var runningEffect = -1
    /// Fires the machine's timers on its clock; nil for a machine without timers.
    private var timerDriver: TimerDriver?

    /// Runs `machine`, with `effects` bound to its effect names, and starts it: the initial
    /// state's entry effects (and their bound closures) run now, and its `after` timers start.
    ///
    /// The machine's timers (`after:` transitions, and sends with a `delay`) fire on `clock`:
    /// real time by default, where they fire on their own while nothing is sent, each result
    /// published to observers; a ``ManualClock`` in tests, where they fire inside its
    /// ``ManualClock/advance(by:)``. A machine without timers never reads the clock.
    ///
    /// - Throws: ``BindingError`` when a bound name is not one of the machine's effects, or
    ///   when the machine is a statechart (``CompiledMachine/chart``), which this type does not
    ///   run yet: run one with ``ChartRunner``.
    public init(
        _ machine: CompiledMachine, stepLimit: Int = Runner.defaultStepLimit, clock: any Clock<Duration> = ContinuousClock(),
        effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws(BindingError) {
        if machine.chart != nil {
            throw BindingError(
                effect: "",
                description: "machine '\(machine.name)' is a statechart (nested states, eventless transitions or in()); "
                    + "FileMachine runs flat machines only so far: run it with ChartRunner")
        }
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
        runner = Runner(machine, stepLimit: stepLimit)
        inputIDs = Dictionary(machine.inputNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        currentState = machine.initialState
        currentContext = machine.initialContext
        if machine.hasTimers { timerDriver = TimerDriver(clock: clock, machine: self) }
        observers.lock.withLock {
            var host = Host(machine: self, external: nil, externalArgument: .null)
            runner.start(host: &host)
            timerDriver?.schedule(nextDue: runner.nextTimerDue(), for: self)
        }
    }

    deinit {
        timerDriver?.stop()
        observers.finish()
    }

    /// The current state's name.
    public var state: String {
        observers.lock.withLock { machine.stateNames[currentState] }
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
    /// internal input (``InputDeclaration/isInternal``: only effects may send it); a missing,
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
                return reject(
                    Self.sent(input, argument, queued: nested),
                    TransitionResult(input: -1, from: currentState, outcome: .rejected(.unknownInput), sentBy: -1))
            }
            guard let value = Self.checked(argument, for: machine.argumentTypes[id]) else {
                return reject(
                    Self.sent(input, argument, queued: nested),
                    TransitionResult(input: id, from: currentState, outcome: .rejected(.badArgument), sentBy: -1))
            }
            let sent = Self.sent(input, value, queued: nested)
            if nested {
                sentFromRun.append((id, value, runningEffect))
                return .failure(
                    StateTransitionError(
                        state: machine.stateNames[currentState], input: sent, kind: .queued,
                        explanation: .queued))
            }
            if let timerDriver { fireTimers(dueBy: timerDriver.now(notBefore: runner.time)) }
            var host = Host(machine: self, external: sent, externalArgument: value)
            runner.send(id, argument: value, host: &host)
            timerDriver?.schedule(nextDue: runner.nextTimerDue(), for: self)
            return host.first!
        }
        observers.deliver()
        return result
    }

    /// A stream of every result from now on, in the order transitions happened. Each access
    /// is a new subscription; it ends when the machine is released.
    public var results: AsyncStream<StateTransitionResult<String>> {
        observers.results { $0 }
    }

    /// A stream of the current state's name, then of every state entered.
    public var states: AsyncStream<String> {
        observers.states { machine.stateNames[currentState] }
    }

    /// Calls `handler` with every result from now on, in order.
    public func observeResults(_ handler: @escaping @Sendable (StateTransitionResult<String>) -> Void) -> Observation {
        observers.observeResults(handler)
    }

    /// Calls `handler` with the current state's name, then with every state entered, in order.
    public func observeStates(_ handler: @escaping @Sendable (String) -> Void) -> Observation {
        observers.observeStates(current: { machine.stateNames[currentState] }, handler)
    }

    /// Fires the timers due by `time` (the machine's clock, in milliseconds), each result
    /// published. Called with the lock held, outside any run.
    private func fireTimers(dueBy time: Int) {
        var host = Host(machine: self, external: nil, externalArgument: .null)
        runner.advance(to: time, host: &host)
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
    /// running: this reads only the mirrored state).
    private func reject(_ input: SentInput, _ result: TransitionResult) -> StateTransitionResult<String> {
        let failure = StateTransitionResult<String>.failure(
            StateTransitionError(
                state: machine.stateNames[currentState], input: input, kind: result.rejection!,
                explanation: .text(machine.message(for: result, inputName: input.name))))
        observers.publish(failure, newState: nil)
        return failure
    }

    private func contextDictionary(_ values: [Value]) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: zip(machine.variableNames, values))
    }

    /// Publishes the runner's results and runs the bound closures.
    private struct Host: RunnerHost {
        unowned let machine: FileMachine
        /// The external input, or nil at start.
        let external: SentInput?
        /// The external input's argument as the runner took it.
        let externalArgument: Value
        var first: StateTransitionResult<String>?

        mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
            let machine = machine
            let compiled = machine.machine
            let input: SentInput
            if result.sentBy < 0, !result.isStart, !result.isTimer, let external {
                input = external
            } else if result.isTimer, result.sentBy < 0, let delay = compiled.timers?.afterTexts[result.input] {
                // An `after` transition's timer: reported as `after 30s`.
                input = SentInput(.named("after \(delay)", argumentType: ObjectIdentifier(After.self)), argument: (), isQueued: false)
            } else {
                input = FileMachine.sent(
                    result.input >= 0 ? compiled.inputNames[result.input] : "start", runner.queuedArgument(of: result),
                    queued: result.sentBy >= 0)
            }
            let from = compiled.stateNames[result.from]
            let typed: StateTransitionResult<String>
            switch result.outcome {
            case .accepted(let to):
                machine.currentState = runner.state
                machine.currentContext = runner.context
                typed = .success(StateTransition(from: from, to: compiled.stateNames[to], input: input, isIgnored: false))
                machine.observers.publish(typed, newState: compiled.stateNames[to])
                for effect in compiled.effectsRun(by: result) {
                    guard let closure = machine.bindings[effect] else { continue }
                    machine.runningEffect = effect
                    closure(
                        EffectCall(
                            effect: compiled.effectNames[effect], input: result.isStart ? nil : input, from: from,
                            to: compiled.stateNames[to], context: machine.contextDictionary(runner.context), machine: machine))
                }
                machine.runningEffect = -1
            case .ignored:
                typed = .success(StateTransition(from: from, to: from, input: input, isIgnored: true))
                machine.observers.publish(typed, newState: nil)
            case .rejected(let kind):
                typed = .failure(
                    StateTransitionError(
                        state: from, input: input, kind: kind,
                        explanation: .text(
                            compiled.message(
                                for: result, inputName: input.name, stepLimit: runner.stepLimit, context: runner.context,
                                argument: result.sentBy < 0 ? externalArgument : runner.queuedArgument(of: result) ?? .null))))
                machine.observers.publish(typed, newState: nil)
            }
            if first == nil { first = typed }
            for sent in machine.sentFromRun { runner.enqueue(sent.input, argument: sent.argument, sentBy: sent.sentBy) }
            machine.sentFromRun.removeAll(keepingCapacity: true)
        }
    }
}

/// A bound closure's view of its effect running.
public struct EffectCall: Sendable {
    /// The effect's name.
    public let effect: String
    /// The input whose transition runs the effect, with its argument; nil for the initial
    /// state's entry effects, run when the machine starts.
    public let input: SentInput?
    /// The state left (the initial state, at start).
    public let from: String
    /// The state entered (or stayed in).
    public let to: String
    /// The context after the transition's effect bodies.
    public let context: [String: Value]
    /// The machine, to read or send to (sends are queued).
    public let machine: FileMachine
}

// MARK: - Clock

extension FileMachine: ClockDrivenMachine {
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
