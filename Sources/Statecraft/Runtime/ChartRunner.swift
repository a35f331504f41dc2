/// Runs a statechart (a ``CompiledMachine`` with a ``StateChart``) with W3C SCXML's algorithm:
/// selection in document order from each active atomic state outward, conflicts resolved in
/// favour of the descendant's choice, states exited innermost first (history recorded), the
/// transitions' effects in order, states entered outermost first (default and history
/// entries), eventless transitions after every microstep, then queued inputs and done events.
///
/// The configuration is a bitset of state ids; every buffer of a step is kept from one input to
/// the next, so a step allocates nothing once the buffers have grown. A machine whose states
/// only nest takes its inputs through its chart's leaf table instead of selection and the
/// microstep, with the same results (ChartRunner+LeafTable.swift, docs/statecharts.md).
@usableFromInline
package struct ChartRunner: MachineRunner {
    /// The machine it runs.
    @usableFromInline package let machine: CompiledMachine
    package let chart: StateChart
    /// The active states, one bit per state id (a state's bit is `1 << (id % 64)` of word
    /// `id / 64`).
    @usableFromInline package internal(set) var configuration: [UInt64]
    /// The configuration before the latest result's step (what a result shows as `from`).
    package internal(set) var previousConfiguration: [UInt64]
    /// The context's variables, then a bool per state that `in()` tests (``StateChart/activityTests``),
    /// then the name of the input being processed when `input()` reads it (``StateChart/inputNameSlot``).
    package internal(set) var values: [Value]
    var scratch: [Value]
    /// Counts the changes of the context.
    @usableFromInline package internal(set) var contextVersion = 0
    /// Whether a top-level final state was entered: every later input is `finished`.
    @usableFromInline package internal(set) var isFinished = false
    /// Steps (eventless microsteps and queued inputs) per external input before `step-limit`.
    @usableFromInline package var stepLimit: Int
    /// Receives the lines effects' `log` steps write; `nil` (the default) drops them.
    @usableFromInline package var logHandler: EffectLogHandler?

    /// The effects that ran in the latest result's step, in order.
    package internal(set) var effectsRun: [Int32] = []
    /// The transitions taken in the latest result's step (indices into ``StateChart/transitions``).
    package internal(set) var transitionsTaken: [Int32] = []

    @usableFromInline package var queue: [QueuedInput] = []
    @usableFromInline package var queueHead = 0
    /// How many inputs at the queue's tail were sent to the external queue (docs/semantics.md).
    @usableFromInline package var externalCount = 0
    /// What each history pseudo-state recorded: slot `s` holds `historyCounts[s]` states from
    /// `historyStarts[s]`; -1 while its parent was never left.
    var historyRecords: [Int32]
    var historyStarts: [Int]
    var historyCounts: [Int32]
    /// What the step's history records overwrote, to put back if the step fails: per record,
    /// the slot's previous states, then its slot and their count (-1: none).
    var historyUndo: [Int32] = []

    // Buffers of one step.
    var enabled: [Int32] = []
    var enabledDomains: [Int32] = []
    var exitSet: [UInt64]
    var entrySet: [UInt64]
    var nextConfiguration: [UInt64]
    /// The compound states of ``entrySet`` entered through their `initial`, and the history
    /// states that led to their `default`: whose default effects the step runs. Kept empty
    /// when the machine has no default effects.
    var defaultEntrySet: [UInt64]
    /// What the step does, in order, once its exit and entry sets are known.
    var plan: [PlanStep] = []

    /// The chart's ``StateChart/leafTable``, through which inputs are taken when it has one;
    /// `nil` to take every input through selection and the microstep.
    var leafTable: LeafDispatchTable?
    /// The active atomic state as last seen (ChartRunner+LeafTable.swift), or -1.
    var leafHint: Int32 = -1

    // Timers (RunnerTimers.swift): untouched by a machine without them.
    /// The pending timers.
    @usableFromInline package var timers: TimerQueue
    /// The machine's clock, in milliseconds: 0 at start, moved by ``advance(to:into:)``.
    @usableFromInline package var time = 0
    /// The most timers that may be pending: a step that would start more is rejected as
    /// `timer-limit`.
    @usableFromInline package var timerLimit: Int
    /// Delayed sends and cancels of the effects of the step being taken.
    var timerRequests: [TimerRequest] = []
    /// Set by a step that would pass ``timerLimit``: it changed nothing.
    var timerLimitReached = false
    /// Whether the queue holds the marker that fires timers already due.
    @usableFromInline package var dueMarkerQueued = false
    /// The argument of the delayed send being fired, while its result is received.
    @usableFromInline package var firedArgument: Value = .null

    /// A runner for `machine`, which must be a statechart (``CompiledMachine/isStatechart``),
    /// not started yet: call ``start(into:)`` first.
    @usableFromInline package init(_ machine: CompiledMachine, stepLimit: Int = RunLimits.defaultStepLimit, timerLimit: Int = RunLimits.defaultTimerLimit) {
        precondition(machine.chart != nil, "a flat machine runs on TableRunner (CompiledMachine.visitRunner)")
        self.machine = machine
        self.timerLimit = timerLimit
        timers = TimerQueue(
            stateCount: machine.timers == nil ? 0 : machine.stateCount, timerCount: machine.timers?.timerNames.count ?? 0)
        let chart = machine.chart!
        self.chart = chart
        leafTable = chart.leafTable
        let words = chart.tree.wordCount
        configuration = [UInt64](repeating: 0, count: words)
        previousConfiguration = configuration
        exitSet = configuration
        entrySet = configuration
        nextConfiguration = configuration
        defaultEntrySet = configuration
        values = machine.initialContext + chart.activityTests.map { _ in Value.bool(false) }
        // `input()` reads "" until the first input (at start, and in eventless steps before one).
        if chart.inputNameSlot >= 0 { values.append(.string("")) }
        scratch = values
        self.stepLimit = stepLimit
        var starts: [Int] = []
        var total = 0
        for capacity in chart.tree.historyCapacities {
            starts.append(total)
            total += Int(capacity)
        }
        historyStarts = starts
        historyRecords = [Int32](repeating: 0, count: total)
        historyCounts = [Int32](repeating: -1, count: starts.count)
    }

    // MARK: - Reading the state

    /// The context's values, then the runner's own slots (see ``values``).
    @usableFromInline package var contextStorage: [Value] { values }

    /// Whether `state` is active.
    @inline(__always)
    @usableFromInline package func isActive(_ state: Int) -> Bool { Self.contains(configuration, state) }

    /// The active atomic states in document order.
    package var activeAtomicStates: [Int] { Self.atomicStates(of: configuration, chart.tree) }

    /// Whether the state named `name` is active (`false` for a name the machine does not have).
    @usableFromInline package func isActive(_ name: String) -> Bool {
        guard let state = machine.stateNames.firstIndex(of: name) else { return false }
        return isActive(state)
    }

    /// The active atomic states of `configuration` as text: names in document order, joined by `, `.
    package func configurationText(_ configuration: [UInt64]) -> String {
        Self.atomicStates(of: configuration, chart.tree).map { machine.stateNames[$0] }.joined(separator: ", ")
    }

    /// The atomic states of `configuration`, in document order.
    package static func atomicStates(of configuration: [UInt64], _ tree: StateTree) -> [Int] {
        var states: [Int] = []
        forEachAtomic(in: configuration, tree) { states.append($0) }
        return states
    }

    /// Calls `body` with each atomic state of `configuration`, in document order.
    @inline(__always)
    package static func forEachAtomic(in configuration: [UInt64], _ tree: StateTree, _ body: (Int) -> Void) {
        for word in configuration.indices {
            var bits = configuration[word] & tree.atomicMask[word]
            while bits != 0 {
                body(word << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    /// The argument of a queued input's result while a sink receives it.
    @usableFromInline package func queuedArgument(of result: TransitionResult) -> Value? {
        if result.isTimer { return firedArgument }
        return result.queueSlot >= 0 && result.queueSlot < queue.count ? queue[result.queueSlot].argument : nil
    }

    /// Queues `input` behind the inputs already queued, as sent by effect `sentBy`: for a sink's
    /// ``ResultSink/receive(_:from:)``. Its argument must be one the input accepts.
    @usableFromInline package mutating func enqueue(_ input: Int, argument: Value, sentBy: Int) {
        queue.appendInternal(QueuedInput(input: input, argument: argument, sender: sentBy), externalCount: externalCount)
    }

    /// The result for an input rejected before it reached the machine (unknown name, bad argument).
    @usableFromInline package mutating func rejection(_ kind: RejectionKind, input: Int) -> TransitionResult {
        previousConfiguration = configuration
        effectsRun.removeAll(keepingCapacity: true)
        transitionsTaken.removeAll(keepingCapacity: true)
        return TransitionResult(.external, input: input, outcome: .rejected(kind))
    }

    // MARK: - Running

    /// Enters the initial configuration: a start result when any entry effect ran, then the
    /// eventless transitions and queued inputs that follow.
    @usableFromInline package mutating func start<Sink: ResultSink & ~Copyable>(into sink: inout Sink) where Sink.Runner == Self {
        clearStep()
        for word in entrySet.indices {
            entrySet[word] = 0
            exitSet[word] = 0
            defaultEntrySet[word] = 0
        }
        // Every target's descendants first, then the ancestors: an ancestor that is parallel
        // completes only the regions no target enters (SCXML's computeEntrySet).
        for target in chart.tree.initial { addDescendants(Int(target)) }
        for target in chart.tree.initial { addAncestors(Int(target), upTo: -1) }
        var result = TransitionResult(.start, input: -1, outcome: .accepted)
        if let failure = runPlan(argument: .null) {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
            // The configuration is entered all the same; the context stays as it was.
            configuration = nextConfiguration
            updateActivity()
        }
        if !effectsRun.isEmpty || result.isRejected { sink.receive(result, from: &self) }
        runToCompletion(into: &sink)
    }

    /// Processes one external input whose argument has been checked, then the eventless
    /// transitions and queued inputs that follow it (run to completion).
    @usableFromInline package mutating func send<Sink: ResultSink & ~Copyable>(_ input: Int, argument: Value = .null, into sink: inout Sink) where Sink.Runner == Self {
        let result = process(input, argument: argument, trigger: .external)
        sink.receive(result, from: &self)
        // A sink that binds closures to effects may have queued inputs after a rejection too.
        if result.isAccepted || (Sink.queuesInputs && queueHead < queue.count) { runToCompletion(into: &sink) }
    }

    mutating func clearStep() {
        for word in configuration.indices { previousConfiguration[word] = configuration[word] }
        // Element by element: these hold a few elements, and `removeAll(keepingCapacity:)`
        // costs more than removing a few of them (it replaces the whole range).
        while !effectsRun.isEmpty { effectsRun.removeLast() }
        while !transitionsTaken.isEmpty { transitionsTaken.removeLast() }
        while !plan.isEmpty { plan.removeLast() }
    }

    /// Eventless microsteps until none is enabled, then the next queued input, and again,
    /// until both are done or the step limit is passed.
    mutating func runToCompletion<Sink: ResultSink & ~Copyable>(into sink: inout Sink) where Sink.Runner == Self {
        var steps = 0
        // After an eventless guard failed to evaluate, eventless selection waits for a step
        // that changes something (it would fail again).
        var eventlessBlocked = false
        while true {
            while chart.hasEventless && !isFinished && !eventlessBlocked && Self.meet(configuration, chart.eventlessSources) {
                clearStep()
                var result = TransitionResult(.eventless, input: -1)
                if !select(input: -1, argument: .null, &result) {
                    if result.rejection == .expressionError {
                        eventlessBlocked = true
                        sink.receive(result, from: &self)
                    }
                    break
                }
                steps += 1
                if steps > stepLimit {
                    result.outcome = .rejected(.stepLimit)
                    result.discarded = queue.count - queueHead
                    enabled.removeAll(keepingCapacity: true)
                    sink.receive(result, from: &self)
                    discardQueue()
                    return
                }
                microstep(argument: .null, &result)
                if !result.isAccepted { eventlessBlocked = true }
                sink.receive(result, from: &self)
            }
            guard queueHead < queue.count else {
                discardQueue()
                return
            }
            let next = queue[queueHead]
            if queueHead >= queue.count - externalCount { externalCount -= 1 }
            queueHead += 1
            // Input -1 marks where timers already due fire (a `0s` delay): see RunnerTimers.swift.
            if next.input < 0 {
                if !fireDueTimer(steps: &steps, into: &sink) { return }
                continue
            }
            let trigger: TransitionResult.Trigger = next.sender >= 0 ? .sent(effect: next.sender) : .done(state: ~next.sender)
            steps += 1
            if steps > stepLimit {
                clearStep()
                var result = TransitionResult(trigger, input: next.input, outcome: .rejected(.stepLimit))
                result.discarded = queue.count - queueHead
                result.queueSlot = queueHead - 1
                sink.receive(result, from: &self)
                discardQueue()
                return
            }
            var result = process(next.input, argument: next.argument, trigger: trigger)
            result.queueSlot = queueHead - 1
            if result.isAccepted { eventlessBlocked = false }
            // A done event that no transition takes changes nothing and is not reported.
            if case .done = trigger, result.rejection == .noTransition || result.outcome == .ignored { continue }
            sink.receive(result, from: &self)
        }
    }

    mutating func discardQueue() {
        // Most inputs queue nothing: nothing to empty.
        if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
        queueHead = 0
        if dueMarkerQueued {
            dueMarkerQueued = false
            if machine.timers != nil { _ = discardDueTimers() }
        }
        externalCount = 0
    }

    mutating func process(_ input: Int, argument: Value, trigger: TransitionResult.Trigger) -> TransitionResult {
        clearStep()
        var result = TransitionResult(trigger, input: input)
        if isFinished {
            result.outcome = .rejected(.finished)
            return result
        }
        // `input()` reads the input's name from here on; eventless steps keep the last one, as
        // SCXML's `_event` keeps the last event.
        if chart.inputNameSlot >= 0 { values[Int(chart.inputNameSlot)] = .string(machine.inputNames[input]) }
        if let leafTable, take(input, argument: argument, through: leafTable, &result) { return result }
        guard select(input: input, argument: argument, &result) else {
            if result.outcome == .rejected(.noTransition) && machine.onUnhandled == .ignore { result.outcome = .ignored }
            return result
        }
        microstep(argument: argument, &result)
        return result
    }
}


// MARK: - What a step shows

extension ChartRunner {
    /// The active atomic states before the step of `result` (the start shows the configuration
    /// it entered), or now.
    @usableFromInline package func forEachState(before: Bool, of result: TransitionResult, _ body: (Int) -> Void) {
        Self.forEachAtomic(in: before && !result.isStart ? previousConfiguration : configuration, chart.tree, body)
    }

    @usableFromInline package func forEachEffectList(of result: TransitionResult, _ body: (EffectList) -> Void) {
        for effect in effectsRun { body(.effect(Int(effect))) }
    }

    /// The states of ``configuration``, in id order.
    @usableFromInline package func forEachActiveState(_ body: (Int) -> Void) {
        Self.forEachState(in: configuration, body)
    }

    /// The states of ``configuration`` not in ``previousConfiguration`` (which is empty at the
    /// start), in id order.
    @usableFromInline package func forEachStateEntered(by result: TransitionResult, _ body: (Int) -> Void) {
        Self.forEachState(in: configuration.indices.lazy.map { configuration[$0] & ~previousConfiguration[$0] }, body)
    }

    /// Calls `body` with each state of a configuration's words, in id order: linear in the
    /// words and the states set, not in the machine's states.
    private static func forEachState(in words: some Sequence<UInt64>, _ body: (Int) -> Void) {
        for (index, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                body(index << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    @usableFromInline package func forEachTransitionTaken(
        of result: TransitionResult, _ body: (_ transition: Int, _ source: Int, _ targets: ArraySlice<Int32>) -> Void
    ) {
        if result.rejection == .refused, result.refusingTransition >= 0 {
            body(result.refusingTransition, machine.transitions[result.refusingTransition].sources.first ?? -1, [])
            return
        }
        for taken in transitionsTaken {
            let transition = chart.transitions[Int(taken)]
            body(Int(transition.compiled), Int(transition.source), transition.targets[...])
        }
    }

    @usableFromInline package func falseGuards(of result: TransitionResult, argument: Value) -> String? {
        machine.falseGuards(of: candidates(of: result.input), context: values, argument: argument)
    }

    /// The transitions of `input` that the active atomic states and their ancestors offer, in
    /// selection order, each once (by index in ``CompiledMachine/transitions``).
    private func candidates(of input: Int) -> [Int] {
        var found: [Int] = []
        let tree = chart.tree
        for atomic in Self.atomicStates(of: previousConfiguration, tree) {
            var state = atomic
            while state >= 0 {
                for index in chart.transitions(from: state) where chart.transitions[Int(index)].input == Int32(input) {
                    let compiled = Int(chart.transitions[Int(index)].compiled)
                    if !found.contains(compiled) { found.append(compiled) }
                }
                state = Int(tree.parents[state])
            }
        }
        return found
    }

    /// A statechart's result depends on its whole configuration: no cell settles it.
    @usableFromInline package func cell(of input: Int) -> Int { 0 }
    @usableFromInline package func cell(before result: TransitionResult) -> Int { 0 }
    @usableFromInline package mutating func sendSettled(_ input: Int, argument: () -> Value) -> TransitionResult.Outcome? { nil }
    @usableFromInline package func forEachSettledCell(_ body: (_ cell: Int, _ result: TransitionResult, _ runner: inout ChartRunner) -> Void) {}
}
