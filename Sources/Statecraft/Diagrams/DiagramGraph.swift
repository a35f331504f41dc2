/// What both diagram formats draw: the states and the merged, labelled edges between them.
struct DiagramGraph {
    /// One end of an edge.
    enum Node: Hashable {
        /// A state, by id.
        case state(Int)
        /// The pseudo-node that stands for every non-final state (`from: "*"`).
        case anyState
    }

    /// Every transition from `from` to `to`, one label each, in file order.
    struct Edge {
        var from: Node
        var to: Node
        var labels: [String]
    }

    let name: String
    let stateNames: [String]
    let isFinal: [Bool]
    let initialState: Int
    /// Edges in order of their first transition in the file.
    private(set) var edges: [Edge] = []

    /// Whether some transition leaves from the "any state" node.
    var hasAnyState: Bool { edges.contains { $0.from == .anyState } }

    init(_ machine: CompiledMachine, definition: MachineDefinition?) {
        name = machine.name
        stateNames = machine.stateNames
        isFinal = machine.isFinal
        initialState = machine.initialState
        let isWildcard = Self.wildcards(machine, definition)
        var edgeIndex: [EdgeKey: Int] = [:]
        for (index, transition) in machine.transitions.enumerated() {
            let label = Self.label(transition, machine)
            let sources: [Node] = isWildcard[index] ? [.anyState] : transition.sources.map { .state($0) }
            for source in sources {
                let target = transition.target >= 0 ? .state(transition.target) : source
                let key = EdgeKey(from: source, to: target)
                if let existing = edgeIndex[key] {
                    edges[existing].labels.append(label)
                } else {
                    edgeIndex[key] = edges.count
                    edges.append(Edge(from: source, to: target, labels: [label]))
                }
            }
        }
    }

    private struct EdgeKey: Hashable {
        var from: Node
        var to: Node
    }

    /// `input [guard] / effect, effect`, the guard and effects only when present.
    static func label(_ transition: CompiledTransition, _ machine: CompiledMachine) -> String {
        // An eventless transition has no input: its label is its guard (or nothing).
        var label = transition.input >= 0 ? machine.inputNames[transition.input] : "(eventless)"
        if let guardText = transition.guardText { label += " [\(guardText)]" }
        if !transition.effects.isEmpty {
            label += " / " + transition.effects.map { machine.effectNames[$0] }.joined(separator: ", ")
        }
        return label
    }

    /// For each compiled transition, whether it was written `from: "*"`; all `false` when
    /// `definition` is missing or is not the one `machine` was compiled from.
    private static func wildcards(_ machine: CompiledMachine, _ definition: MachineDefinition?) -> [Bool] {
        let none = [Bool](repeating: false, count: machine.transitions.count)
        guard let written = definition?.transitions, written.count == machine.transitions.count else { return none }
        var flags = none
        for (index, (compiled, definition)) in zip(machine.transitions, written).enumerated() {
            guard compiled.input >= 0 ? machine.inputNames[compiled.input] == definition.input.name : definition.isEventless else { return none }
            if case .anyNonFinal = definition.source { flags[index] = true }
        }
        return flags
    }
}
