/// What both diagram formats draw: the states and the merged, labelled edges between them.
struct DiagramGraph {
    /// One end of an edge.
    enum Node: Hashable {
        /// A state, by id.
        case state(Int)
        /// The pseudo-node that stands for every non-final state (`from: "*"`).
        case anyState
        /// The pseudo-node that stands for every non-final state but some (`from: { not: [...] }`):
        /// the index of the excluded states in ``DiagramGraph/exceptions``.
        case anyStateExcept(Int)
    }

    /// Every transition from `from` to `to`, one label and description each, in file order;
    /// staying transitions (no target: no exit or entry effects) have edges of their own.
    struct Edge {
        var from: Node
        var to: Node
        var stays: Bool
        var labels: [String]
        /// Each transition's description, `nil` for one without.
        var descriptions: [String?]
        /// Each transition's index in ``CompiledMachine/transitions``.
        var transitions: [Int]
    }

    let name: String
    let stateNames: [String]
    let isFinal: [Bool]
    let initialState: Int
    /// Each state's entry and exit effects, by name, in the order they run.
    let entryEffects: [[String]]
    let exitEffects: [[String]]
    /// Each state's description, when the definition gives one.
    let stateDescriptions: [String?]
    /// A statechart's tree, drawn as nested clusters (DOT) or composite states (Mermaid);
    /// `nil` for a flat machine.
    let tree: StateTree?
    /// Edges in order of their first transition in the file.
    private(set) var edges: [Edge] = []
    /// The sets of states that `from: { not: [...] }` transitions leave out, each once, by name
    /// in the order written; a pseudo-node each.
    private(set) var exceptions: [[String]] = []

    /// Whether some transition leaves from the "any state" node.
    var hasAnyState: Bool { edges.contains { $0.from == .anyState } }

    /// The graph of `machine`; with `separatingTransitions`, each transition has edges of its
    /// own (one per state it leaves from and state it enters) rather than sharing them.
    init(_ machine: CompiledMachine, definition: MachineDefinition?, separatingTransitions: Bool = false) {
        name = machine.name
        stateNames = machine.stateNames
        isFinal = machine.isFinal
        initialState = machine.initialState
        tree = machine.chart?.tree
        entryEffects = machine.entryEffects.map { $0.map { machine.effectNames[$0] } }
        exitEffects = machine.exitEffects.map { $0.map { machine.effectNames[$0] } }
        let written = Self.matching(machine, definition)
        if let states = definition?.allStates, states.map(\.name.name) == machine.stateNames {
            stateDescriptions = states.map(\.description)
        } else {
            stateDescriptions = machine.stateNames.map { _ in nil }
        }
        var edgeIndex: [EdgeKey: Int] = [:]
        var exceptionIndex: [[String]: Int] = [:]
        for (index, transition) in machine.transitions.enumerated() {
            let label = Self.label(transition, machine)
            let sources: [Node]
            switch written?[index].source {
            case .anyNonFinal?:
                sources = [.anyState]
            case .anyNonFinalExcept(let names, _)?:
                var excluded: [String] = []
                for name in names.map(\.name) where !excluded.contains(name) { excluded.append(name) }
                if exceptionIndex[excluded] == nil {
                    exceptionIndex[excluded] = exceptions.count
                    exceptions.append(excluded)
                }
                sources = [.anyStateExcept(exceptionIndex[excluded]!)]
            default:
                // A final state accepts no input: an edge leaving one could never be taken, so it is not drawn.
                sources = transition.sources.filter { !machine.isFinal[$0] }.map { .state($0) }
            }
            let description = written?[index].description
            // A transition into several regions is an edge to each of its targets.
            let targets = transition.targets
            for source in sources {
                let stays = transition.target < 0
                for target in stays ? [source] : targets.map({ .state($0) }) {
                    let key = EdgeKey(from: source, to: target, stays: stays)
                    if !separatingTransitions, let existing = edgeIndex[key] {
                        edges[existing].labels.append(label)
                        edges[existing].descriptions.append(description)
                        edges[existing].transitions.append(index)
                    } else {
                        edgeIndex[key] = edges.count
                        edges.append(
                            Edge(from: source, to: target, stays: stays, labels: [label], descriptions: [description], transitions: [index]))
                    }
                }
            }
        }
    }

    /// The label of the pseudo-node for ``exceptions`` `index`: `any state except a, b`.
    func exceptionLabel(_ index: Int) -> String {
        "any state except " + exceptions[index].joined(separator: ", ")
    }

    private struct EdgeKey: Hashable {
        var from: Node
        var to: Node
        var stays: Bool
    }

    /// The lines drawn under a state's name: `entry / a, b` and `exit / c`, when it has them.
    func effectLines(of state: Int) -> [String] {
        var lines: [String] = []
        if !entryEffects[state].isEmpty { lines.append("entry / " + entryEffects[state].joined(separator: ", ")) }
        if !exitEffects[state].isEmpty { lines.append("exit / " + exitEffects[state].joined(separator: ", ")) }
        return lines
    }

    /// `input [guard] / effect, effect`, the guard and effects only when present; a refusal is
    /// `input [guard] rejected: MESSAGE` (a self-loop, as it changes nothing).
    static func label(_ transition: CompiledTransition, _ machine: CompiledMachine) -> String {
        // An eventless transition has no input: its label is its guard (or nothing).
        // A delayed transition's label is its delay: `after 30s`.
        var label = "(eventless)"
        if transition.input >= 0 {
            label = machine.timers?.afterTexts[transition.input].map { "after \($0)" } ?? machine.inputNames[transition.input]
        }
        if let guardText = transition.guardText { label += " [\(guardText)]" }
        if let refusal = transition.refusal { label += " rejected: \(refusal)" }
        if !transition.effects.isEmpty {
            label += " / " + transition.effects.map { machine.effectNames[$0] }.joined(separator: ", ")
        }
        return label
    }

    /// The definition's transitions, one per compiled transition (they tell how sources were
    /// written, and descriptions); `nil` when `definition` is missing or is not the one
    /// `machine` was compiled from.
    private static func matching(_ machine: CompiledMachine, _ definition: MachineDefinition?) -> [TransitionDefinition]? {
        guard let written = definition?.transitions, written.count == machine.transitions.count else { return nil }
        for (compiled, definition) in zip(machine.transitions, written)
        where compiled.input >= 0
            ? (machine.timers?.afterTexts[compiled.input] ?? machine.inputNames[compiled.input]) != (definition.after?.text ?? definition.input.name)
            : !definition.isEventless
        {
            return nil
        }
        return written
    }
}
