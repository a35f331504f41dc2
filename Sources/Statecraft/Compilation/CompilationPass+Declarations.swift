// Phase 1: the states, inputs and effects the file declares, each name once.
extension CompilationPass {
    mutating func declareStates() {
        if states.isEmpty {
            error(.missingKey, "a machine needs at least one state", definition.initial.position)
        }
        stateIDs.reserveCapacity(states.count)
        // By index, reading the name only: a copy of each whole declaration would retain all its arrays.
        for index in states.indices {
            let name = states[index].name
            if let problem = NameRules.problem(withName: name.name) {
                error(.invalidName, problem, name.position)
            }
            if let first = stateIDs[name.name] {
                error(
                    .duplicateState, "state '\(name.name)' is declared twice (first at line \(states[first].name.position.line))",
                    name.position)
            } else {
                stateIDs[name.name] = index
            }
        }
    }

    mutating func declareInputs() {
        if let declared = definition.inputs {
            for input in declared {
                if let problem = NameRules.problem(withInputName: input.name.name) {
                    error(.invalidName, problem, input.name.position)
                }
                if let first = inputIDs[input.name.name] {
                    error(
                        .duplicateInput, "input '\(input.name.name)' is declared twice (first at line \(declared[first].name.position.line))",
                        input.name.position)
                    continue
                }
                if input.argumentType == .null {
                    error(.argumentType, "an argument type is int, double, bool or string, not null", input.argumentTypePosition)
                }
                inputIDs[input.name.name] = inputNames.count
                inputNames.append(input.name.name)
                argumentTypes.append(input.argumentType)
                inputIsInternal.append(input.isInternal)
            }
        } else {
            // Field by field through a buffer: copying each transition would retain all its parts.
            let transitions = definition.transitions
            transitions.withUnsafeBufferPointer { transitions in
                for index in transitions.indices {
                    let input = transitions[index].input
                    guard !transitions[index].isEventless, transitions[index].after == nil, inputIDs[input.name] == nil,
                        !TransitionDefinition.isPattern(input.name, isEventless: false, hasDelay: false)
                    else { continue }
                    if let problem = NameRules.problem(withInputName: input.name) {
                        error(.invalidName, problem, input.position)
                    }
                    inputIDs[input.name] = inputNames.count
                    inputNames.append(input.name)
                    argumentTypes.append(nil)
                    inputIsInternal.append(false)
                }
            }
        }
    }

    /// Effects with a body first, in file order, then hooks in order of first mention.
    mutating func declareEffects() {
        for effect in definition.effects {
            if let problem = NameRules.problem(withName: effect.name.name) {
                error(.invalidName, problem, effect.name.position)
            }
            if effectIDs[effect.name.name] != nil {
                error(.duplicateEffect, "effect '\(effect.name.name)' is defined twice", effect.name.position)
                continue
            }
            effectIDs[effect.name.name] = effectNames.count
            effectNames.append(effect.name.name)
        }
        // Each hook's first mention: the earliest by position, of mentions taken states' exit and
        // entry effects first, then transitions' (as a stable sort of them all would find it).
        var hookIndex: [String: Int] = [:]
        var firstMentions: [(name: Named, order: Int)] = []
        var order = 0
        // A large file mentions a few effects on most of its transitions: each spelling's hook
        // is found once (`nil` for an effect with a body).
        var hooks = SpellingMemo<Int?>()
        func hook(_ name: Named) -> Int? {
            if let hook = hooks.remembered(name) { return hook }
            var hook: Int?
            if effectIDs[name.name] == nil {
                hook = hookIndex[name.name]
                if hook == nil {
                    hook = firstMentions.count
                    hookIndex[name.name] = firstMentions.count
                    firstMentions.append((name, order))
                }
            }
            hooks.remember(hook, for: name)
            return hook
        }
        func mention(_ name: Named) {
            defer { order += 1 }
            guard let index = hook(name) else { return }
            if name.position < firstMentions[index].name.position { firstMentions[index] = (name, order) }
        }
        for index in states.indices {
            for name in states[index].exit { mention(name) }
            for name in states[index].entry { mention(name) }
            for name in states[index].defaultEffects { mention(name) }
        }
        // Through a buffer, and without the array ``TransitionDefinition/effects`` makes.
        definition.transitions.withUnsafeBufferPointer { transitions in
            for index in transitions.indices { for name in transitions[index].effectNames { mention(name) } }
        }
        firstMentions.sort { ($0.name.position, $0.order) < ($1.name.position, $1.order) }
        for (name, _) in firstMentions {
            if let problem = NameRules.problem(withName: name.name) {
                error(.invalidName, problem, name.position)
            }
            effectIDs[name.name] = effectNames.count
            effectNames.append(name.name)
        }
    }
}
