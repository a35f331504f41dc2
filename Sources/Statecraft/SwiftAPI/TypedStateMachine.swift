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
/// through ``Runner``, as machine files do; Swift guards, builders and effects are bound to the
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
/// **Observation.** Streams (``results``, ``states``) receive results as they happen. Callbacks
/// (``observeResults(_:)``, ``observeStates(_:)``) run outside the lock, one at a time, in order:
/// a single-threaded caller's callbacks have all run when `send` returns; with several threads
/// sending, the thread already calling callbacks calls them for the others' results too.
public final class TypedStateMachine<State: MachineState, Context: Sendable>: @unchecked Sendable {
    // Every `var` is guarded by `observers.lock`.
    let observers = Observers<StateTransitionResult<State>, State>()
    private var runner: Runner
    private let frame: TypedFrame<State, Context>
    private let inputIDs: [InputKey: Int]
    private let unmappedInput: Int
    private let rows: [ErasedRow<State, Context>]
    private let works: [WorkState<State, Context>?]
    private let slotIDs: [State.Slot: Int]
    /// The inputs of the current run, in the order the runner takes them: the external input,
    /// then the queued ones.
    private var pending: [SentInput] = []
    private var pendingHead = 0
    /// Inputs sent from inside the run since the last result, not yet queued in the runner.
    private var sentFromRun: [SentInput] = []
    /// Counts entries into states; work whose entry is not the latest is stale.
    private var entries = 0
    private var work: Task<Void, Never>?

    /// A machine starting in `initial` with `context`, following `rules`.
    ///
    /// - Parameters:
    ///   - initial: the state to start in; if it is a work state, its work starts now.
    ///   - context: the extended state's initial value.
    ///   - onUnhandled: what an input without a transition from the current state gives:
    ///     a `noTransition` failure (`.reject`), or a success that changes nothing (`.ignore`).
    ///   - stepLimit: how many queued inputs one external input may cause before `stepLimit`.
    ///   - rules: the rows, work states and final states, in order.
    public init(
        initial: State, context: Context, onUnhandled: MachineDefinition.UnhandledPolicy = .reject,
        stepLimit: Int = Runner.defaultStepLimit, @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) {
        frame = TypedFrame(state: initial, context: context)
        let compiled = TypedMachineCompiler.compile(initial: initial, rules: rules(), onUnhandled: onUnhandled, frame: frame)
        runner = Runner(compiled.machine, stepLimit: stepLimit)
        inputIDs = compiled.inputIDs
        unmappedInput = compiled.unmappedInput
        rows = compiled.rows
        works = compiled.works
        slotIDs = compiled.slotIDs
        observers.lock.withLock { startWork(in: compiled.machine.initialState) }
    }

    /// A machine without extended state, starting in `initial` and following `rules`.
    public convenience init(
        initial: State, onUnhandled: MachineDefinition.UnhandledPolicy = .reject, stepLimit: Int = Runner.defaultStepLimit,
        @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) where Context == Void {
        self.init(initial: initial, context: (), onUnhandled: onUnhandled, stepLimit: stepLimit, rules: rules)
    }

    deinit {
        work?.cancel()
        observers.finish()
    }

    /// The current state.
    public var state: State {
        observers.lock.withLock { frame.state }
    }

    /// The extended state. Inside an effect, its ``TransitionStep/context`` is the live one.
    public var context: Context {
        observers.lock.withLock { frame.context }
    }

    /// Sends an input without argument; returns its result, also published to observers.
    ///
    /// Called from inside one of this machine's effects, guards or builders, the input is queued
    /// instead (run to completion), and the result is a `queued` failure.
    @discardableResult
    public func send(_ input: Input<Void>) -> StateTransitionResult<State> {
        send(input, ())
    }

    /// Sends an input with its argument; returns its result, also published to observers.
    ///
    /// Called from inside one of this machine's effects, guards or builders, the input is queued
    /// instead (run to completion), and the result is a `queued` failure.
    @discardableResult
    public func send<Argument>(_ input: Input<Argument>, _ argument: Argument) -> StateTransitionResult<State> {
        let result = observers.lock.withLock { () -> StateTransitionResult<State> in
            let nested = observers.lock.depth > 1
            let sent = input.sent(argument, queued: nested)
            guard nested else { return run(sent) }
            sentFromRun.append(sent)
            return .failure(
                StateTransitionError(
                    state: frame.state, input: sent, kind: .queued,
                    message: "'\(input.name)' was sent while the machine runs a transition; it runs after it"))
        }
        observers.deliver()
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

    // MARK: Running

    /// Runs one external input to completion. Called with the lock held, outside any run.
    private func run(_ input: SentInput) -> StateTransitionResult<State> {
        pending.removeAll(keepingCapacity: true)
        pending.append(input)
        pendingHead = 0
        frame.argument = input.argument
        var host = Host(machine: self)
        runner.send(inputIDs[input.key] ?? unmappedInput, host: &host)
        return host.first!
    }

    /// Takes a work's result, unless the state it was started for has been left since.
    private func finishWork(_ result: SentInput, entry: Int) {
        observers.lock.withLock {
            guard entry == entries else { return }
            _ = run(result)
        }
        observers.deliver()
    }

    /// Starts the work of `state`, if it has one, for the current entry. Called with the lock held.
    private func startWork(in state: Int) {
        guard let workState = works[state] else { return }
        let entry = entries
        let (entered, context) = (frame.state, frame.context)
        work = Task { [weak self] in
            let result = await workState.run(entered, context)
            self?.finishWork(result, entry: entry)
        }
    }

    /// Binds the runner's results to the typed machine: builds states, runs effects, queues what
    /// they send, starts works, publishes.
    private struct Host: RunnerHost {
        unowned let machine: TypedStateMachine
        /// The result of the external input.
        var first: StateTransitionResult<State>?

        mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
            let machine = machine
            let input = machine.pending[machine.pendingHead]
            machine.pendingHead += 1
            let frame = machine.frame
            let typed: StateTransitionResult<State>
            switch result.outcome {
            case .accepted(let to):
                let row = machine.rows[result.transition]
                let from = frame.state
                let entered = row.target(from, input.argument, frame.context)
                precondition(
                    machine.slotIDs[entered.slot] == to,
                    "the row for '\(input.name)' built \(entered), which is not in its target slot '\(runner.machine.stateNames[to])'")
                frame.state = entered
                typed = .success(StateTransition(from: from, to: entered, input: input, isIgnored: false))
                machine.observers.publish(typed, newState: entered)
                machine.work?.cancel()
                machine.work = nil
                machine.entries += 1
                if let effects = row.effects {
                    var context = frame.context
                    effects(machine, from, entered, input.argument, &context)
                    frame.context = context
                }
                machine.startWork(in: to)
            case .ignored:
                typed = .success(StateTransition(from: frame.state, to: frame.state, input: input, isIgnored: true))
                machine.observers.publish(typed, newState: nil)
            case .rejected(let kind):
                typed = .failure(
                    StateTransitionError(
                        state: frame.state, input: input, kind: StateTransitionError.Kind(kind),
                        message: runner.machine.message(for: result, inputName: input.name, stepLimit: runner.stepLimit)))
                machine.observers.publish(typed, newState: nil)
                if kind == .stepLimit {
                    machine.pending.removeAll(keepingCapacity: true)
                    machine.pendingHead = 0
                }
            }
            if first == nil { first = typed }
            for sent in machine.sentFromRun {
                runner.enqueue(machine.inputIDs[sent.key] ?? machine.unmappedInput, sentBy: result.transition)
                machine.pending.append(sent)
            }
            machine.sentFromRun.removeAll(keepingCapacity: true)
            if machine.pendingHead < machine.pending.count { frame.argument = machine.pending[machine.pendingHead].argument }
        }
    }
}
