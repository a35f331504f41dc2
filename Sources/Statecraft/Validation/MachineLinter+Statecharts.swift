// Warnings that think in configurations, for statecharts.
extension MachineLinter {
    /// Non-final atomic states that no transition can leave once they are active: none exits
    /// them while they are active (a transition leaves from the state, from an ancestor, or from
    /// another region of a parallel ancestor, and exits the state when its domain holds it). A
    /// self-transition of an atomic state is no way out, as in a flat machine. Guards are
    /// assumed to hold sometimes; a transition to a history state counts as exiting everything.
    static func chartTraps(_ machine: CompiledMachine, _ chart: StateChart, _ definition: MachineDefinition) -> [Diagnostic] {
        let tree = chart.tree
        // Ranges of ids that some transition frees, as a difference array.
        var freed = [Int](repeating: 0, count: tree.count + 1)
        for transition in chart.transitions where !transition.targets.isEmpty {
            let source = Int(transition.source)
            if transition.targets == [transition.source] && tree.kinds[source] == .atomic { continue }
            let domain = transition.targetsHistory ? -1 : Int(transition.domain)
            let (low, high) = (domain + 1, tree.end(of: domain))
            func free(_ state: Int) {
                let (from, to) = (max(state, low), min(tree.end(of: state), high))
                if from < to {
                    freed[from] += 1
                    freed[to] -= 1
                }
            }
            free(source)
            var child = source
            var ancestor = Int(tree.parents[source])
            while ancestor >= 0 {
                if tree.kinds[ancestor] == .parallel {
                    for region in tree.children[ancestor] where Int(region) != child { free(Int(region)) }
                }
                child = ancestor
                ancestor = Int(tree.parents[ancestor])
            }
        }
        let states = definition.allStates
        var covered = 0
        var warnings: [Diagnostic] = []
        for state in 0..<tree.count {
            covered += freed[state]
            guard covered == 0, tree.kinds[state] == .atomic, !tree.isFinal[state] else { continue }
            warnings.append(
                .warning(
                    .trapState,
                    "state '\(machine.stateNames[state])' is not final but no transition can leave it once it is active; mark it 'final: true' or add a way out",
                    at: states[state].name.position))
        }
        return warnings
    }

    /// Parallel states with one region: their one child runs alone, as it would in a compound state.
    static func singleRegions(_ machine: CompiledMachine, _ chart: StateChart, _ definition: MachineDefinition) -> [Diagnostic] {
        let tree = chart.tree
        let states = definition.allStates
        return tree.kinds.indices.filter { tree.kinds[$0] == .parallel && tree.children[$0].count == 1 }.map { state in
            .warning(
                .singleRegion,
                "parallel state '\(machine.stateNames[state])' has one region, which runs alone as in any compound state; add a region or drop 'parallel: true'",
                at: states[state].name.position)
        }
    }

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
        // A final state accepts no input: what leaves from it never fires.
        while let state = frontier.popLast() {
            guard !tree.isFinal[state] else { continue }
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
