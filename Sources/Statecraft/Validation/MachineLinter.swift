/// Finds what makes a valid machine probably wrong (`validate` warnings, docs/cli.md):
/// unreachable states, traps, shadowed transitions, unused inputs, `send` chains that can
/// loop without an external input, effects used but not declared or declared but not used,
/// transitions that leave from a final state, and eventless transitions that may loop forever.
///
/// Transitions are read by index, field by field: iterating `machine.transitions` would copy
/// each one, retaining and releasing all its arrays.
package enum MachineLinter {
    /// Warnings for `machine`, compiled from `definition`, in file order.
    package static func lint(_ machine: CompiledMachine, definition: MachineDefinition) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if let chart = machine.chart {
            warnings += chartReachability(machine, chart, definition)
            warnings += singleRegions(machine, chart, definition)
            warnings += chartTraps(machine, chart, definition)
            warnings += chartShadowedTransitions(machine, chart, definition)
            warnings += eventlessLoops(machine, chart, definition)
            warnings += unusedInputs(machine, definition)
            warnings += sendCycles(machine, definition)
            warnings += effectDeclarations(definition)
            warnings += transitionsFromFinalStates(machine, definition)
            return warnings.sorted(by: Diagnostic.inFileOrder)
        }
        warnings += reachability(machine, definition)
        warnings += traps(machine, definition)
        warnings += shadowedTransitions(machine, definition)
        warnings += unusedInputs(machine, definition)
        warnings += sendCycles(machine, definition)
        warnings += effectDeclarations(definition)
        warnings += transitionsFromFinalStates(machine, definition)
        return warnings.sorted(by: Diagnostic.inFileOrder)
    }

    /// Every state a transition (or a queued input) can lead to from the initial state.
    private static func reachability(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        var reached = [Bool](repeating: false, count: machine.stateCount)
        var frontier = [machine.initialState]
        reached[machine.initialState] = true
        var outgoing = [[Int]](repeating: [], count: machine.stateCount)
        let transitions = machine.transitions
        for index in transitions.indices where transitions[index].target >= 0 {
            let target = transitions[index].target
            // A final state accepts no input: what leaves from it never fires.
            for source in transitions[index].sources where !machine.isFinal[source] { outgoing[source].append(target) }
        }
        while let state = frontier.popLast() {
            for target in outgoing[state] where !reached[target] {
                reached[target] = true
                frontier.append(target)
            }
        }
        return machine.stateNames.indices.filter { !reached[$0] }.map { state in
            let name = machine.stateNames[state]
            if machine.isFinal[state] {
                return .warning(
                    .unreachableFinal, "final state '\(name)' cannot be reached from '\(machine.stateNames[machine.initialState])'; no transition leads to it",
                    at: definition.states[state].name.position)
            }
            return .warning(
                .unreachableState, "state '\(name)' cannot be reached from initial state '\(machine.stateNames[machine.initialState])'",
                at: definition.states[state].name.position)
        }
    }

    /// Non-final states with no transition to another state: once there, the machine stays forever.
    private static func traps(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        var leaves = [Bool](repeating: false, count: machine.stateCount)
        let transitions = machine.transitions
        for index in transitions.indices where transitions[index].target >= 0 {
            let target = transitions[index].target
            for source in transitions[index].sources where source != target { leaves[source] = true }
        }
        return machine.stateNames.indices.filter { !leaves[$0] && !machine.isFinal[$0] }.map { state in
            .warning(
                .trapState,
                "state '\(machine.stateNames[state])' is not final but has no transition to another state; mark it 'final: true' or add a way out",
                at: definition.states[state].name.position)
        }
    }

    /// Declared inputs that no transition uses: sending them can never succeed.
    static func unusedInputs(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        guard let declared = definition.inputs else { return [] }
        let transitions = machine.transitions
        let used = Set(transitions.indices.map { transitions[$0].input })
        return declared.compactMap { input in
            guard let id = machine.inputNames.firstIndex(of: input.name.name), !used.contains(id) else { return nil }
            return .warning(
                .unusedInput, "input '\(input.name.name)' is declared but no transition uses it; it is always rejected",
                at: input.name.position)
        }
    }

    /// Inputs whose transitions run effects that send inputs, around a cycle: once one is sent,
    /// the machine may never get back to its external inputs (a livelock; guards are ignored).
    static func sendCycles(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        // Edges: input -> (input it may send, via effect).
        var edges = [[(input: Int, effect: Int)]](repeating: [], count: machine.inputCount)
        let sentInputs = machine.effects.map(\.sentInputs)
        let transitions = machine.transitions
        for index in transitions.indices {
            let input = transitions[index].input
            guard input >= 0 else { continue }
            for source in transitions[index].sources where !machine.isFinal[source] {
                for effect in machine.effectsRun(by: index, from: source) {
                    for send in sentInputs[effect] where !edges[input].contains(where: { $0 == (send.input, effect) }) {
                        edges[input].append((send.input, effect))
                    }
                }
            }
        }
        // Depth-first search for back edges; each cycle reported once, at its first effect.
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: machine.inputCount)
        var path: [(input: Int, effect: Int)] = []
        var warnings: [Diagnostic] = []
        var reported: Set<[Int]> = []

        func visit(_ input: Int) {
            marks[input] = .onPath
            for edge in edges[input] {
                switch marks[edge.input] {
                case .unvisited:
                    path.append((input, edge.effect))
                    visit(edge.input)
                    path.removeLast()
                case .onPath:
                    let start = path.firstIndex { $0.input == edge.input } ?? path.count
                    let cycle = Array(path[start...]) + [(input, edge.effect)]
                    let key = cycle.map(\.input).sorted()
                    guard reported.insert(key).inserted else { continue }
                    let description = cycle.map { "'\(machine.inputNames[$0.input])' (\(machine.effectNames[$0.effect]) sends)" }
                        .joined(separator: " -> ") + " -> '\(machine.inputNames[edge.input])'"
                    let effectName = machine.effectNames[cycle[0].effect]
                    let position = definition.effects.first { $0.name.name == effectName }?.name.position ?? .unknown
                    warnings.append(
                        .warning(
                            .sendCycle,
                            "effects can send inputs in a cycle without an external input: \(description); a possible livelock (stopped by the step limit)",
                            at: position))
                case .done:
                    continue
                }
            }
            marks[input] = .done
        }
        for input in 0..<machine.inputCount where marks[input] == .unvisited { visit(input) }
        return warnings
    }

    /// The warnings that need only the definition, not a compiled machine: those a file with
    /// errors can still be given (``RelatedWarnings``).
    package static func definitionWarnings(_ definition: MachineDefinition) -> [Diagnostic] {
        effectDeclarations(definition)
    }

    /// When the file declares effects, an effect a transition or state names but the file does
    /// not declare is probably a typo (it would run as an empty hook), and a declared one that
    /// nothing names never runs. A hook is declared by a key without a body (`notify:`).
    private static func effectDeclarations(_ definition: MachineDefinition) -> [Diagnostic] {
        guard !definition.effects.isEmpty else { return [] }
        let declared = Set(definition.effects.map(\.name.name))
        var used: Set<String> = []
        var warnings: [Diagnostic] = []
        // One message tail (with its did-you-mean) per undeclared name, not per mention: a large
        // file mentions the same few names thousands of times. Found by spelling, then by name.
        var tails: [String: String] = [:]
        var tailsBySpelling = SpellingMemo<String>()
        // Whether a name is declared, by its spelling: hashing each of 100,000 mentions twice
        // cost more than the rest of the check.
        var isDeclared = SpellingMemo<Bool>()
        func mention(_ name: Named, by user: @autoclosure () -> String) {
            let nameIsDeclared: Bool
            if let known = isDeclared.remembered(name) {
                nameIsDeclared = known
            } else {
                used.insert(name.name)
                nameIsDeclared = declared.contains(name.name)
                isDeclared.remember(nameIsDeclared, for: name)
            }
            guard !nameIsDeclared else { return }
            let tail: String
            if let known = tailsBySpelling.remembered(name) {
                tail = known
            } else {
                tail =
                    tails[name.name]
                    ?? " runs effect '\(name.name)', which is not declared under 'effects'" + Suggestion.didYouMean(name.name, in: declared)
                    + "; it runs as a hook that does nothing (to mean a hook, declare it as '\(name.name):' with no body)"
                tails[name.name] = tail
                tailsBySpelling.remember(tail, for: name)
            }
            warnings.append(.warning(.undeclaredEffect, user() + tail, at: name.position))
        }
        for state in definition.allStates {
            for name in state.entry { mention(name, by: "state '\(state.name.name)' (entry)") }
            for name in state.exit { mention(name, by: "state '\(state.name.name)' (exit)") }
            for name in state.defaultEffects { mention(name, by: "state '\(state.name.name)' (default_effects)") }
        }
        // Each input's part of the message once, by spelling, for the many rows on one input.
        var users = SpellingMemo<String>()
        let transitions = definition.transitions
        for index in transitions.indices {
            for effect in transitions[index].effectNames {
                mention(effect, by: {
                    guard transitions[index].after == nil else { return "this '\(transitions[index].trigger)' transition" }
                    let input = transitions[index].input
                    if let known = users.remembered(input) { return known }
                    let user = "this '\(input.name)' transition"
                    users.remember(user, for: input)
                    return user
                }())
            }
        }
        for effect in definition.effects where !used.contains(effect.name.name) {
            warnings.append(
                .warning(
                    .unusedEffect, "effect '\(effect.name.name)' is declared but no transition or state runs it",
                    at: effect.name.position))
        }
        return warnings
    }

    /// A final state accepts no more input, so a transition listing it in `from` can never
    /// leave from it.
    private static func transitionsFromFinalStates(_ machine: CompiledMachine, _ definition: MachineDefinition) -> [Diagnostic] {
        guard machine.isFinal.contains(true) else { return [] }
        var finalStates: Set<String> = []
        for state in machine.stateNames.indices where machine.isFinal[state] { finalStates.insert(machine.stateNames[state]) }
        var warnings: [Diagnostic] = []
        var isFinal = SpellingMemo<Bool>()
        let transitions = definition.transitions
        for index in transitions.indices {
            for source in transitions[index].listedSources {
                let final: Bool
                if let known = isFinal.remembered(source) {
                    final = known
                } else {
                    final = finalStates.contains(source.name)
                    isFinal.remember(final, for: source)
                }
                guard final else { continue }
                warnings.append(
                    .warning(
                        .fromFinalState,
                        "this '\(transitions[index].trigger)' transition leaves from final state '\(source.name)', which accepts no input; it can never be taken from there",
                        at: source.position))
            }
        }
        return warnings
    }
}
