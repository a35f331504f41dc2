// Phase 3: transitions compiled, with their guards type-checked.
extension CompilationPass {
    mutating func state(_ name: Named, role: String) -> Int? {
        if let id = stateIDs[name.name] { return id }
        error(
            .undefinedState,
            "\(role) refers to undefined state '\(name.name)'" + Suggestion.didYouMean(name.name, in: stateIDs.keys),
            name.position)
        return nil
    }

    mutating func input(_ name: Named, role: String) -> Int? {
        if let id = inputIDs[name.name] { return id }
        let hint = definition.inputs == nil ? "" : "; declare it under 'inputs'"
        error(
            .undefinedInput,
            "\(role) refers to undefined input '\(name.name)'" + Suggestion.didYouMean(name.name, in: inputIDs.keys) + hint,
            name.position)
        return nil
    }

    mutating func compileTransitions() -> [CompiledTransition] {
        var compiled: [CompiledTransition] = []
        compiled.reserveCapacity(definition.transitions.count)
        let transitions = definition.transitions
        for index in transitions.indices {
            let references = references[index]
            // What is undefined is reported in the order the transition names it.
            let input = references.input ?? input(transitions[index].input, role: "transition")
            switch transitions[index].source {
            case .states(let names) where references.hasUndefinedSource:
                for name in names where stateIDs[name.name] == nil { _ = state(name, role: "transition") }
            case .anyNonFinalExcept(let names, let position):
                for name in names where stateIDs[name.name] == nil { _ = state(name, role: "'not'") }
                if !references.hasUndefinedSource && references.sources.isEmpty {
                    error(
                        .invalidValue,
                        "'not' excludes every non-final state, so the transition leaves from none and can never be taken",
                        position)
                }
            default:
                break
            }
            let target = references.target ?? transitions[index].target.flatMap { state($0, role: "transition") }
            if transitions[index].refusal != nil && (transitions[index].target != nil || !transitions[index].effects.isEmpty) {
                error(
                    .invalidValue, "a transition that rejects its input ('reject') has no target ('to') and no effects",
                    transitions[index].position)
            }
            let guardSource = transitions[index].guardExpression
            var guardExpression: CompiledExpression?
            if let guardSource, let input {
                guardExpression = compileGuard(guardSource, input: input)
            }
            guard let input, let target else { continue }
            compiled.append(
                CompiledTransition(
                    input: input, sources: references.sources, target: target, guardExpression: guardExpression,
                    guardText: guardSource?.text, effects: references.effects, position: transitions[index].position,
                    refusal: transitions[index].refusal))
        }
        return compiled
    }

    /// Compiles the guard of a transition on `input`, once per text and argument type.
    mutating func compileGuard(_ source: ExpressionSource, input: Int) -> CompiledExpression? {
        let key = GuardKey(text: source.text, argumentType: argumentTypes[input])
        if let known = compiledGuards[key] { return known }
        let scope = ExpressionScope(
            variables: variables, argumentType: key.argumentType,
            argumentUnavailable: "input '\(inputNames[input])' takes no argument")
        let compiled = compileExpression(source, in: scope, expected: .bool, role: "a guard")
        if let compiled { compiledGuards[key] = compiled }
        return compiled
    }

    /// Parses and checks one expression, reporting a problem at its exact column.
    mutating func compileExpression(
        _ source: ExpressionSource, in scope: ExpressionScope, expected: ExpressionType?, role: String
    ) -> CompiledExpression? {
        let parsed: Expression
        do {
            parsed = try ExpressionParser.parse(source.text)
        } catch {
            self.error(.expressionSyntax, "in \(role) '\(Self.excerpt(source.text))': \(error.message)", source.position(atOffset: error.offset))
            return nil
        }
        do {
            if let expected, expected != .bool {
                return try ExpressionChecker.check(parsed, in: scope, storedAs: expected)
            }
            let (compiled, type) = try ExpressionChecker.check(parsed, in: scope)
            if expected == .bool && type.base != .bool {
                self.error(.expressionType, "\(role) must be a bool, but '\(Self.excerpt(source.text))' is \(type)", source.position(atOffset: 0))
                return nil
            }
            return compiled
        } catch {
            let code: DiagnosticCode = error.message.hasPrefix("undefined context variable") ? .undefinedVariable : .expressionType
            self.error(code, "in \(role) '\(Self.excerpt(source.text))': \(error.message)", source.position(atOffset: error.offset))
            return nil
        }
    }

    /// An expression as quoted in a message: a long one is cut, the position says where.
    static func excerpt(_ text: String) -> String {
        text.count > 80 ? text.prefix(77) + "..." : text
    }
}
