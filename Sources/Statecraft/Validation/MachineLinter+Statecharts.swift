// Warnings that think in configurations, for statecharts.
extension MachineLinter {
    /// States that no configuration reachable from the initial one holds: from the initial
    /// configuration, every transition leaving an active state enters its targets, their
    /// ancestors, and what entering them enters by default (initial children, every region of a
    /// parallel state, a history's default), until nothing more is reached. Guards are assumed
    /// to hold sometimes.
    static func chartReachability(_ machine: CompiledMachine, _ chart: StateChart, _ definition: MachineDefinition) -> [Diagnostic] {
        let tree = chart.tree
        var reached = [Bool](repeating: false, count: tree.count)
        var frontier: [Int] = []
        func enter(_ state: Int) {
            var pending = [state]
            while let state = pending.popLast() {
                guard !reached[state] else { continue }
                reached[state] = true
                frontier.append(state)
                if tree.parents[state] >= 0 { pending.append(Int(tree.parents[state])) }
                pending.append(contentsOf: tree.defaultEntries[state].map { Int($0) })
                if tree.kinds[state] == .parallel { pending.append(contentsOf: tree.children[state].map { Int($0) }) }
            }
        }
        for state in tree.initial { enter(Int(state)) }
        while let state = frontier.popLast() {
            for index in chart.transitions(from: state) {
                for target in chart.transitions[Int(index)].targets { enter(Int(target)) }
            }
        }
        let states = definition.allStates
        let initialName = machine.stateNames[machine.initialState]
        return tree.kinds.indices.filter { !reached[$0] && !tree.kinds[$0].isHistory }.map { state in
            let name = machine.stateNames[state]
            if tree.isFinal[state] {
                return .warning(
                    .unreachableFinal, "final state '\(name)' cannot be reached from '\(initialName)'; no transition leads to it",
                    at: states[state].name.position)
            }
            return .warning(
                .unreachableState, "state '\(name)' is in no configuration reachable from initial state '\(initialName)'",
                at: states[state].name.position)
        }
    }
}
