/// Runs a flat ``CompiledMachine`` (one active state) through its dispatch table: holds the
/// current state and context, takes inputs, and hands every result to a ``ResultSink``
/// (docs/semantics.md). The policy the compiler picks for a machine without nesting; a
/// statechart runs on ``ChartRunner``, with the same results.
///
/// The hot path, an input whose cell has one unguarded candidate whose effect bodies only copy
/// values (or none), is one load from the dispatch table and allocates nothing.
@usableFromInline
package struct TableRunner: MachineRunner {
    /// The machine it runs.
    @usableFromInline package let machine: CompiledMachine
    /// The current state's id.
    package var state: Int { current }
    /// The context's values, by variable id.
    @inlinable package var contextStorage: [Value] { values }
    // Stored under other names so that the inlinable hot path may write them; `state` and
    // `context` stay read-only for callers.
    @usableFromInline var current: Int
    @usableFromInline var values: [Value]
    /// Counts the changes of ``context``: a caller that shows the context may keep what it
    /// showed last while this stays the same.
    @usableFromInline package internal(set) var contextVersion = 0
    /// Queued inputs processed per external input before `step-limit` (docs/semantics.md).
    @usableFromInline package var stepLimit: Int
    /// Receives the lines effects' `log` steps write; `nil` (the default) drops them.
    @usableFromInline package var logHandler: EffectLogHandler?

    // The queue and the steps of a transition are internal, not private: `send` is inlinable so
    // that it is specialised for the caller's sink.
    @usableFromInline package var queue: [QueuedInput] = []
    @usableFromInline package var queueHead = 0
    /// How many inputs at the queue's tail were sent to the external queue (docs/semantics.md).
    @usableFromInline package var externalCount = 0
    /// Where effect bodies write until a transition commits (`expression-error` assigns nothing).
    private var scratch: [Value]

    // Timers (RunnerTimers.swift): untouched by a machine without them.
    /// The pending timers.
    @usableFromInline package var timers: TimerQueue
    /// The machine's clock, in milliseconds: 0 at start, moved by ``advance(to:into:)``.
    @usableFromInline package var time = 0
    /// The most timers that may be pending: a transition that would start more is rejected
    /// as `timer-limit`.
    @usableFromInline package var timerLimit: Int
    /// Delayed sends and cancels of the effects of the transition being taken.
    var timerRequests: [TimerRequest] = []
    /// Whether the queue holds the marker that fires timers already due once the inputs
    /// queued before it are processed.
    @usableFromInline package var dueMarkerQueued = false
    /// The argument of the delayed send being fired, while its result is received.
    @usableFromInline package var firedArgument: Value = .null

    /// A runner in `machine`'s initial state and context, not yet started (see ``start(into:)``).
    @usableFromInline package init(_ machine: CompiledMachine, stepLimit: Int = RunLimits.defaultStepLimit, timerLimit: Int = RunLimits.defaultTimerLimit) {
        precondition(machine.chart == nil, "a statechart runs on ChartRunner (CompiledMachine.visitRunner)")
        self.machine = machine
        self.timerLimit = timerLimit
        timers = TimerQueue(
            stateCount: machine.timers == nil ? 0 : machine.stateCount, timerCount: machine.timers?.timerNames.count ?? 0)
        self.current = machine.initialState
        self.values = machine.initialContext
        self.scratch = machine.initialContext
        self.stepLimit = stepLimit
    }

    /// Resumes at `state` with `context` (a snapshot), without running entry effects.
    package mutating func restore(state: Int, context: [Value]) {
        precondition(machine.stateNames.indices.contains(state) && context.count == machine.variableNames.count)
        self.current = state
        self.values = context
        contextVersion &+= 1
    }

    /// Runs the initial state's entry effects, reporting a start result when there are any,
    /// then the inputs they queued.
    @usableFromInline package mutating func start<Sink: ResultSink & ~Copyable>(into sink: inout Sink) where Sink.Runner == Self {
        if machine.timers != nil { startAfters(of: current) }
        guard let result = runStartEffects() else {
            if queueHead < queue.count { drainQueue(into: &sink) }
            return
        }
        sink.receive(result, from: &self)
        drainQueue(into: &sink)
    }

    /// Runs the initial state's entry effects; the start result, or `nil` when there are none.
    mutating func runStartEffects() -> TransitionResult? {
        let entry = machine.entryEffects[state]
        guard !entry.isEmpty else { return nil }
        var result = TransitionResult(.start, input: -1, outcome: .accepted, from: state, to: state)
        if let failure = runEffects(EffectSequence(exit: [], transition: [], entry: entry), argument: .null) {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
        }
        return result
    }

    /// Processes one external input whose argument has been checked against its declared type,
    /// then every input its effects queued (run to completion).
    ///
    /// - Parameter argument: the argument, or `.null` for an input without one. For an input
    ///   whose argument the machine never reads (``CompiledMachine/argumentIsRead``), any value
    ///   of the right type will do.
    ///
    /// Always inlined: the hot path is a few loads and the sink's call, and a caller that calls it
    /// out of line copies and destroys the argument on every input (some 100 instructions).
    @inlinable @inline(__always)
    package mutating func send<Sink: ResultSink & ~Copyable>(_ input: Int, argument: Value = .null, into sink: inout Sink) where Sink.Runner == Self {
        // The hot path: a cell settled by its code, whose result is built here and handed
        // straight to the sink. A cell taken directly runs only copies, which queue nothing:
        // only a sink that queues inputs itself (bound closures) leaves a queue to drain.
        let from = current
        let cell = dispatchCell(of: input)
        if cell.code >= 0 {
            take(cell) { argument }
            sink.receive(TransitionResult(.external, input: input, outcome: .accepted, from: from, to: current, transition: Int(cell.code)), from: &self)
            // A sink that binds closures to effects may have queued inputs.
            if Sink.queuesInputs && queueHead < queue.count { drainQueue(into: &sink) }
            return
        }
        if cell.code == DispatchTable.unhandled {
            let outcome: TransitionResult.Outcome = machine.onUnhandled == .ignore ? .ignored : .rejected(.noTransition)
            sink.receive(TransitionResult(.external, input: input, outcome: outcome, from: from, to: from), from: &self)
            if Sink.queuesInputs && queueHead < queue.count { drainQueue(into: &sink) }
            return
        }
        sendSearching(input, argument: argument, into: &sink)
    }

    /// ``send(_:argument:into:)`` for a cell that is not settled by its code: its candidates
    /// searched, guards evaluated, effect bodies run, the queue drained. Specialised for the
    /// caller's sink, but kept out of the hot path's line.
    @inlinable @inline(never)
    mutating func sendSearching<Sink: ResultSink & ~Copyable>(_ input: Int, argument: Value, into sink: inout Sink) where Sink.Runner == Self {
        let result = process(input, argument: argument, sentBy: -1)
        sink.receive(result, from: &self)
        if queueHead < queue.count { drainQueue(into: &sink) }
    }

    /// Processes an external input whose cell in the current state is settled without a search
    /// (its only candidate has no guard and its effect bodies only copy values or it refuses the
    /// input, or it has no candidate), and returns the outcome; no sink is told, the caller
    /// reports the result. `argument` is called only when the transition copies values, so the
    /// caller builds the argument only then.
    /// `nil`, with nothing changed, for any other input: send it with ``send(_:argument:into:)``.
    ///
    /// The fastest path, for a caller that precomputes what it prints per cell.
    @inlinable @inline(__always)
    package mutating func sendSettled(_ input: Int, argument: () -> Value) -> TransitionResult.Outcome? {
        let cell = dispatchCell(of: input)
        if cell.code >= 0 {
            take(cell, argument: argument)
            return .accepted
        }
        if cell.code == DispatchTable.unhandled { return machine.onUnhandled == .ignore ? .ignored : .rejected(.noTransition) }
        if cell.code == DispatchTable.refused { return .rejected(.refused) }
        return nil
    }

    /// How `input` is settled in the current state (see ``DispatchTable``).
    @inlinable @inline(__always)
    func dispatchCell(of input: Int) -> DispatchTable.Cell {
        machine.table.cell(validState: current, input: input)
    }

    /// The cell of `input` in the current state: `state * inputCount + input`.
    @inlinable @inline(__always)
    package func cell(of input: Int) -> Int {
        current &* machine.inputCount &+ input
    }

    /// The cell an external input's `result` was taken in: `from * inputCount + input`.
    @inlinable @inline(__always)
    package func cell(before result: TransitionResult) -> Int {
        result.from &* machine.inputCount &+ result.input
    }

    /// The argument of a queued input's result, while a sink receives it (`nil` for an
    /// external input, whose argument is the caller's, and for the start).
    @usableFromInline package func queuedArgument(of result: TransitionResult) -> Value? {
        if result.isTimer { return result.sentBy >= 0 ? firedArgument : nil }
        return result.queueSlot >= 0 && result.queueSlot < queue.count ? queue[result.queueSlot].argument : nil
    }

    /// The result for an input rejected before it reached the machine (an unknown name, a bad
    /// argument); `input` is -1 when the name is unknown.
    @usableFromInline package func rejection(_ kind: RejectionKind, input: Int) -> TransitionResult {
        TransitionResult(.external, input: input, outcome: .rejected(kind), from: state, to: state)
    }

    /// Queues `input` behind the inputs already queued, reported as sent by `sentBy` (an effect
    /// id): for a sink's ``ResultSink/receive(_:from:)``, whose input runs before
    /// ``send(_:argument:into:)`` returns. Its argument is not checked: it must be one the input
    /// accepts.
    @usableFromInline
    package mutating func enqueue(_ input: Int, argument: Value = .null, sentBy: Int) {
        queue.appendInternal(QueuedInput(input: input, argument: argument, sender: sentBy), externalCount: externalCount)
    }

    @usableFromInline
    mutating func drainQueue<Sink: ResultSink & ~Copyable>(into sink: inout Sink) where Sink.Runner == Self {
        var steps = 0
        while let result = nextQueuedResult(steps: &steps) { sink.receive(result, from: &self) }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        dueMarkerQueued = false
        externalCount = 0
    }

    /// Processes the next queued input, or reports `step-limit` for it and discards the rest
    /// of the queue; `nil` when the queue is drained (docs/semantics.md).
    @usableFromInline
    mutating func nextQueuedResult(steps: inout Int) -> TransitionResult? {
        var next: QueuedInput
        repeat {
            guard queueHead < queue.count else { return nil }
            next = queue[queueHead]
            if queueHead >= queue.count - externalCount { externalCount -= 1 }
            queueHead += 1
            // Input -1 marks where timers already due fire (a `0s` delay): see RunnerTimers.swift.
            if next.input < 0, let result = nextDueTimerResult(steps: &steps) { return result }
        } while next.input < 0
        steps += 1
        var result: TransitionResult
        if steps > stepLimit {
            result = TransitionResult(
                TransitionResult.trigger(sentBy: next.sender), input: next.input, outcome: .rejected(.stepLimit), from: current, to: current)
            result.discarded = queue.count - queueHead
            queueHead = queue.count
            externalCount = 0
            if machine.timers != nil { result.discarded += discardDueTimers() }
        } else {
            result = process(next.input, argument: next.argument, sentBy: next.sender)
        }
        result.queueSlot = queueHead - 1
        return result
    }

    @inlinable
    mutating func process(_ input: Int, argument: Value, sentBy: Int) -> TransitionResult {
        var result = TransitionResult(TransitionResult.trigger(sentBy: sentBy), input: input, from: current, to: current)
        let cell = machine.table.cell(validState: current, input: input)
        if cell.code >= 0 {
            take(cell) { argument }
            result.transition = Int(cell.code)
            result.outcome = .accepted
            result.to = current
            return result
        }
        if cell.code == DispatchTable.finished {
            result.outcome = .rejected(.finished)
        } else if cell.code == DispatchTable.unhandled {
            if machine.onUnhandled == .ignore { result.outcome = .ignored }
        } else {
            search(from: Int(cell.next), argument: argument, &result)
        }
        return result
    }

    /// Takes the transition of a cell settled without a search: its copies (`argument` is called
    /// only for them), then the move.
    @inlinable @inline(__always)
    mutating func take(_ cell: DispatchTable.Cell, argument: () -> Value) {
        if cell.next < 0 {
            runCopies(of: Int(cell.code), argument: argument())
            current = Int(~cell.next)
        } else {
            current = Int(cell.next)
        }
    }

    /// Runs the copies of a transition taken directly (its effect bodies only copy values): its
    /// source's exit effects', its own, then its target's entry effects'.
    @usableFromInline
    mutating func runCopies(of index: Int, argument: Value) {
        contextVersion &+= 1
        // `values` is written while the table is read: disjoint stored properties, so one
        // uniqueness check of the context for all the copies, and no copy of the table.
        Self.runCopies(of: index, from: current, argument: argument, table: machine.table, into: &values)
    }

    @inline(__always)
    private static func runCopies(
        of index: Int, from source: Int, argument: Value, table: borrowing DispatchTable, into values: inout [Value]
    ) {
        values.withUnsafeMutableBufferPointer { context in
            table.copies.withUnsafeBufferPointer { copies in
                guard table.hasStateCopies else {
                    copyPart(table.transitionCopies, index, copies, argument, context)
                    return
                }
                let target = Int(table.targets[index])
                if target >= 0 { copyPart(table.exitCopies, source, copies, argument, context) }
                copyPart(table.transitionCopies, index, copies, argument, context)
                if target >= 0 { copyPart(table.entryCopies, target, copies, argument, context) }
            }
        }
    }

    /// Runs part `part` of the copies laid out by `starts` (most parts, a state's exit or entry
    /// effects, have none).
    @inline(__always)
    private static func copyPart(
        _ starts: [Int32], _ part: Int, _ copies: UnsafeBufferPointer<DispatchTable.Copy>, _ argument: Value,
        _ context: UnsafeMutableBufferPointer<Value>
    ) {
        var index = Int(starts[part])
        let end = Int(starts[part &+ 1])
        while index < end {
            let slot = copies[index].slot
            switch copies[index].source {
            case .constant(let value): context[slot] = value
            case .variable(let from): context[slot] = context[from]
            case .argument: context[slot] = argument
            }
            index &+= 1
        }
    }

    /// Evaluates the guards of a cell's candidates (`cellTransitions` from `start`, up to a -1),
    /// in file order, and takes the first that holds.
    @usableFromInline
    mutating func search(from start: Int, argument: Value, _ result: inout TransitionResult) {
        var candidate = start
        while machine.table.cellTransitions[candidate] >= 0 {
            let index = Int(machine.table.cellTransitions[candidate])
            candidate &+= 1
            if machine.table.isGuarded[index] {
                guard let holds = machine.guardHolds(index, on: values, argument: argument, &result) else { return }
                if !holds { continue }
            }
            result.transition = index
            if machine.table.refuses[index] {
                result.outcome = .rejected(.refused)
                result.refusingTransition = index
                return
            }
            if machine.timers != nil && !timersFit(taking: index) {
                result.outcome = .rejected(.timerLimit)
                return
            }
            if machine.table.runsBodies[index], let failure = runEffects(machine.effectsRun(by: index, from: current), argument: argument) {
                result.outcome = .rejected(.expressionError)
                result.evaluationError = failure.error
                result.failedExpression = failure.site
                return
            }
            let target = Int(machine.table.targets[index])
            if target >= 0 {
                if machine.timers != nil { moveTimers(from: current, to: target) }
                current = target
            }
            result.outcome = .accepted
            result.to = current
            return
        }
        result.outcome = .rejected(.guardRejected)
    }

    /// Runs effect bodies against a scratch copy of the context and commits it only when every
    /// expression evaluated; inputs they send are queued only then too.
    @usableFromInline
    mutating func runEffects(_ effects: EffectSequence, argument: Value) -> (error: EvaluationError, site: TransitionResult.ExpressionSite)? {
        var copied = false
        let queuedBefore = (internalEnd: queue.count - externalCount, externalCount: externalCount)
        for id in effects {
            if let failure = machine.effects[id].run(
                copying: values, into: &scratch, copied: &copied, argument: argument, queue: &queue, externalCount: &externalCount,
                timerRequests: &timerRequests, log: logHandler, iterationLimit: stepLimit, effectNames: machine.effectNames, effect: id)
            {
                queue.removeSent(since: queuedBefore, externalCount: &externalCount)
                if !timerRequests.isEmpty { timerRequests.removeAll(keepingCapacity: true) }
                return (failure.error, .effect(id, expression: failure.expression))
            }
        }
        if copied {
            swap(&values, &scratch)
            contextVersion &+= 1
        }
        if !timerRequests.isEmpty { applyTimerRequests() }
        return nil
    }
}

// MARK: - What a step shows

extension TableRunner {
    /// The one active state: before the step of `result` (its `from`), or now.
    @inline(__always)
    @usableFromInline package func forEachState(before: Bool, of result: TransitionResult, _ body: (Int) -> Void) {
        body(before && result.from >= 0 ? result.from : current)
    }

    /// A start's entry effects; a transition's source's exit effects, its own and its target's
    /// entry effects (only its own when it has no target).
    @inline(__always)
    @usableFromInline package func forEachEffectList(of result: TransitionResult, _ body: (EffectList) -> Void) {
        guard result.isAccepted else { return }
        if result.isStart { return body(.entry(state: current)) }
        guard result.transition >= 0 else { return }
        let moves = machine.table.targets[result.transition] >= 0
        if moves { body(.exit(state: result.from)) }
        body(.transition(result.transition))
        if moves { body(.entry(state: result.to)) }
    }

    @usableFromInline package func forEachTransitionTaken(
        of result: TransitionResult, _ body: (_ transition: Int, _ source: Int, _ targets: ArraySlice<Int32>) -> Void
    ) {
        guard result.isAccepted || result.rejection == .refused, !result.isStart, result.transition >= 0 else { return }
        let target = machine.transitions[result.transition].target
        body(result.transition, result.from, target >= 0 ? [Int32(target)][...] : [])
    }

    @usableFromInline package func isActive(_ state: Int) -> Bool { state == current }

    @usableFromInline package var isFinished: Bool { machine.isFinal[current] }

    /// The one active state.
    @usableFromInline package var configuration: Int { current }

    /// The one active state.
    @usableFromInline package func forEachActiveState(_ body: (Int) -> Void) { body(current) }

    /// The state the step of `result` moved to, when it moved; the initial state for the start.
    @usableFromInline package func forEachStateEntered(by result: TransitionResult, _ body: (Int) -> Void) {
        if result.isStart || result.to != result.from { body(current) }
    }

    @usableFromInline package mutating func setContextBeforeStart(_ context: [Value]) {
        restore(state: current, context: context)
    }

    @usableFromInline package func falseGuards(of result: TransitionResult, argument: Value) -> String? {
        machine.falseGuards(input: result.input, state: result.from, context: values, argument: argument)
    }

    /// Machines with more cells than this are not gone through cell by cell.
    static let maximumSettledCells = 1 << 16

    @usableFromInline package func forEachSettledCell(_ body: (_ cell: Int, _ result: TransitionResult, _ runner: inout TableRunner) -> Void) {
        guard machine.stateCount * machine.inputCount <= Self.maximumSettledCells else { return }
        var shown = self
        for state in 0..<machine.stateCount where !machine.isFinal[state] {
            for input in 0..<machine.inputCount {
                let candidates = machine.candidates(state: state, input: input)
                var result = TransitionResult(.external, input: input, from: state, to: state)
                if candidates.count == 1 {
                    let transition = Int(candidates.first!)
                    result.transition = transition
                    if machine.transitions[transition].refusal != nil {
                        // Shown when the candidate refuses the input (not when its guard is false).
                        result.outcome = .rejected(.refused)
                        result.refusingTransition = transition
                    } else {
                        result.outcome = .accepted
                        let target = machine.transitions[transition].target
                        if target >= 0 { result.to = target }
                    }
                } else if candidates.isEmpty {
                    result.outcome = machine.onUnhandled == .ignore ? .ignored : .rejected(.noTransition)
                } else {
                    continue
                }
                shown.current = result.to
                body(state &* machine.inputCount &+ input, result, &shown)
            }
        }
    }
}
