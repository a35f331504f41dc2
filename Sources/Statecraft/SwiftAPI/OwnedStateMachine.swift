/// A typed state machine that one owner drives without a lock: a noncopyable value, the way
/// swift-nio writes its protocol state machines, for code that already owns its machine on one
/// thread (an actor, a channel handler on its event loop).
///
/// ```swift
/// actor Trip {
///     private var car = OwnedStateMachine(initial: Car.unstarted, context: Passengers()) {
///         Inputs.startEngine           | .unstarted => .parked
///         Inputs.passengersHaveEntered | .parked    => .parked | { $0.context.count = $0.argument }
///     }
///     func start() -> Car { car.send(Inputs.startEngine); return car.state }
/// }
/// ```
///
/// It is built from the same rows as a ``TypedStateMachine``, compiles to the same table and
/// has the same semantics: rows selected in written order by their guards, the state changed
/// before the row's effects run, inputs sent by effects queued and run to completion before
/// `send` returns, the same step limit and the same rejections. What it leaves out is what
/// sharing needs: `send` takes no lock, and there are no observers, streams or work states.
/// Nor is there a clock: the timers of delayed rows (``After``) fire when the owner moves the
/// machine's time with ``advance(by:)``.
/// `send` returns a plain ``OwnedTransitionResult``, whose rejections the machine words on
/// demand (``message(for:)``); results of queued inputs go to ``queuedResultHandler``, if set. An effect that reads
/// ``TransitionStep/machine`` (the shared machine) stops the program; effects use the step's
/// `context` and `send` instead.
///
/// Use a ``TypedStateMachine`` when several tasks send to one machine or something observes it;
/// use this when its owner is the only one that touches it.
///
/// It is `Sendable` because it cannot be copied: moving it to another task moves its one owner.
public struct OwnedStateMachine<State: MachineState, Context: Sendable>: ~Copyable, Sendable {
    @usableFromInline var runner: TableRunner
    /// The direct path's table: per state and input, the state entered when nothing runs.
    @usableFromInline let table: OwnedDispatchTable<State, Context>
    /// State, context, the argument in hand and the sends queued by effects; owned by this
    /// value alone (it cannot be copied), so no lock guards it.
    @usableFromInline let frame: TypedFrame<State, Context>
    /// Per engine transition, what taking it does.
    @usableFromInline let rows: RowActions<State, Context>
    /// Input ids (the frame has a copy, for effects' sends).
    @usableFromInline let inputs: InputTable
    /// Words rejections' messages when they are read.
    @usableFromInline let explainer: ResultExplainer

    /// Called with the result of every input that an effect sent, in the order they run; the
    /// external input's result is what ``send(_:_:)`` returns.
    public var queuedResultHandler: (@Sendable (StateTransitionResult<State>) -> Void)?

    /// A machine starting in `initial` with `context`, following `rules` (rows and final states;
    /// a ``WorkState`` needs a shared machine, and stops the program here).
    ///
    /// - Parameters:
    ///   - initial: the state to start in.
    ///   - context: the extended state's initial value.
    ///   - onUnhandled: what an input without a transition from the current state gives:
    ///     a `noTransition` failure (`.reject`), or a success that changes nothing (`.ignore`).
    ///   - stepLimit: how many queued inputs one external input may cause before `stepLimit`.
    ///   - rules: the rows and final states, in order.
    public init(
        initial: State, context: Context, onUnhandled: MachineDefinition.UnhandledPolicy = .reject,
        stepLimit: Int = RunLimits.defaultStepLimit, @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) {
        frame = TypedFrame(state: initial, context: context)
        let compiled = TypedMachineCompiler.compile(initial: initial, rules: rules(), onUnhandled: onUnhandled, frame: frame)
        precondition(
            compiled.works.allSatisfy { $0 == nil },
            "an OwnedStateMachine runs no work states: their results arrive later, from another task; use a TypedStateMachine")
        frame.inputs = compiled.inputs
        frame.afterInputs = compiled.afterInputs
        inputs = compiled.inputs
        runner = TableRunner(compiled.machine, stepLimit: stepLimit, timerLimit: RunLimits.defaultTimerLimit)
        rows = RowActions(compiled.rows)
        table = OwnedDispatchTable(compiled.machine, inputs: compiled.inputs, rows: rows, filler: initial)
        explainer = ResultExplainer(compiled.machine, stepLimit: stepLimit)
        if compiled.machine.hasTimers {
            // The initial state's timers start now, at time zero.
            var host = Host(frame: frame, rows: rows, external: nil)
            runner.start(into: &host)
        }
    }

    deinit {
        table.free()
    }

    /// A machine without extended state, starting in `initial` and following `rules`.
    public init(
        initial: State, onUnhandled: MachineDefinition.UnhandledPolicy = .reject, stepLimit: Int = RunLimits.defaultStepLimit,
        @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) where Context == Void {
        self.init(initial: initial, context: (), onUnhandled: onUnhandled, stepLimit: stepLimit, rules: rules)
    }

    /// The current state.
    @inlinable
    public var state: State { frame.state }

    /// The extended state.
    @inlinable
    public var context: Context { frame.context }

    /// Sends an input without argument and runs it to completion; returns its result.
    @inlinable
    @discardableResult
    public mutating func send(_ input: Input<Void>) -> OwnedTransitionResult<State> {
        send(input, ())
    }

    /// Sends an input with its argument and runs it to completion; returns its result.
    @inlinable
    @discardableResult
    public mutating func send<Argument>(_ input: Input<Argument>, _ argument: Argument) -> OwnedTransitionResult<State> {
        // One unguarded row without effects, to a fixed state: the input's column and its cell
        // settle it, and the argument is never read, so its address is never taken.
        let cell = table.cell(column: table.column(of: input), state: runner.current)
        let next = cell.pointee.next
        guard next >= 0 else {
            if cell.pointee.effects != nil { return enterWithEffects(input, argument, cell) }
            return settle(input, argument, cell)
        }
        runner.current = Int(next)
        let from = frame.state
        let to = cell.pointee.target
        frame.state = to
        return .moved(from: from, to: to)
    }

    /// The message of `rejection`, which this machine returned: a sentence naming the input and
    /// the state, as a ``TypedStateMachine``'s ``StateTransitionError/message`` words it.
    public func message(for rejection: OwnedRejection<State>) -> String {
        let state = Int(rejection.stateID)
        let result = TransitionResult(.external, input: inputs.id(of: rejection.input), outcome: .rejected(rejection.kind), from: state, to: state)
        return explainer.message(for: result, inputName: rejection.inputName)
    }

    // MARK: - Time

    /// The machine's clock: the time since it was made, as ``advance(by:)`` moved it. Time
    /// stands still between calls: the owner moves it (a machine without delayed rows has no
    /// use for it).
    public var time: Duration { .milliseconds(runner.time) }

    /// Moves the machine's clock `duration` forward, firing the timers of delayed rows
    /// (``After``) that fall due on the way, in time order, each with the inputs its row's
    /// effects queued run to completion; returns their results in order. A negative duration
    /// stops the program.
    @discardableResult
    public mutating func advance(by duration: Duration) -> [StateTransitionResult<State>] {
        precondition(duration >= .zero, "OwnedStateMachine.advance(by:) takes a duration of zero or more: time moves forward only")
        return advance(to: time + duration)
    }

    /// Moves the machine's clock forward to `time` (since the machine was made), firing the
    /// timers that fall due on the way, as ``advance(by:)``; nothing happens when the clock is
    /// there or past it already. Time is counted in whole milliseconds: a finer part is dropped.
    @discardableResult
    public mutating func advance(to time: Duration) -> [StateTransitionResult<State>] {
        // Far enough from the end of `Int` that a timer started then still has a due time.
        let target = min(time.wholeMilliseconds, Int.max / 2)
        guard target > runner.time else { return [] }
        var host = Host(frame: frame, rows: rows, external: nil)
        runner.advance(to: target, into: &host)
        return host.queuedResults.map { Self.typed($0.result, from: $0.from, to: $0.to, input: $0.input, explainer: explainer) }
    }

    // MARK: - Running

    /// Runs `body` with `argument` where the frame's effects, guards and builders read it: on
    /// the sender's stack, unboxed, until `body` returns.
    @inlinable @inline(__always)
    mutating func withArgument<Argument>(
        _ argument: Argument, _ body: (inout Self) -> OwnedTransitionResult<State>
    ) -> OwnedTransitionResult<State> {
        withUnsafePointer(to: argument) { address in
            frame.argumentAddress = UnsafeRawPointer(address)
            defer { frame.argumentAddress = nil }
            return body(&self)
        }
    }

    /// Takes the row with effects of the cell at `cellAddress`, `input`'s cell in the current
    /// state: enters its state, calls its effects with `argument`, then runs what they queued.
    /// In line in ``send(_:_:)``: a call here cost some 15 instructions per row with effects,
    /// more than a larger direct path costs (52.8 -> 49.8 instructions per transition in the
    /// benchmark's walk); ``settle(_:_:_:)``, whose frame is larger, stays out of line.
    @inlinable @inline(__always)
    mutating func enterWithEffects<Argument>(
        _ input: Input<Argument>, _ argument: Argument, _ cellAddress: UnsafePointer<OwnedDispatchTable<State, Context>.Cell>
    ) -> OwnedTransitionResult<State> {
        let cell = cellAddress.pointee
        let left = runner.current
        runner.current = cell.stateEnteredWithEffects
        let frame = frame
        let from = frame.state
        let to = cell.target
        frame.state = to
        cell.effects.unsafelyUnwrapped._withUnsafeGuaranteedRef { erased in
            // The cell is `input`'s, and a row's effects take its input's argument type.
            let effects = unsafeDowncast(erased, to: ErasedRow<State, Context>.RowEffects<Argument>.self)
            withUnsafePointer(to: argument) { address in
                frame.argumentAddress = UnsafeRawPointer(address)
                var step = TransitionStep(from: from, to: to, input: input, frame: frame)
                effects.effect(&step)
            }
        }
        frame.argumentAddress = nil
        if !frame.sentFromRun.isEmpty { runQueued(sentBy: input.key, from: left) }
        return .moved(from: from, to: to)
    }

    /// Settles an input that the direct path leaves, whose cell (at `cellAddress`) has no
    /// effects: a cell without a row, settled as the runner would settle it; a row that builds
    /// its state, taken directly; any other cell (a guard, several rows, a final state) through
    /// the runner. Then runs what effects queued. Out of line, so that the direct path stays small.
    @inlinable @inline(never)
    mutating func settle<Argument>(
        _ input: Input<Argument>, _ argument: Argument, _ cellAddress: UnsafePointer<OwnedDispatchTable<State, Context>.Cell>
    ) -> OwnedTransitionResult<State> {
        let cell = cellAddress.pointee
        if cell.next == OwnedDispatchTable<State, Context>.unhandled {
            // Settled here as the runner would settle it.
            if runner.machine.onUnhandled == .ignore { return .ignored(in: frame.state) }
            return .rejected(OwnedRejection(state: frame.state, kind: .noTransition, input: input.key, stateID: runner.current))
        }
        let id = inputs.id(of: input)
        let engineCell = runner.dispatchCell(of: id)
        if engineCell.code >= 0 {
            // One unguarded row: a typed machine's effects are Swift code, never the engine's
            // copies, so the cell's next state is its target.
            let transition = Int(engineCell.code)
            runner.current = Int(engineCell.next)
            let from = frame.state
            return withArgument(argument) { $0.enter(transition, from: from, input: input) }
        }
        let sent = input.sent(argument, queued: false)
        return withArgument(argument) { machine in
            var host = Host(frame: machine.frame, rows: machine.rows, external: sent)
            machine.runner.send(id, into: &host)
            return machine.finish(&host, input: input.key)
        }
    }

    /// Takes `transition`, which the runner has already taken from `from`: moves to the state
    /// its row names (or builds), runs its effects, then what they queued.
    @inlinable @inline(__always)
    mutating func enter<Argument>(_ transition: Int, from: State, input: Input<Argument>) -> OwnedTransitionResult<State> {
        let to = rows.target(of: transition, in: frame, input: input.name)
        frame.state = to
        rows.runEffects(of: transition, in: frame, from: from, to: to)
        if !frame.sentFromRun.isEmpty { runQueued(sentBy: transition) }
        return .moved(from: from, to: to)
    }

    /// Queues what the effects of the transition that `input` took directly from the state of
    /// id `state` sent, and runs it to completion.
    @inlinable @inline(never)
    mutating func runQueued(sentBy input: InputKey, from state: Int) {
        let table = runner.machine.table
        runQueued(sentBy: Int(table.cell(state: state, input: inputs.id(of: input)).code))
    }

    /// Queues what the effects of `transition`, taken directly, sent, and runs it to completion.
    @inlinable @inline(never)
    mutating func runQueued(sentBy transition: Int) {
        var host = Host(frame: frame, rows: rows, external: nil)
        host.queue(sentBy: transition, in: &runner)
        frame.argumentAddress = nil
        frame.boxedArgument = host.pending[0].argument
        runner.drainQueue(into: &host)
        report(host.queuedResults)
    }

    /// The external input's result, once the run is over; queued results reported.
    @inlinable
    func finish(_ host: inout Host, input: InputKey) -> OwnedTransitionResult<State> {
        report(host.queuedResults)
        let first = host.first!
        switch first.result.outcome {
        case .accepted: return .moved(from: first.from, to: first.to)
        case .ignored: return .ignored(in: first.from)
        case .rejected(let kind): return .rejected(OwnedRejection(state: first.from, kind: kind, input: input, stateID: first.result.from))
        }
    }

    /// Hands the results of queued inputs to ``queuedResultHandler``.
    @inlinable
    func report(_ results: [(result: TransitionResult, from: State, to: State, input: SentInput)]) {
        guard let queuedResultHandler else { return }
        for queued in results {
            queuedResultHandler(Self.typed(queued.result, from: queued.from, to: queued.to, input: queued.input, explainer: explainer))
        }
    }

    /// The typed result of the runner's `result` for `input`, which moved the machine from
    /// `from` to `to` (the same state unless accepted).
    @inlinable
    static func typed(
        _ result: TransitionResult, from: State, to: State, input: SentInput, explainer: ResultExplainer
    ) -> StateTransitionResult<State> {
        switch result.outcome {
        case .accepted: .success(StateTransition(from: from, to: to, input: input, isIgnored: false))
        case .ignored: .success(StateTransition(from: from, to: to, input: input, isIgnored: true))
        case .rejected(let kind):
            .failure(StateTransitionError(state: from, input: input, kind: kind, explanation: .engine(explainer, result)))
        }
    }

    /// Takes the runner's results: enters states, runs effects, queues what they send, and
    /// keeps the results for the machine to type once the run is over.
    @usableFromInline
    struct Host: ResultSink {
        @inlinable static var queuesInputs: Bool { true }

        @usableFromInline unowned(unsafe) let frame: TypedFrame<State, Context>
        @usableFromInline let rows: RowActions<State, Context>
        /// The external input, or nil when the run only drains what a direct transition queued.
        @usableFromInline let external: SentInput?
        /// The inputs queued so far in this run, in the order the runner takes them.
        @usableFromInline var pending: [SentInput] = []
        @usableFromInline var pendingHead = 0
        /// The external input's result and the states before and after it.
        @usableFromInline var first: (result: TransitionResult, from: State, to: State)?
        /// The results of queued inputs, in order.
        @usableFromInline var queuedResults: [(result: TransitionResult, from: State, to: State, input: SentInput)] = []

        @inlinable
        init(frame: TypedFrame<State, Context>, rows: RowActions<State, Context>, external: SentInput?) {
            self.frame = frame
            self.rows = rows
            self.external = external
        }

        @inlinable
        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
            let isExternal = external != nil && first == nil
            let input: SentInput
            if result.isTimer {
                // A delayed row's timer: its input is the row's, not a queued one.
                input = frame.afterInputs[result.input]!
            } else {
                input = isExternal ? external! : pending[pendingHead]
                if !isExternal { pendingHead += 1 }
            }
            let from = frame.state
            var to = from
            if result.isAccepted {
                to = rows.target(of: result.transition, in: frame, input: input.name)
                frame.state = to
                rows.runEffects(of: result.transition, in: frame, from: from, to: to)
            } else if result.rejection == .stepLimit {
                pendingHead = pending.count
            }
            if isExternal && !result.isTimer { first = (result, from, to) } else { queuedResults.append((result, from, to, input)) }
            if !frame.sentFromRun.isEmpty { queue(sentBy: result.transition, in: &runner) }
            if pendingHead < pending.count {
                frame.argumentAddress = nil
                frame.boxedArgument = pending[pendingHead].argument
            }
        }

        /// Moves the inputs effects sent into the runner's queue.
        @inlinable
        mutating func queue(sentBy transition: Int, in runner: inout TableRunner) {
            for (id, sent) in frame.sentFromRun {
                runner.enqueue(id, sentBy: transition)
                pending.append(sent)
            }
            frame.sentFromRun.removeAll(keepingCapacity: true)
        }
    }
}
