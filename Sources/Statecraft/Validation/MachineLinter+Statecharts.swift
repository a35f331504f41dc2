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

    /// A transition is shadowed when, from each state it leaves from, an earlier unguarded
    /// transition of the same state takes the same input (or, for an eventless one, is
    /// eventless too): selection tries a state's transitions in file order, so it is never
    /// taken. A transition of an ancestor is not counted as shadowing: in another region, or
    /// after a guard of the descendant fails, the ancestor's may still be chosen.
    static func chartShadowedTransitions(_ machine: CompiledMachine, _ chart: StateChart) -> [Diagnostic] {
        // Per compiled transition: how many of its transitions (one per source and input) are
        // shadowed, out of how many, and the lines that shadow them.
        var instances = [Int](repeating: 0, count: machine.transitions.count)
        var shadowed = [Int](repeating: 0, count: machine.transitions.count)
        var coveringLines = [Set<Int>](repeating: [], count: machine.transitions.count)
        var firstUnguarded: [Int32: Int] = [:]
        for state in 0..<chart.tree.count {
            firstUnguarded.removeAll(keepingCapacity: true)
            for index in chart.transitions(from: state) {
                let transition = chart.transitions[Int(index)]
                let compiled = Int(transition.compiled)
                instances[compiled] += 1
                if let earlier = firstUnguarded[transition.input], earlier != compiled {
                    shadowed[compiled] += 1
                    coveringLines[compiled].insert(machine.transitions[earlier].position.line)
                } else if !transition.isGuarded && firstUnguarded[transition.input] == nil {
                    firstUnguarded[transition.input] = compiled
                }
            }
        }
        return machine.transitions.indices.filter { instances[$0] > 0 && shadowed[$0] == instances[$0] }.map { index in
            let transition = machine.transitions[index]
            let what = transition.input >= 0 ? "this '\(machine.inputNames[transition.input])' transition" : "this eventless transition"
            let lines = coveringLines[index].sorted().map(String.init).joined(separator: ", ")
            return .warning(
                .shadowedTransition,
                "\(what) can never be taken: an earlier unguarded one (line \(lines)) covers every state it leaves from",
                at: transition.position)
        }
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
