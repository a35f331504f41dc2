/// A state machine built in Swift: typed states, typed inputs whose arguments are checked at
/// compile time, rows in Jester's and Stated's DSL, guards, effects and work states in
/// DDStateMachine's manner, and typed extended state (context).
///
/// ```swift
/// let machine = TypedStateMachine(initial: Car.unstarted, context: Trip()) {
///     Inputs.startEngine           | .unstarted => .parked
///     Inputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.passengers = $0.argument }
/// }
/// machine.send(Inputs.startEngine)
/// ```
///
/// The rows compile to the engine's `state x input` dispatch table (``CompiledMachine``) and run
/// on the engine that runs machine files; Swift guards, builders and effects are bound to the
/// table's transitions.
///
/// **Order.** On an input, the machine selects the first row (in written order) for the current
/// state whose guards hold. Taking it, the state changes first, then the row's effects run, in
/// order, with ``state`` already the new state; then the new state's work starts. Inputs effects
/// send are queued and run after the transition, first in first out, before `send` returns
/// (run to completion); more than the step limit of them for one external input is a livelock,
/// reported as `stepLimit`. Results are published in the order transitions happened.
///
/// **Concurrency.** Any thread or task may send: a machine runs one input to completion (its
/// queued inputs included) before the next. Effects, guards and builders run while the machine
/// is locked, on the sending thread; they may read the machine and send to it (such sends are
/// queued), but must not wait for another thread that uses it.
///
/// **Time.** Delayed rows (``After``) fire on the machine's clock: real time by default, fired
/// by a task while nothing is sent; in tests a ``ManualClock``, fired inside its
/// ``ManualClock/advance(by:)``. Their results are published like an input's.
///
/// **Snapshots.** A machine whose State and Context are `Codable` saves itself with
/// ``snapshot()`` and is made again from what it saved with
/// ``init(restoring:onUnhandled:stepLimit:clock:rules:)``, in the document `smrun --state` writes.
///
/// **Observation.** Streams (``results``, ``states``) receive results as they happen. Callbacks
/// (``observeResults(_:)``, ``observeStates(_:)``) run outside the lock, one at a time, in order:
/// a single-threaded caller's callbacks have all run when `send` returns; with several threads
/// sending, the thread already calling callbacks calls them for the others' results too.
public final class TypedStateMachine<State: MachineState, Context: Sendable>: @unchecked Sendable {
    // Every `var` is guarded by `observers.lock`, so none needs exclusivity checks. The send path
    // is inlinable, so that it is specialised for the caller's state, context and argument types.
    @usableFromInline let observers = Observers<StateTransitionResult<State>, State>()
    @exclusivity(unchecked) @usableFromInline var runner: TableRunner
    @usableFromInline let frame: TypedFrame<State, Context>
    @usableFromInline let inputs: InputTable
    /// Words rejections' messages when they are read.
    @usableFromInline let explainer: ResultExplainer
    /// Per engine transition, what taking it does.
    @usableFromInline let rows: RowActions<State, Context>
    /// Per engine state, its work and the input that reports the work's result.
    @usableFromInline let works: [(work: WorkState<State, Context>, input: Int)?]
    /// The queued inputs of the current run, in the order the runner takes them.
    @exclusivity(unchecked) @usableFromInline var pending: [SentInput] = []
    @exclusivity(unchecked) @usableFromInline var pendingHead = 0
    /// Counts entries into states; work whose entry is not the latest is stale.
    @exclusivity(unchecked) @usableFromInline var entries = 0
    @exclusivity(unchecked) @usableFromInline var work: Task<Void, Never>?
    /// Fires the delayed rows' timers on the machine's clock; nil for a machine without them.
    @usableFromInline var timerDriver: TimerDriver?
    /// What the machine's fingerprint covers, for snapshots.
    let structure: TableStructure

    /// A machine starting in `initial` with `context`, following `rules`.
    ///
    /// - Parameters:
    ///   - initial: the state to start in; if it is a work state, its work starts now.
    ///   - context: the extended state's initial value.
    ///   - onUnhandled: what an input without a transition from the current state gives:
    ///     a `noTransition` failure (`.reject`), or a success that changes nothing (`.ignore`).
    ///   - stepLimit: how many queued inputs one external input may cause before `stepLimit`.
    ///   - clock: the clock that fires the timers of delayed rows (``After``): real time by
    ///     default; a ``ManualClock`` in tests. A machine without delayed rows never reads it.
    ///   - rules: the rows, work states and final states, in order.
    public convenience init(
        initial: State, context: Context, onUnhandled: MachineDefinition.UnhandledPolicy = .reject,
        stepLimit: Int = RunLimits.defaultStepLimit, clock: any Clock<Duration> = ContinuousClock(),
        @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) {
        let frame = TypedFrame(state: initial, context: context)
        let table = TypedMachineCompiler.table(initial: initial.slot, rules: rules())
        self.init(
            frame: frame, compiled: TypedMachineCompiler.compile(table, onUnhandled: onUnhandled, frame: frame),
            structure: table.structure, stepLimit: stepLimit, clock: clock, restoring: nil)
    }

    /// A machine compiled for `frame`, which holds its first state and context. Unless
    /// `restoring`, it starts: the first state's delayed rows start their timers. Restoring, its
    /// clock reads the snapshot's time and the snapshot's timers are pending. Either way the
    /// first state's work, if it has one, starts.
    init(
        frame: TypedFrame<State, Context>, compiled: TypedMachineCompiler.Output<State, Context>, structure: TableStructure,
        stepLimit: Int, clock: any Clock<Duration>, restoring saved: (time: Int, timers: [SnapshotTimer])?
    ) {
        self.frame = frame
        self.structure = structure
        runner = TableRunner(compiled.machine, stepLimit: stepLimit)
        inputs = compiled.inputs
        explainer = ResultExplainer(compiled.machine, stepLimit: stepLimit)
        rows = RowActions(compiled.rows)
        works = compiled.works
        frame.inputs = compiled.inputs
        frame.afterInputs = compiled.afterInputs
        frame.shared = self
        if compiled.machine.hasTimers { timerDriver = TimerDriver(clock: clock, machine: self, resumedAt: saved?.time ?? 0) }
        observers.lock.withLock {
            if let saved, let timerDriver {
                runner.restoreTimers(time: saved.time, pending: saved.timers.map(\.queued))
                timerDriver.schedule(nextDue: runner.nextTimerDue(), for: self)
            } else if timerDriver != nil {
                startTimers()
            }
            startWork(in: compiled.machine.initialState)
        }
    }

    /// A machine without extended state, starting in `initial` and following `rules`.
    public convenience init(
        initial: State, onUnhandled: MachineDefinition.UnhandledPolicy = .reject, stepLimit: Int = RunLimits.defaultStepLimit,
        clock: any Clock<Duration> = ContinuousClock(), @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) where Context == Void {
        self.init(initial: initial, context: (), onUnhandled: onUnhandled, stepLimit: stepLimit, clock: clock, rules: rules)
    }

    deinit {
        work?.cancel()
        timerDriver?.stop()
        observers.finish()
    }

    /// The current state.
    @inlinable
    public var state: State {
        observers.lock.withLock { frame.state }
    }

    /// The extended state. Inside an effect, its ``TransitionStep/context`` is the live one.
    @inlinable
    public var context: Context {
        observers.lock.withLock { frame.context }
    }

    /// Sends an input without argument; returns its result, also published to observers.
    ///
    /// Called from inside one of this machine's effects, guards or builders, the input is queued
    /// instead (run to completion), and the result is a `queued` failure.
    @inlinable
    @discardableResult
    public func send(_ input: Input<Void>) -> StateTransitionResult<State> {
        send(input, ())
    }

    /// Sends an input with its argument; returns its result, also published to observers.
    ///
    /// Called from inside one of this machine's effects, guards or builders, the input is queued
    /// instead (run to completion), and the result is a `queued` failure.
    @inlinable
    @discardableResult
    public func send<Argument>(_ input: Input<Argument>, _ argument: Argument) -> StateTransitionResult<State> {
        let id = inputs.id(of: input)
        observers.lock.lock()
        let result =
            observers.lock.depth > 1
            ? queue(id, input.sent(argument, queued: true))
            : withUnsafePointer(to: argument) { run(id, input.sent(argument, queued: false), argumentAddress: UnsafeRawPointer($0)) }
        let undelivered = observers.isUndelivered
        observers.lock.unlock()
        if undelivered { observers.deliver() }
        return result
    }

    /// A stream of every result from now on, in the order transitions happened. Each access
    /// is a new subscription; it ends when the machine is released.
    public var results: AsyncStream<StateTransitionResult<State>> {
        observers.results { $0 }
    }

    /// A stream of the current state, then of every state entered (self-transitions included).
    /// Each access is a new subscription; it ends when the machine is released.
    public var states: AsyncStream<State> {
        observers.states { frame.state }
    }

    /// Calls `handler` with every result from now on, in order (Jester's watcher).
    public func observeResults(_ handler: @escaping @Sendable (StateTransitionResult<State>) -> Void) -> Observation {
        observers.observeResults(handler)
    }

    /// Calls `handler` with the current state, then with every state entered, in order.
    ///
    /// The first call happens before `observeStates` returns, unless another thread is
    /// delivering results to observers at that moment: that thread then makes it, still first.
    public func observeStates(_ handler: @escaping @Sendable (State) -> Void) -> Observation {
        observers.observeStates(current: { frame.state }, handler)
    }

    // MARK: - Running

    /// Runs one external input to completion, its argument at `argumentAddress` (or, when nil,
    /// in the frame's ``TypedFrame/boxedArgument``). Called with the lock held, outside any run.
    ///
    /// An input whose cell holds one unguarded row is taken without the runner's result: the
    /// state moves, the row's effects run, and the result is built from the states alone.
    @inlinable
    func run(_ id: Int, _ input: consuming SentInput, argumentAddress: UnsafeRawPointer?) -> StateTransitionResult<State> {
        frame.argumentAddress = argumentAddress
        defer { frame.argumentAddress = nil }
        let cell = runner.dispatchCell(of: id)
        if cell.code >= 0 {
            let transition = Int(cell.code)
            runner.take(cell) { .null }
            let from = frame.state
            let to = enter(transition, state: Int(cell.next), from: from, input: input)
            if !frame.sentFromRun.isEmpty { runQueued(sentBy: transition, after: input, from: from, to: to) }
            return .success(StateTransition(from: from, to: to, input: input, isIgnored: false))
        }
        return runThroughRunner(id, input)
    }

    /// ``run(_:_:argumentAddress:)`` for an input whose cell needs the runner: a guard, several
    /// rows, no row, or a final state. Kept out of line, so that the direct path stays small.
    @inlinable @inline(never)
    func runThroughRunner(_ id: Int, _ input: SentInput) -> StateTransitionResult<State> {
        if timerDriver != nil { return runTimed(id, input) }
        return runUntimed(id, input)
    }

    /// ``runThroughRunner(_:_:)`` for a machine without timers.
    @inlinable
    func runUntimed(_ id: Int, _ input: SentInput) -> StateTransitionResult<State> {
        let first = withUnsafePointer(to: input) { external in
            var host = Host(machine: self, external: external)
            runner.send(id, into: &host)
            return host.first!
        }
        if !pending.isEmpty {
            pending.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
        return typed(first.result, from: first.from, to: first.to, input: input)
    }

    /// ``runThroughRunner(_:_:)`` for a machine with delayed rows: first the timers that fell due
    /// before the input arrived fire, then the input runs, then the driver sleeps until the next
    /// timer. (The direct path never touches timers: a state with delayed rows has every cell
    /// searched, and a state without them has no timer pending.)
    @usableFromInline
    func runTimed(_ id: Int, _ input: SentInput) -> StateTransitionResult<State> {
        fireTimers(dueBy: timerDriver!.now(notBefore: runner.time))
        let result = runUntimed(id, input)
        timerDriver!.schedule(nextDue: runner.nextTimerDue(), for: self)
        return result
    }

    /// Runs the timers due by `time` (the machine's clock, in milliseconds), each result
    /// published with the results of the inputs its row's effects queued. Called with the lock
    /// held, outside any run.
    func fireTimers(dueBy time: Int) {
        runWithoutInput { runner.advance(to: time, into: &$0) }
    }

    /// Starts the initial state's timers (firing those of `.zero` delay), and the driver's
    /// sleep until the first. Called with the lock held, from `init`.
    private func startTimers() {
        runWithoutInput { runner.start(into: &$0) }
        timerDriver!.schedule(nextDue: runner.nextTimerDue(), for: self)
    }

    /// Runs `body` with a host for a run that no external input starts: its first result is a
    /// placeholder, so that every result received is a timer's or a queued input's.
    private func runWithoutInput(_ body: (inout Host) -> Void) {
        let none = SentInput(.named("", argumentType: ObjectIdentifier(Void.self)), argument: (), isQueued: false)
        withUnsafePointer(to: none) { external in
            var host = Host(machine: self, external: external)
            host.first = (TransitionResult(.external, input: -1, outcome: .accepted), frame.state, frame.state)
            body(&host)
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
    }

    /// Runs the inputs sent by the effects of `transition`, taken directly for the external
    /// `input` (which moved the machine from `from` to `to`), to completion.
    @usableFromInline
    func runQueued(sentBy transition: Int, after input: SentInput, from: State, to: State) {
        queueSentFromRun(sentBy: transition, in: &runner)
        frame.argumentAddress = nil
        frame.boxedArgument = pending[pendingHead].argument
        withUnsafePointer(to: input) { external in
            var host = Host(machine: self, external: external)
            host.first = (TransitionResult(.external, input: -1, outcome: .accepted), from, to)
            runner.drainQueue(into: &host)
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
    }

    /// The typed result of the runner's `result` for `input`, which moved the machine from
    /// `from` to `to` (the same state unless accepted).
    @inlinable
    func typed(_ result: TransitionResult, from: State, to: State, input: consuming SentInput) -> StateTransitionResult<State> {
        switch result.outcome {
        case .accepted: .success(StateTransition(from: from, to: to, input: input, isIgnored: false))
        case .ignored: .success(StateTransition(from: from, to: to, input: input, isIgnored: true))
        case .rejected(let kind):
            .failure(
                StateTransitionError(
                    state: from, input: input, kind: kind,
                    explanation: .engine(explainer, result)))
        }
    }

    /// Queues an input sent from inside the run, and returns its `queued` failure. Called with
    /// the lock held, inside a run.
    @inlinable
    func queue(_ id: Int, _ input: SentInput) -> StateTransitionResult<State> {
        frame.sentFromRun.append((id, input))
        return .failure(
            StateTransitionError(
                state: frame.state, input: input, kind: .queued,
                explanation: .queued))
    }

    /// Takes a work's result, unless the state it was started for has been left since.
    private func finishWork(_ result: SentInput, input: Int, entry: Int) {
        let undelivered = observers.lock.withLock {
            if entry == entries {
                frame.boxedArgument = result.argument
                _ = run(input, result, argumentAddress: nil)
            }
            return observers.isUndelivered
        }
        if undelivered { observers.deliver() }
    }

    /// Starts the work of `state`, if it has one, for the current entry. Called with the lock held.
    @usableFromInline
    func startWork(in state: Int) {
        guard let (workState, input) = works[state] else { return }
        let entry = entries
        let (entered, context) = (frame.state, frame.context)
        work = Task { [weak self] in
            let result = await workState.run(entered, context)
            self?.finishWork(result, input: input, entry: entry)
        }
    }

    /// Moves the inputs sent during a result into the runner's queue. Called with the lock held.
    @usableFromInline
    func queueSentFromRun(sentBy transition: Int, in runner: inout TableRunner) {
        for (id, sent) in frame.sentFromRun {
            runner.enqueue(id, sentBy: transition)
            pending.append(sent)
        }
        frame.sentFromRun.removeAll(keepingCapacity: true)
    }

    /// Takes one of the runner's results: builds the state entered, runs effects, queues what
    /// they send, starts works, publishes. Typed results are built only to be published; the
    /// external input's is built once the run is over, from the host's record.
    @inlinable
    func receive(_ result: TransitionResult, host: inout Host, runner: inout TableRunner) {
        // -1: the external input's; -2: a timer's; else the place of the queued input.
        let queued = result.isTimer ? -2 : host.first == nil ? -1 : pendingHead
        if queued >= 0 { pendingHead += 1 }
        let from = frame.state
        var to = from
        if result.isAccepted {
            let entered = result.to
            to = enter(result.transition, state: entered, from: from, input: host.input(queued, of: result))
        } else {
            if observers.isObserved { publish(result, from: from, to: to, input: host.input(queued, of: result)) }
            if result.rejection == .stepLimit {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
        }
        if queued == -1 { host.first = (result, from, to) }
        if !frame.sentFromRun.isEmpty { queueSentFromRun(sentBy: result.transition, in: &runner) }
        if pendingHead < pending.count {
            frame.argumentAddress = nil
            frame.boxedArgument = pending[pendingHead].argument
        }
    }

    /// Takes `transition` (the engine's state is already `entered`), moving from `from`: builds
    /// the state entered, publishes, stops the old state's work, runs the row's effects, starts
    /// the new state's work; returns the state entered.
    @inlinable
    func enter(_ transition: Int, state entered: Int, from: State, input: SentInput) -> State {
        let to = rows.target(of: transition, in: frame, input: input.name)
        frame.state = to
        if observers.isObserved {
            observers.publish(.success(StateTransition(from: from, to: to, input: input, isIgnored: false)), newState: to)
        }
        if let work {
            work.cancel()
            self.work = nil
        }
        entries &+= 1
        rows.runEffects(of: transition, in: frame, from: from, to: to)
        if works[entered] != nil { startWork(in: entered) }
        return to
    }

    /// Publishes the typed result of `result`.
    @inlinable
    func publish(_ result: TransitionResult, from: State, to: State, input: SentInput) {
        observers.publish(typed(result, from: from, to: to, input: input), newState: result.isAccepted ? to : nil)
    }

    /// Hands the runner's results to the machine's ``receive(_:host:runner:)``.
    @usableFromInline
    struct Host: ResultSink {
        @inlinable static var queuesInputs: Bool { true }

        /// The host lives only while the machine runs a send, so it need not retain the machine.
        @usableFromInline let machine: Unmanaged<TypedStateMachine>
        /// The external input, which outlives the host.
        @usableFromInline let external: UnsafePointer<SentInput>
        /// The runner's result for the external input, and the states before and after it; once
        /// set, the results received are queued inputs'.
        @usableFromInline var first: (result: TransitionResult, from: State, to: State)?

        @inlinable
        init(machine: TypedStateMachine, external: UnsafePointer<SentInput>) {
            self.machine = .passUnretained(machine)
            self.external = external
        }

        @inlinable
        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
            let machine = machine
            machine._withUnsafeGuaranteedRef { $0.receive(result, host: &self, runner: &runner) }
        }

        /// The input of `result`: the `queued`th pending one, a delayed row's (`queued` -2), or
        /// the external one (-1).
        @inlinable
        func input(_ queued: Int, of result: TransitionResult) -> SentInput {
            if queued >= 0 { return machine._withUnsafeGuaranteedRef { $0.pending[queued] } }
            if queued == -2 { return machine._withUnsafeGuaranteedRef { $0.frame.afterInputs[result.input]! } }
            return external.pointee
        }
    }
}

// MARK: - Clock

extension TypedStateMachine: ClockDrivenMachine {
    func nextTimerDue() -> Int? {
        observers.lock.withLock { observers.lock.depth > 1 ? nil : runner.nextTimerDue() }
    }

    func fireDueTimers(wokenBy generation: Int?) {
        observers.lock.lock()
        if observers.lock.depth == 1, let timerDriver, generation.map(timerDriver.takeWake) ?? true {
            fireTimers(dueBy: timerDriver.now(notBefore: runner.time))
            timerDriver.schedule(nextDue: runner.nextTimerDue(), for: self)
        }
        let undelivered = observers.isUndelivered
        observers.lock.unlock()
        if undelivered { observers.deliver() }
    }
}
