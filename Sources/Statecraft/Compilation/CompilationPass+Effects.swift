// Phase 4: effect bodies compiled, checked against the inputs that can run them.
extension CompilationPass {
    /// For each effect, the argument types of the inputs that can run it (`nil` in the set: an
    /// input without argument, or the machine's start). An effect that reads `arg` needs one type.
    func effectArgumentTypes(initial: Int) -> [Set<ValueType?>] {
        var runners = [Set<ValueType?>](repeating: [], count: effectNames.count)
        func add(_ effects: [Int], _ argumentType: ValueType?) {
            for id in effects { runners[id].insert(argumentType) }
        }
        /// What transition `index` runs, given its input's argument type.
        func addRun(by index: Int, _ argumentType: ValueType?) {
            add(references[index].effects, argumentType)
            // In a statechart any transition may exit or enter a state (and eventless ones,
            // done events and the start take no argument): see below.
            guard !isChart, let target = references[index].target, target >= 0 else { return }
            add(entryEffects[target], argumentType)
            for source in references[index].sources { add(exitEffects[source], argumentType) }
        }
        // Without building an array of argument types per transition.
        for index in references.indices {
            if definition.transitions[index].isEventless {
                addRun(by: index, nil)
            } else if let input = references[index].input {
                addRun(by: index, argumentTypes[input])
            } else {
                for input in references[index].inputs { addRun(by: index, argumentTypes[input]) }
            }
        }
        if isChart {
            for state in states.indices {
                add(entryEffects[state], nil)
                add(exitEffects[state], nil)
            }
        } else if initial >= 0 {
            add(entryEffects[initial], nil)
        }
        return runners
    }

    mutating func compileEffects(
        argumentScopes: [Set<ValueType?>], transitions: [CompiledTransition], argumentIsRead: inout [Bool]
    ) -> [CompiledEffect] {
        var bodies = [CompiledEffect](
            repeating: CompiledEffect(assignments: [], sends: [], expressionTexts: []), count: effectNames.count)
        for effect in definition.effects {
            guard let id = effectIDs[effect.name.name], bodies[id].expressionTexts.isEmpty else { continue }
            let runners = argumentScopes[id]
            let types = runners.compactMap { $0 }
            let argumentType = Self.singleType(runners)
            let unavailable: String
            if runners.contains(nil) {
                unavailable = "effect '\(effect.name.name)' also runs on an input without argument (or at start)"
            } else if types.count > 1 {
                unavailable = "effect '\(effect.name.name)' runs on inputs of different argument types (\(types.map(\.rawValue).sorted().joined(separator: ", ")))"
            } else {
                unavailable = "effect '\(effect.name.name)' is not run by any input"
            }
            var scope = ExpressionScope(variables: variables, argumentType: argumentType, argumentUnavailable: unavailable)
            scope.activitySlots = activitySlots
            scope.stateNames = stateNamesForTests
            var assignments: [(slot: Int, value: CompiledExpression)] = []
            var sends: [CompiledEffect.Send] = []
            var texts: [String] = []
            for assignment in effect.assignments {
                guard let variable = variables[assignment.variable.name] else {
                    error(
                        .undefinedVariable,
                        "effect '\(effect.name.name)' sets undefined context variable '\(assignment.variable.name)'"
                            + Suggestion.didYouMean(assignment.variable.name, in: variables.keys),
                        assignment.variable.position)
                    continue
                }
                if let compiled = compileExpression(
                    assignment.expression, in: scope, expected: variable.type,
                    role: "the value of '\(assignment.variable.name)'")
                {
                    assignments.append((variable.slot, compiled))
                    texts.append(assignment.expression.text)
                }
            }
            for send in effect.sends {
                guard let input = input(send.input, role: "effect '\(effect.name.name)' sends; it") else { continue }
                switch (argumentTypes[input], send.argument) {
                case (nil, nil):
                    sends.append(.init(input: input, argument: nil))
                    texts.append(inputNames[input])
                case (let type?, let argument?):
                    if let compiled = compileExpression(
                        argument, in: scope, expected: ExpressionType(type), role: "the argument sent to '\(inputNames[input])'")
                    {
                        sends.append(.init(input: input, argument: compiled))
                        texts.append(argument.text)
                    }
                case (let type?, nil):
                    error(.argumentType, "input '\(inputNames[input])' takes a \(type) argument; send it with { input: \(inputNames[input]), arg: ... }", send.input.position)
                case (nil, let argument?):
                    error(.argumentType, "input '\(inputNames[input])' takes no argument, but one is sent", argument.position)
                }
            }
            if effect.assignments.contains(where: { readsArgument($0.expression.text) })
                || effect.sends.contains(where: { $0.argument.map { readsArgument($0.text) } ?? false })
            {
                for t in transitions where t.input >= 0 && effectsRun(by: t).contains(id) { argumentIsRead[t.input] = true }
            }
            bodies[id] = CompiledEffect(assignments: assignments, sends: sends, expressionTexts: texts)
        }
        return bodies
    }

    /// Every effect a transition may run, from any of its sources.
    private func effectsRun(by t: CompiledTransition) -> [Int] {
        var ids = t.effects
        if t.target >= 0 {
            ids += entryEffects[t.target]
            for source in t.sources { ids += exitEffects[source] }
        }
        return ids
    }
}
