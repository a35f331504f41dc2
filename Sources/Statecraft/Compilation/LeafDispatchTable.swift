/// How ``ChartRunner`` takes an input in a statechart whose states nest but that has no
/// parallel state, no history state, no eventless transition and no `in()`: a `state x input`
/// table of cells, cell `leaf * inputCount + input`, read for the active atomic state (the
/// leaf; such a machine's configuration is one leaf and its ancestors).
///
/// A cell holds what SCXML's selection would consider, in its order: the leaf's transitions of
/// the input in file order, then its parent's, and so on outwards, up to the first without a
/// guard (which always wins). Each candidate is a ``Plan``: the transition taken from that leaf
/// with everything its microstep does worked out at load: the states it exits (innermost
/// first) and enters (outermost first), and the effects that run, in order. A cell whose first
/// candidate has no guard is settled by one load: the plan, or a refusal; the others are
/// searched, guards evaluated in order.
///
/// The runner produces the same results (``TransitionResult``, configurations, effects run,
/// transitions taken) as its general selection and microstep; the differential test runs both.
package final class LeafDispatchTable: Sendable {
    /// How one cell is settled.
    struct Cell: Sendable {
        /// The plan taken directly, or a code below zero.
        let code: Int32
        /// For ``search``, where the cell's candidates start in ``candidates``; for ``refused``,
        /// the refusing compiled transition.
        let next: Int32
    }

    /// A code for a cell without candidates: no active state takes the input.
    static let unhandled: Int32 = -1
    /// A code for a cell whose candidates are searched.
    static let search: Int32 = -3
    /// A code for a cell whose first candidate is an unguarded refusal (`reject: MESSAGE`).
    static let refused: Int32 = -4

    /// One transition taken from one leaf.
    struct Plan: Sendable {
        /// Its index in ``StateChart/transitions`` (what ``ChartRunner/transitionsTaken`` lists).
        let transition: Int32
        /// Its index in ``CompiledMachine/transitions`` (its guard, refusal message).
        let compiled: Int32
        let isGuarded: Bool
        let refuses: Bool
        /// Whether the step goes through the runner's plan execution (``steps``): an effect
        /// with a body runs, a done event is raised, the machine finishes, or the machine has
        /// timers. Otherwise the step only moves the configuration and lists its effects.
        let executes: Bool
        /// The atomic state active after the step.
        let leaf: Int32
        /// `states[exitStart ..< entryStart]` are exited, innermost first;
        /// `states[entryStart ..< entryEnd]` entered, outermost first.
        let exitStart: Int32
        let entryStart: Int32
        let entryEnd: Int32
        /// `effects[effectStart ..< effectEnd]` run, in order.
        let effectStart: Int32
        let effectEnd: Int32
        /// `steps[stepStart ..< stepEnd]`: the step's plan, for one that ``executes``.
        let stepStart: Int32
        let stepEnd: Int32
    }

    let inputCount: Int
    /// Cell `leaf * inputCount + input`; the rows of states that are not atomic stay unhandled.
    let cells: [Cell]
    /// The candidates of searched cells, as plan indices, each cell's in order and ended by -1.
    let candidates: [Int32]
    let plans: [Plan]
    /// The plans' exited and entered states, effects and steps, end to end (see ``Plan``).
    let states: [Int32]
    let effects: [Int32]
    let steps: [ChartRunner.PlanStep]

    /// What the table needs of the compiled machine beside its chart.
    struct Parts {
        var transitions: [CompiledTransition]
        var entryEffects: [[Int]]
        var exitEffects: [[Int]]
        /// Per effect, whether it has a body.
        var hasBody: [Bool]
        var inputCount: Int
        var hasTimers: Bool
        /// The most cells the table may have (``MachineCompiler/compile(_:maximumTableCells:)``'s
        /// limit): past it, or past what it allows of plans (``maximumPlans``) and of their
        /// states, effects and steps (``maximumPlanElements``), the machine runs on the general
        /// statechart runner.
        var maximumCells: Int

        /// The most plans: a sixteenth of the cells (at least 65,536). A plan is some 50 bytes
        /// and a cell 8; a small file may nest many states under a state of many transitions.
        var maximumPlans: Int { min(max(maximumCells / 16, 1 << 16), Int(Int32.max) / 2) }
        /// The most states, effects and steps laid out for the plans together.
        var maximumPlanElements: Int { min(max(maximumCells / 2, 1 << 20), Int(Int32.max) / 2) }
    }

    /// Whether `chart` runs on a leaf table: nothing but nesting makes it a statechart (not
    /// `on_error: raise`, whose failures go on where the table's steps would reject, nor
    /// `input()`, whose slot the statechart runner fills).
    static func qualifies(_ chart: StateChart) -> Bool {
        !chart.hasEventless && chart.activityTests.isEmpty && !chart.raisesErrors && chart.inputNameSlot < 0
            && !chart.tree.kinds.contains { $0 == .parallel || $0.isHistory }
            && chart.transitions.allSatisfy { $0.targets.count <= 1 }
    }

    /// The table of `chart`, or `nil` when it does not qualify (``qualifies(_:)``) or would
    /// pass the limit.
    init?(_ chart: StateChart, _ parts: Parts) {
        guard Self.qualifies(chart) else { return nil }
        let tree = chart.tree
        let (cellCount, overflow) = tree.count.multipliedReportingOverflow(by: parts.inputCount)
        guard !overflow, cellCount <= parts.maximumCells, Self.planCount(chart) <= parts.maximumPlans else { return nil }
        inputCount = parts.inputCount
        var builder = Builder(chart: chart, parts: parts)
        var cells = [Cell](repeating: Cell(code: Self.unhandled, next: 0), count: cellCount)
        var candidates: [Int32] = []
        // Per input, the leaf's candidates so far, and whether an unguarded one closed the list.
        var lists = [[Int32]](repeating: [], count: parts.inputCount)
        var closed = [Bool](repeating: false, count: parts.inputCount)
        var touched: [Int] = []
        for leaf in 0..<tree.count where tree.kinds[leaf] == .atomic {
            var state = leaf
            while state >= 0 {
                for index in chart.transitions(from: state) {
                    let input = Int(chart.transitions[Int(index)].input)
                    guard !closed[input] else { continue }
                    guard let plan = builder.plan(leaf: leaf, transition: Int(index)) else { return nil }
                    if lists[input].isEmpty { touched.append(input) }
                    lists[input].append(plan)
                    if !builder.plans[Int(plan)].isGuarded { closed[input] = true }
                }
                state = Int(tree.parents[state])
            }
            for input in touched {
                let list = lists[input]
                let first = builder.plans[Int(list[0])]
                let cell = leaf * parts.inputCount + input
                if first.isGuarded {
                    cells[cell] = Cell(code: Self.search, next: Int32(candidates.count))
                    candidates += list
                    candidates.append(-1)
                } else if first.refuses {
                    cells[cell] = Cell(code: Self.refused, next: first.compiled)
                } else {
                    cells[cell] = Cell(code: list[0], next: 0)
                }
                lists[input].removeAll(keepingCapacity: true)
                closed[input] = false
            }
            touched.removeAll(keepingCapacity: true)
        }
        self.cells = cells
        self.candidates = candidates
        plans = builder.plans
        states = builder.states
        effects = builder.effects
        steps = builder.steps
    }

    /// How many plans the table would hold at most: one per atomic state and transition of the
    /// state or of an ancestor (fewer where an unguarded transition closes a cell).
    private static func planCount(_ chart: StateChart) -> Int {
        let tree = chart.tree
        // Per state, the transitions of it and its ancestors; a parent's id is below its children's.
        var onChain = [Int](repeating: 0, count: tree.count)
        var count = 0
        for state in 0..<tree.count {
            let parent = Int(tree.parents[state])
            onChain[state] = chart.transitions(from: state).count + (parent >= 0 ? onChain[parent] : 0)
            if tree.kinds[state] == .atomic { count += onChain[state] }
        }
        return count
    }

    /// Works out the plans, laying their states, effects and steps end to end.
    private struct Builder {
        let chart: StateChart
        let parts: Parts
        var plans: [Plan] = []
        var states: [Int32] = []
        var effects: [Int32] = []
        var steps: [ChartRunner.PlanStep] = []

        /// The plan of `transition` taken from `leaf`, as the runner's microstep and its plan
        /// (ChartRunner+Microstep.swift) would lay it out; `nil` past ``Parts/maximumPlanElements``.
        mutating func plan(leaf: Int, transition index: Int) -> Int32? {
            guard states.count + effects.count + steps.count <= parts.maximumPlanElements else { return nil }
            let transition = chart.transitions[index]
            let compiled = Int(transition.compiled)
            let tree = chart.tree
            let exitStart = Int32(states.count)
            let effectStart = Int32(effects.count)
            let stepStart = Int32(steps.count)
            var entry = StateTree.StaticEntry(entered: [], enteredByDefault: [])
            if !transition.refuses && transition.domain != StateChart.noDomain {
                // Exited: the active states inside the domain, the leaf and its ancestors up to it.
                var state = leaf
                while state >= 0 && state != Int(transition.domain) {
                    states.append(Int32(state))
                    state = Int(tree.parents[state])
                }
                // Without history the entry never depends on the run.
                guard let entered = tree.staticEntry(targets: transition.targets, domain: Int(transition.domain), limit: Int.max)
                else { preconditionFailure("a transition without history enters the same states in every configuration") }
                entry = entered
            }
            let entryStart = Int32(states.count)
            states += entry.entered
            var runsBodies = false
            var raisesOrFinishes = false
            func add(_ effect: Int) {
                effects.append(Int32(effect))
                steps.append(.effect(Int32(effect)))
                if parts.hasBody[effect] { runsBodies = true }
            }
            if !transition.refuses {
                for state in states[Int(exitStart)..<Int(entryStart)] { parts.exitEffects[Int(state)].forEach(add) }
                parts.transitions[compiled].effects.forEach(add)
                for state in entry.entered.map(Int.init) {
                    parts.entryEffects[state].forEach(add)
                    if !chart.defaultEffects.isEmpty && entry.enteredByDefault.contains(Int32(state)) {
                        chart.defaultEffects[state].forEach(add)
                    }
                    guard tree.isFinal[state] else { continue }
                    let parent = Int(tree.parents[state])
                    if parent < 0 {
                        steps.append(.finish)
                        raisesOrFinishes = true
                    } else if chart.doneInputs[parent] >= 0 {
                        steps.append(.done(state: Int32(parent)))
                        raisesOrFinishes = true
                    }
                }
            }
            let executes = runsBodies || raisesOrFinishes || parts.hasTimers
            if !executes { steps.removeSubrange(Int(stepStart)...) }
            plans.append(
                Plan(
                    transition: Int32(index), compiled: Int32(compiled), isGuarded: transition.isGuarded, refuses: transition.refuses,
                    executes: executes, leaf: entry.entered.last ?? Int32(leaf), exitStart: exitStart, entryStart: entryStart,
                    entryEnd: Int32(states.count), effectStart: effectStart, effectEnd: Int32(effects.count), stepStart: stepStart,
                    stepEnd: Int32(steps.count)))
            return Int32(plans.count - 1)
        }
    }
}
