/// Runs a statechart (a ``CompiledMachine`` with a ``StateChart``) with W3C SCXML's algorithm:
/// selection in document order from each active atomic state outward, conflicts resolved in
/// favour of the descendant's choice, states exited innermost first (history recorded), the
/// transitions' effects in order, states entered outermost first (default and history
/// entries), eventless transitions after every microstep, then queued inputs and done events.
///
/// The configuration is a bitset of state ids; every buffer of a step is kept from one input to
/// the next, so a step allocates nothing once the buffers have grown.
public struct ChartRunner: Sendable {
    /// The machine it runs.
    public let machine: CompiledMachine
    package let chart: StateChart
    /// The active states, one bit per state id (a state's bit is `1 << (id % 64)` of word
    /// `id / 64`).
    public private(set) var configuration: [UInt64]
    /// The configuration before the latest result's step (what a result shows as `from`).
    public private(set) var previousConfiguration: [UInt64]
    /// The context's variables, then a bool per state that `in()` tests (``StateChart/activityTests``).
    package private(set) var values: [Value]
    private var scratch: [Value]
    /// Counts the changes of the context.
    public private(set) var contextVersion = 0
    /// Whether a top-level final state was entered: every later input is `finished`.
    public private(set) var isFinished = false
    /// Steps (eventless microsteps and queued inputs) per external input before `step-limit`.
    public var stepLimit: Int

    /// The effects that ran in the latest result's step, in order.
    public private(set) var effectsRun: [Int32] = []
    /// The transitions taken in the latest result's step (indices into ``StateChart/transitions``).
    package private(set) var transitionsTaken: [Int32] = []

    struct Queued: Sendable {
        var input: Int
        var argument: Value
        /// The effect that sent it, or for a done event the state that completed, as ~state.
        var sender: Int
    }

    private var queue: [Queued] = []
    private var queueHead = 0
    /// What each history pseudo-state recorded: slot `s` holds `historyCounts[s]` states from
    /// `historyStarts[s]`; -1 while its parent was never left.
    private var historyRecords: [Int32]
    private var historyStarts: [Int]
    private var historyCounts: [Int32]

    // Buffers of one step.
    private var enabled: [Int32] = []
    private var enabledDomains: [Int32] = []
    private var exitSet: [UInt64]
    private var entrySet: [UInt64]
    private var nextConfiguration: [UInt64]
    /// Effects to run, with markers: -1 finishes the machine, -(state + 2) raises the state's
    /// done event.
    private var plan: [Int32] = []

    /// A runner for `machine`, which must be a statechart (``CompiledMachine/isStatechart``),
    /// not started yet: call ``start(into:)`` first.
    public init(_ machine: CompiledMachine, stepLimit: Int = Runner.defaultStepLimit) {
        precondition(machine.chart != nil, "ChartRunner runs statecharts; run a flat machine with Runner")
        self.machine = machine
        let chart = machine.chart!
        self.chart = chart
        let words = chart.tree.wordCount
        configuration = [UInt64](repeating: 0, count: words)
        previousConfiguration = configuration
        exitSet = configuration
        entrySet = configuration
        nextConfiguration = configuration
        values = machine.initialContext + chart.activityTests.map { _ in Value.bool(false) }
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

    /// The context's values, by variable id.
    public var context: [Value] { Array(values[0..<machine.variableNames.count]) }

    /// Whether `state` is active.
    @inline(__always)
    public func isActive(_ state: Int) -> Bool { Self.contains(configuration, state) }

    /// The active atomic states in document order.
    public var activeAtomicStates: [Int] { Self.atomicStates(of: configuration, chart.tree) }

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
    public func queuedArgument(of result: ChartResult) -> Value? {
        result.queueSlot >= 0 && result.queueSlot < queue.count ? queue[result.queueSlot].argument : nil
    }

    /// The result for an input rejected before it reached the machine (unknown name, bad argument).
    public mutating func rejection(_ kind: RejectionKind, input: Int) -> ChartResult {
        previousConfiguration = configuration
        effectsRun.removeAll(keepingCapacity: true)
        transitionsTaken.removeAll(keepingCapacity: true)
        return ChartResult(.external, input: input, outcome: .rejected(kind))
    }

    // MARK: - Running

    /// Enters the initial configuration: a start result when any entry effect ran, then the
    /// eventless transitions and queued inputs that follow.
    public mutating func start<Sink: ChartResultSink & ~Copyable>(into sink: inout Sink) {
        clearStep()
        for word in entrySet.indices {
            entrySet[word] = 0
            exitSet[word] = 0
        }
        for target in chart.tree.initial {
            addDescendants(Int(target))
            addAncestors(Int(target), upTo: -1)
        }
        var result = ChartResult(.start, input: -1, outcome: .accepted)
        if let failure = runPlan(argument: .null) {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
            // The configuration is entered all the same; the context stays as it was.
            configuration = nextConfiguration
            updateActivity(of: &values)
        }
        if !effectsRun.isEmpty || result.isRejected { sink.receive(result, from: self) }
        runToCompletion(into: &sink)
    }

    /// Processes one external input whose argument has been checked, then the eventless
    /// transitions and queued inputs that follow it (run to completion).
    public mutating func send<Sink: ChartResultSink & ~Copyable>(_ input: Int, argument: Value = .null, into sink: inout Sink) {
        let result = process(input, argument: argument, trigger: .external)
        sink.receive(result, from: self)
        if result.isAccepted { runToCompletion(into: &sink) }
    }

    private mutating func clearStep() {
        for word in configuration.indices { previousConfiguration[word] = configuration[word] }
        effectsRun.removeAll(keepingCapacity: true)
        transitionsTaken.removeAll(keepingCapacity: true)
        plan.removeAll(keepingCapacity: true)
    }

    /// Eventless microsteps until none is enabled, then the next queued input, and again,
    /// until both are done or the step limit is passed.
    private mutating func runToCompletion<Sink: ChartResultSink & ~Copyable>(into sink: inout Sink) {
        var steps = 0
        // After an eventless guard failed to evaluate, eventless selection waits for a step
        // that changes something (it would fail again).
        var eventlessBlocked = false
        while true {
            while chart.hasEventless && !isFinished && !eventlessBlocked {
                clearStep()
                var result = ChartResult(.eventless, input: -1)
                if !select(input: -1, argument: .null, &result) {
                    if result.rejection == .expressionError {
                        eventlessBlocked = true
                        sink.receive(result, from: self)
                    }
                    break
                }
                steps += 1
                if steps > stepLimit {
                    result.outcome = .rejected(.stepLimit)
                    result.discarded = queue.count - queueHead
                    enabled.removeAll(keepingCapacity: true)
                    sink.receive(result, from: self)
                    discardQueue()
                    return
                }
                microstep(argument: .null, &result)
                if !result.isAccepted { eventlessBlocked = true }
                sink.receive(result, from: self)
            }
            guard queueHead < queue.count else {
                discardQueue()
                return
            }
            let next = queue[queueHead]
            queueHead += 1
            let trigger: ChartResult.Trigger = next.sender >= 0 ? .sent(effect: next.sender) : .done(state: ~next.sender)
            steps += 1
            if steps > stepLimit {
                clearStep()
                var result = ChartResult(trigger, input: next.input, outcome: .rejected(.stepLimit))
                result.discarded = queue.count - queueHead
                result.queueSlot = queueHead - 1
                sink.receive(result, from: self)
                discardQueue()
                return
            }
            var result = process(next.input, argument: next.argument, trigger: trigger)
            result.queueSlot = queueHead - 1
            if result.isAccepted { eventlessBlocked = false }
            // A done event that no transition takes changes nothing and is not reported.
            if case .done = trigger, result.rejection == .noTransition || result.outcome == .ignored { continue }
            sink.receive(result, from: self)
        }
    }

    private mutating func discardQueue() {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
    }

    private mutating func process(_ input: Int, argument: Value, trigger: ChartResult.Trigger) -> ChartResult {
        clearStep()
        var result = ChartResult(trigger, input: input)
        if isFinished {
            result.outcome = .rejected(.finished)
            return result
        }
        guard select(input: input, argument: argument, &result) else {
            if result.outcome == .rejected(.noTransition) && machine.onUnhandled == .ignore { result.outcome = .ignored }
            return result
        }
        microstep(argument: argument, &result)
        return result
    }

    // MARK: - Selection

    /// Fills ``enabled`` with the transitions to take for `input` (-1: eventless), conflicts
    /// removed; false when there are none, with `result` saying why (no candidate, every guard
    /// false, or a guard that failed to evaluate).
    private mutating func select(input: Int, argument: Value, _ result: inout ChartResult) -> Bool {
        enabled.removeAll(keepingCapacity: true)
        enabledDomains.removeAll(keepingCapacity: true)
        var matched = false
        var failure: (EvaluationError, Int)?
        let tree = chart.tree
        let input32 = Int32(input)
        atomics: for word in configuration.indices {
            var bits = configuration[word] & tree.atomicMask[word]
            while bits != 0 {
                var state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                ancestors: while state >= 0 {
                    for index in chart.transitions(from: state) {
                        let transition = chart.transitions[Int(index)]
                        guard transition.input == input32 else { continue }
                        matched = true
                        if transition.isGuarded {
                            do {
                                guard
                                    case .bool(true) = try machine.transitions[Int(transition.compiled)].guardExpression!.evaluate(
                                        values, argument: argument)
                                else { continue }
                            } catch {
                                failure = (error, Int(transition.compiled))
                                break atomics
                            }
                        }
                        if !enabled.contains(index) { enabled.append(index) }
                        break ancestors
                    }
                    state = Int(tree.parents[state])
                }
            }
        }
        if let (error, transition) = failure {
            enabled.removeAll(keepingCapacity: true)
            result.outcome = .rejected(.expressionError)
            result.evaluationError = error
            result.failedExpression = .guardOf(transition: transition)
            return false
        }
        guard !enabled.isEmpty else {
            result.outcome = .rejected(matched ? .guardRejected : .noTransition)
            return false
        }
        removeConflicts()
        return true
    }

    /// SCXML's removeConflictingTransitions: two transitions conflict when their exit sets meet;
    /// the one from a descendant of the other's source wins, else the earlier one.
    private mutating func removeConflicts() {
        for index in enabled { enabledDomains.append(domain(of: Int(index))) }
        guard enabled.count > 1 else { return }
        let tree = chart.tree
        var kept = 0
        for candidate in 0..<enabled.count {
            let transition = enabled[candidate]
            let domain = enabledDomains[candidate]
            let source = Int(chart.transitions[Int(transition)].source)
            var preempted = false
            for other in 0..<kept where exitSetsMeet(domain, enabledDomains[other]) {
                if !tree.isDescendant(source, of: Int(chart.transitions[Int(enabled[other])].source)) {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            // It preempts the kept ones it conflicts with: keep the others, in order, then it.
            var write = 0
            for other in 0..<kept where !exitSetsMeet(domain, enabledDomains[other]) {
                enabled[write] = enabled[other]
                enabledDomains[write] = enabledDomains[other]
                write += 1
            }
            enabled[write] = transition
            enabledDomains[write] = domain
            kept = write + 1
        }
        enabled.removeSubrange(kept...)
        enabledDomains.removeSubrange(kept...)
    }

    /// Whether the exit sets of two transitions with these domains share a state: each is the
    /// active states of an id range that holds an active state, and such ranges are nested or apart.
    @inline(__always)
    private func exitSetsMeet(_ a: Int32, _ b: Int32) -> Bool {
        guard a != StateChart.noDomain && b != StateChart.noDomain else { return false }
        let tree = chart.tree
        let (lowA, highA) = (Int(a) + 1, tree.end(of: Int(a)))
        let (lowB, highB) = (Int(b) + 1, tree.end(of: Int(b)))
        return lowA < highB && lowB < highA
    }

    /// A transition's domain, computed when it targets a history (from what the history recorded).
    private func domain(of index: Int) -> Int32 {
        let transition = chart.transitions[index]
        guard transition.targetsHistory else { return transition.domain }
        let tree = chart.tree
        let source = Int(transition.source)
        func coversTargets(_ ancestor: Int) -> Bool {
            for target in transition.targets {
                let target = Int(target)
                let slot = Int(tree.historySlots[target])
                if slot >= 0 {
                    if historyCounts[slot] >= 0 {
                        for offset in 0..<Int(historyCounts[slot]) where !tree.isDescendant(Int(historyRecords[historyStarts[slot] + offset]), of: ancestor) {
                            return false
                        }
                    } else {
                        for state in tree.defaultEntries[target] where !tree.isDescendant(Int(state), of: ancestor) { return false }
                    }
                } else if !tree.isDescendant(target, of: ancestor) {
                    return false
                }
            }
            return true
        }
        if transition.isInternal && tree.kinds[source] == .compound && coversTargets(source) { return Int32(source) }
        var ancestor = Int(tree.parents[source])
        while ancestor >= 0 {
            if tree.kinds[ancestor] == .compound && coversTargets(ancestor) { return Int32(ancestor) }
            ancestor = Int(tree.parents[ancestor])
        }
        return -1
    }

    // MARK: - The microstep

    /// Takes the transitions of ``enabled``: exits, effects, entries, all or nothing (an effect
    /// that fails to evaluate leaves the machine as it was).
    private mutating func microstep(argument: Value, _ result: inout ChartResult) {
        let tree = chart.tree
        for word in exitSet.indices {
            exitSet[word] = 0
            entrySet[word] = 0
        }
        for domain in enabledDomains where domain != StateChart.noDomain {
            Self.insertRange(Int(domain) + 1, tree.end(of: Int(domain)), into: &exitSet)
        }
        for word in exitSet.indices { exitSet[word] &= configuration[word] }
        for (position, index) in enabled.enumerated() {
            let domain = Int(enabledDomains[position])
            let transition = chart.transitions[Int(index)]
            guard domain != Int(StateChart.noDomain) else { continue }
            for target in transition.targets { addDescendants(Int(target)) }
            for target in transition.targets {
                let target = Int(target)
                let slot = Int(tree.historySlots[target])
                if slot < 0 {
                    addAncestors(target, upTo: domain)
                } else if historyCounts[slot] >= 0 {
                    for offset in 0..<Int(historyCounts[slot]) {
                        addAncestors(Int(historyRecords[historyStarts[slot] + offset]), upTo: domain)
                    }
                } else {
                    for state in tree.defaultEntries[target] { addAncestors(Int(state), upTo: domain) }
                }
            }
        }
        transitionsTaken.append(contentsOf: enabled)
        if let failure = runPlan(argument: argument) {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
            effectsRun.removeAll(keepingCapacity: true)
            transitionsTaken.removeAll(keepingCapacity: true)
            return
        }
        result.outcome = .accepted
    }

    /// Lays out the step of ``exitSet``, the taken transitions and ``entrySet`` as a plan,
    /// runs its effect bodies against a scratch context, and commits: history records, the new
    /// configuration, the context, done events. `nil` when committed; else what failed, with
    /// nothing changed.
    private mutating func runPlan(argument: Value) -> (error: EvaluationError, site: TransitionResult.ExpressionSite)? {
        let tree = chart.tree
        for word in configuration.indices { nextConfiguration[word] = configuration[word] & ~exitSet[word] }
        // Exits, innermost first: descending ids.
        var word = exitSet.count - 1
        while word >= 0 {
            var bits = exitSet[word]
            while bits != 0 {
                let bit = 63 - bits.leadingZeroBitCount
                bits &= ~(1 << UInt64(bit))
                for effect in machine.exitEffects[word << 6 | bit] { appendEffect(effect) }
            }
            word -= 1
        }
        for index in transitionsTaken {
            for effect in machine.transitions[Int(chart.transitions[Int(index)].compiled)].effects { appendEffect(effect) }
        }
        // Entries, outermost first: ascending ids.
        for word in entrySet.indices {
            var bits = entrySet[word]
            while bits != 0 {
                let state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if Self.contains(nextConfiguration, state) { continue }
                Self.insert(state, into: &nextConfiguration)
                for effect in machine.entryEffects[state] { appendEffect(effect) }
                guard tree.isFinal[state] else { continue }
                let parent = Int(tree.parents[state])
                if parent < 0 {
                    plan.append(-1)
                    continue
                }
                if tree.kinds[parent] == .compound { plan.append(Int32(-(parent + 2))) }
                let grandparent = Int(tree.parents[parent])
                if tree.kinds[parent] == .parallel && isInFinalState(parent, nextConfiguration) {
                    plan.append(Int32(-(parent + 2)))
                } else if grandparent >= 0 && tree.kinds[grandparent] == .parallel && isInFinalState(grandparent, nextConfiguration) {
                    plan.append(Int32(-(grandparent + 2)))
                }
            }
        }
        // Effect bodies against the scratch context; queued inputs kept only on success.
        let queuedBefore = queue.count
        var copied = false
        var finishes = false
        for step in plan {
            if step == -1 {
                finishes = true
                continue
            }
            if step < -1 {
                let state = Int(-step) - 2
                let input = chart.doneInputs[state]
                if input >= 0 { queue.append(Queued(input: Int(input), argument: .null, sender: ~state)) }
                continue
            }
            let id = Int(step)
            let effect = machine.effects[id]
            guard effect.hasBody else { continue }
            if !copied {
                for slot in values.indices { scratch[slot] = values[slot] }
                copied = true
            }
            var expression = 0
            do {
                for assignment in effect.assignments {
                    scratch[assignment.slot] = try assignment.value.evaluate(scratch, argument: argument)
                    expression += 1
                }
                for send in effect.sends {
                    let value = try send.argument?.evaluate(scratch, argument: argument) ?? .null
                    queue.append(Queued(input: send.input, argument: value, sender: id))
                    expression += 1
                }
            } catch {
                queue.removeSubrange(queuedBefore...)
                return (error, .effect(id, expression: expression))
            }
        }
        // Commit: history records what was active in the states left, then the new configuration.
        for word in exitSet.indices {
            var bits = exitSet[word]
            while bits != 0 {
                let state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                for history in tree.histories[state] { record(history, leaving: state) }
            }
        }
        swap(&configuration, &nextConfiguration)
        if copied {
            swap(&values, &scratch)
            contextVersion &+= 1
        }
        updateActivity(of: &values)
        if finishes { isFinished = true }
        return nil
    }

    @inline(__always)
    private mutating func appendEffect(_ effect: Int) {
        plan.append(Int32(effect))
        effectsRun.append(Int32(effect))
    }

    private mutating func record(_ history: Int32, leaving parent: Int) {
        let tree = chart.tree
        let slot = Int(tree.historySlots[Int(history)])
        var count = 0
        let start = historyStarts[slot]
        if tree.kinds[Int(history)] == .deepHistory {
            for state in (parent + 1)..<tree.end(of: parent) where tree.kinds[state] == .atomic && Self.contains(configuration, state) {
                historyRecords[start + count] = Int32(state)
                count += 1
            }
        } else {
            for child in tree.children[parent] where Self.contains(configuration, Int(child)) {
                historyRecords[start + count] = child
                count += 1
            }
        }
        historyCounts[slot] = Int32(count)
    }

    private func updateActivity(of values: inout [Value]) {
        for test in chart.activityTests { values[Int(test.slot)] = .bool(Self.contains(configuration, Int(test.state))) }
    }

    /// Whether `state` has completed in `configuration`: a compound state whose active child
    /// is final, a parallel state whose every region has completed.
    private func isInFinalState(_ state: Int, _ configuration: [UInt64]) -> Bool {
        let tree = chart.tree
        switch tree.kinds[state] {
        case .compound:
            return tree.children[state].contains { tree.isFinal[Int($0)] && Self.contains(configuration, Int($0)) }
        case .parallel:
            return tree.children[state].allSatisfy { isInFinalState(Int($0), configuration) }
        case .atomic:
            return tree.isFinal[state] && Self.contains(configuration, state)
        case .shallowHistory, .deepHistory:
            return false
        }
    }

    // MARK: - The entry set (SCXML's addDescendantStatesToEnter and addAncestorStatesToEnter)

    private mutating func addDescendants(_ state: Int) {
        let tree = chart.tree
        let slot = Int(tree.historySlots[state])
        if slot >= 0 {
            let parent = Int(tree.parents[state])
            if historyCounts[slot] >= 0 {
                let start = historyStarts[slot]
                for offset in 0..<Int(historyCounts[slot]) { addDescendants(Int(historyRecords[start + offset])) }
                for offset in 0..<Int(historyCounts[slot]) { addAncestors(Int(historyRecords[start + offset]), upTo: parent) }
            } else {
                for target in tree.defaultEntries[state] { addDescendants(Int(target)) }
                for target in tree.defaultEntries[state] { addAncestors(Int(target), upTo: parent) }
            }
            return
        }
        Self.insert(state, into: &entrySet)
        switch tree.kinds[state] {
        case .compound:
            for target in tree.defaultEntries[state] { addDescendants(Int(target)) }
            for target in tree.defaultEntries[state] { addAncestors(Int(target), upTo: state) }
        case .parallel:
            for child in tree.children[state] where !Self.intersects(entrySet, Int(child), tree.end(of: Int(child))) {
                addDescendants(Int(child))
            }
        default:
            break
        }
    }

    private mutating func addAncestors(_ state: Int, upTo ancestor: Int) {
        let tree = chart.tree
        var current = Int(tree.parents[state])
        while current != ancestor && current >= 0 {
            Self.insert(current, into: &entrySet)
            if tree.kinds[current] == .parallel {
                for child in tree.children[current] where !Self.intersects(entrySet, Int(child), tree.end(of: Int(child))) {
                    addDescendants(Int(child))
                }
            }
            current = Int(tree.parents[current])
        }
    }

    // MARK: - Bitsets

    @inline(__always)
    static func contains(_ set: [UInt64], _ state: Int) -> Bool { set[state >> 6] & (1 << UInt64(state & 63)) != 0 }

    @inline(__always)
    static func insert(_ state: Int, into set: inout [UInt64]) { set[state >> 6] |= 1 << UInt64(state & 63) }

    /// Sets the bits of `low ..< high`.
    static func insertRange(_ low: Int, _ high: Int, into set: inout [UInt64]) {
        var state = low
        while state < high {
            if state & 63 == 0 && high - state >= 64 {
                set[state >> 6] = ~0
                state += 64
            } else {
                insert(state, into: &set)
                state += 1
            }
        }
    }

    /// Whether any bit of `low ..< high` is set.
    static func intersects(_ set: [UInt64], _ low: Int, _ high: Int) -> Bool {
        var state = low
        while state < high {
            if state & 63 == 0 && high - state >= 64 {
                if set[state >> 6] != 0 { return true }
                state += 64
            } else {
                if contains(set, state) { return true }
                state += 1
            }
        }
        return false
    }
}
