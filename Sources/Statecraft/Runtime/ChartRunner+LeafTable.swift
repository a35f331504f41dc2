// Inputs of a statechart whose states only nest, taken through its leaf table
// (``LeafDispatchTable``): one cell per active atomic state and input, whose plans were worked
// out at load. The result, the configuration, the effects run and the transitions taken are
// those of selection and the microstep (ChartRunner+Selection.swift, +Microstep.swift).
extension ChartRunner {
    /// Whether inputs are taken through the chart's leaf table (``StateChart/leafTable``); set
    /// it to `false` to take them through selection and the microstep (as the differential
    /// test does). Setting it to `true` has no effect on a chart without a leaf table.
    package var usesLeafTable: Bool {
        get { leafTable != nil }
        set { leafTable = newValue ? chart.leafTable : nil }
    }

    /// The active atomic state, or -1 before the start. A nested machine without parallel
    /// states has exactly one active atomic state, so the hint is it while it is active.
    @inline(__always)
    mutating func activeLeaf() -> Int {
        let hint = Int(leafHint)
        if hint >= 0 && Self.contains(configuration, hint) { return hint }
        let mask = chart.tree.atomicMask
        for word in configuration.indices where configuration[word] & mask[word] != 0 {
            let leaf = word << 6 | (configuration[word] & mask[word]).trailingZeroBitCount
            leafHint = Int32(leaf)
            return leaf
        }
        return -1
    }

    /// Takes `input` through `table` as selection and the microstep would, filling `result`;
    /// `false` when the runner has no active state (not started), for the general path.
    @inline(__always)
    mutating func take(_ input: Int, argument: Value, through table: LeafDispatchTable, _ result: inout TransitionResult) -> Bool {
        let leaf = activeLeaf()
        guard leaf >= 0 else { return false }
        let cell = table.cells[leaf &* table.inputCount &+ input]
        if cell.code >= 0 {
            takePlan(Int(cell.code), argument: argument, of: table, &result)
            return true
        }
        switch cell.code {
        case LeafDispatchTable.unhandled:
            result.outcome = machine.onUnhandled == .ignore ? .ignored : .rejected(.noTransition)
        case LeafDispatchTable.refused:
            result.outcome = .rejected(.refused)
            result.refusingTransition = Int(cell.next)
        default:
            search(from: Int(cell.next), argument: argument, in: table, &result)
        }
        return true
    }

    /// Evaluates the guards of a cell's candidates in order and takes the first that holds.
    private mutating func search(from start: Int, argument: Value, in table: LeafDispatchTable, _ result: inout TransitionResult) {
        var position = start
        while table.candidates[position] >= 0 {
            let index = Int(table.candidates[position])
            position += 1
            let compiled = Int(table.plans[index].compiled)
            if table.plans[index].isGuarded {
                guard let holds = machine.guardHolds(compiled, on: values, argument: argument, &result) else { return }
                if !holds { continue }
            }
            if table.plans[index].refuses {
                result.outcome = .rejected(.refused)
                result.refusingTransition = compiled
                return
            }
            takePlan(index, argument: argument, of: table, &result)
            return
        }
        result.outcome = .rejected(.guardRejected)
    }

    /// Takes plan `index`: lists its transition and effects, then moves the configuration, or,
    /// for a plan that runs bodies, raises done events, finishes or may touch timers, runs its
    /// steps as the microstep runs its plan.
    private mutating func takePlan(_ index: Int, argument: Value, of table: LeafDispatchTable, _ result: inout TransitionResult) {
        let plan = table.plans[index]
        transitionsTaken.append(plan.transition)
        if plan.effectStart < plan.effectEnd { effectsRun.append(contentsOf: table.effects[Int(plan.effectStart)..<Int(plan.effectEnd)]) }
        let (exitStart, entryStart, entryEnd) = (Int(plan.exitStart), Int(plan.entryStart), Int(plan.entryEnd))
        guard plan.executes else {
            for position in exitStart..<entryStart { Self.remove(Int(table.states[position]), from: &configuration) }
            for position in entryStart..<entryEnd { Self.insert(Int(table.states[position]), into: &configuration) }
            leafHint = plan.leaf
            result.outcome = .accepted
            return
        }
        for word in exitSet.indices { exitSet[word] = 0 }
        for position in exitStart..<entryStart { Self.insert(Int(table.states[position]), into: &exitSet) }
        for word in configuration.indices { nextConfiguration[word] = configuration[word] & ~exitSet[word] }
        for position in entryStart..<entryEnd { Self.insert(Int(table.states[position]), into: &nextConfiguration) }
        for position in Int(plan.stepStart)..<Int(plan.stepEnd) { self.plan.append(table.steps[position]) }
        timerLimitReached = false
        settle(executePlan(argument: argument), &result)
        if result.isAccepted { leafHint = plan.leaf }
    }
}
