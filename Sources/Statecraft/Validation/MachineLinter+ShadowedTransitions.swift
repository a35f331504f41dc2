// Transitions that can never be taken because earlier unguarded ones always win.
extension MachineLinter {
    /// A transition is shadowed when every source it names is covered by an earlier unguarded
    /// transition of the same input: it can never be taken.
    static func shadowedTransitions(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        let transitions = machine.transitions
        // The transitions by input, each input's in file order (a counting sort), so that one
        // row of lines serves every input in turn: a row per input was as large as a dense
        // dispatch table (8 MB for 10,000 states and 200 inputs).
        var starts = [Int](repeating: 0, count: machine.inputCount + 1)
        for index in transitions.indices { starts[transitions[index].input + 1] += 1 }
        for input in 0..<machine.inputCount { starts[input + 1] += starts[input] }
        var byInput = [Int32](repeating: 0, count: transitions.count)
        var filled = starts
        for index in transitions.indices {
            let input = transitions[index].input
            byInput[filled[input]] = Int32(index)
            filled[input] += 1
        }
        // For the input being checked: the line of the earliest unguarded transition leaving
        // each state (0: none).
        var coveredAt = [Int32](repeating: 0, count: machine.stateCount)
        var covering = [Set<Int>?](repeating: nil, count: transitions.count)
        for input in 0..<machine.inputCount {
            let group = byInput[starts[input]..<starts[input + 1]].map { Int($0) }
            for index in group {
                let sources = transitions[index].sources
                // The covering lines are gathered only for a warning: most transitions are not shadowed.
                if !sources.isEmpty, sources.allSatisfy({ coveredAt[$0] != 0 }) {
                    covering[index] = Set(sources.map { Int(coveredAt[$0]) })
                }
                if transitions[index].guardExpression == nil {
                    let line = Int32(clamping: transitions[index].position.line)
                    for source in sources where coveredAt[source] == 0 {
                        coveredAt[source] = line
                    }
                }
            }
            for index in group { for source in transitions[index].sources { coveredAt[source] = 0 } }
        }
        return shadowWarnings(machine, definition, covering: covering)
    }

    /// A statechart's transition is shadowed when, from each state it leaves from, an earlier
    /// unguarded transition of the same state takes the same input (or, for an eventless one,
    /// is eventless too): selection tries a state's transitions in file order, so it is never
    /// taken. A transition of an ancestor is not counted as shadowing: in another region, or
    /// after a guard of the descendant fails, the ancestor's may still be chosen.
    static func chartShadowedTransitions(_ machine: CompiledMachine, _ chart: StateChart, _ definition: MachineDefinition) -> [Diagnostic] {
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
        let covering = machine.transitions.indices.map { index in
            instances[index] > 0 && shadowed[index] == instances[index] ? coveringLines[index] : nil
        }
        return shadowWarnings(machine, definition, covering: covering)
    }

    /// One warning per written transition whose compiled transitions are all shadowed
    /// (`covering[index]`: the lines that shadow compiled transition `index`, nil when it can
    /// be taken). A pattern (`*`, `error.*`) compiles to one transition per input it matches,
    /// in a row at its position: it is shadowed only when every one of them is, since a
    /// pattern after some specific transitions is how a fallback for the other inputs is written.
    private static func shadowWarnings(_ machine: CompiledMachine, _ definition: MachineDefinition, covering: [Set<Int>?]) -> [Diagnostic] {
        var patterns: [SourcePosition: String] = [:]
        // By index, field by field: iterating would copy each transition, retaining all its parts.
        let written = definition.transitions
        for index in written.indices
        where TransitionDefinition.isPattern(written[index].input.name, isEventless: written[index].isEventless, hasDelay: written[index].after != nil) {
            patterns[written[index].position] = written[index].input.name
        }
        var warnings: [Diagnostic] = []
        let transitions = machine.transitions
        var start = 0
        while start < transitions.count {
            let position = transitions[start].position
            let pattern = patterns[position]
            var end = start + 1
            if pattern != nil {
                while end < transitions.count && transitions[end].position == position { end += 1 }
            }
            let row = start..<end
            start = end
            guard row.allSatisfy({ covering[$0] != nil }) else { continue }
            let lines = row.reduce(into: Set<Int>()) { $0.formUnion(covering[$1]!) }.sorted().map(String.init)
            let input = transitions[row.lowerBound].input
            let what = pattern.map { "this '\($0)' transition" }
                ?? (input >= 0 ? "this '\(machine.inputNames[input])' transition" : "this eventless transition")
            let earlier = lines.count == 1
                ? "an earlier unguarded one (line \(lines[0])) covers"
                : "earlier unguarded ones (lines \(lines.joined(separator: ", "))) cover"
            let scope = pattern == nil ? "every state it leaves from" : "every input it matches, from every state it leaves from"
            warnings.append(.warning(.shadowedTransition, "\(what) can never be taken: \(earlier) \(scope)", at: position))
        }
        return warnings
    }
}
