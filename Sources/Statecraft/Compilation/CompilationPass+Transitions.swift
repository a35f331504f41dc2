// Phase 3: transitions compiled, with their guards type-checked.
extension CompilationPass {
    mutating func state(_ name: Named, role: String) -> Int? {
        if let id = stateIDs[name.name] { return id }
        undefinedState(name, "\(role) refers to undefined state '\(name.name)'" + Suggestion.didYouMean(name.name, in: stateIDs.keys))
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
        // Read field by field through a buffer, as ``resolveReferences()`` reads them.
        let transitions = definition.transitions
        transitions.withUnsafeBufferPointer { transitions in
            for index in transitions.indices {
                // What is undefined is reported in the order the transition names it. An eventless
                // transition has input -1; a pattern stands for the inputs it matches, in order.
                // Field by field: a copy of the whole reference would retain each of its arrays.
                var input: Int?
                var matchedInputs: [Int] = []
                if transitions[index].isEventless {
                    input = -1
                } else if references[index].isPattern {
                    matchedInputs = references[index].inputs
                    if matchedInputs.isEmpty {
                        error(
                            .undefinedInput, "input pattern '\(transitions[index].input.name)' matches no input of the machine",
                            transitions[index].input.position)
                    }
                } else {
                    input = references[index].input ?? self.input(transitions[index].input, role: "transition")
                }
                // A compactly kept source is one state or a list of states: read only when one is undefined.
                switch transitions[index].spellings == nil || references[index].hasUndefinedSource ? transitions[index].storedSource : nil {
                case .state(let name) where references[index].hasUndefinedSource:
                    _ = state(name, role: "transition")
                case .other(.states(let names)) where references[index].hasUndefinedSource:
                    for name in names where stateIDs[name.name] == nil { _ = state(name, role: "transition") }
                case .other(.anyNonFinalExcept(let names, let position)):
                    for name in names where stateIDs[name.name] == nil { _ = state(name, role: "'not'") }
                    if !references[index].hasUndefinedSource && references[index].sources.isEmpty {
                        error(
                            .invalidValue,
                            "'not' excludes every non-final state, so the transition leaves from none and can never be taken",
                            position)
                    }
                default:
                    break
                }
                let target = references[index].target ?? transitions[index].target.flatMap { state($0, role: "transition") }
                if transitions[index].refusal != nil && (transitions[index].target != nil || !transitions[index].effectList.isEmpty) {
                    error(
                        .invalidValue, "a transition that rejects its input ('reject') has no target ('to') and no effects",
                        transitions[index].position)
                }
                var moreTargets: [Int] = []
                var targetsDefined = target != nil
                for (offset, id) in references[index].moreTargets.enumerated() {
                    if let id = id ?? state(transitions[index].moreTargets[offset], role: "transition") {
                        moreTargets.append(id)
                    } else {
                        targetsDefined = false
                    }
                }
                if !isChart && !moreTargets.isEmpty, let target {
                    let names = ([target] + moreTargets).map { "'\(states[$0].name.name)'" }.joined(separator: ", ")
                    error(
                        .invalidTarget,
                        "transition's targets cannot be entered together: \(names) are states of the top level, where only one state is active at a time",
                        transitions[index].position)
                }
                guard input != nil || !matchedInputs.isEmpty else { continue }
                let guardSource = transitions[index].guardExpression
                let sources = references[index].sources
                let effects = references[index].effects
                let refusal = transitions[index].refusal
                for offset in 0..<(input == nil ? matchedInputs.count : 1) {
                    let input = input ?? matchedInputs[offset]
                    var guardExpression: CompiledExpression?
                    if let guardSource { guardExpression = compileGuard(guardSource, input: input) }
                    guard let target, targetsDefined else { continue }
                    compiled.append(
                        CompiledTransition(
                            input: input, sources: sources, target: target, guardExpression: guardExpression,
                            guardText: guardSource?.text, effects: effects, position: transitions[index].position,
                            refusal: refusal, moreTargets: moreTargets, isInternal: transitions[index].isInternal))
                }
            }
        }
        return compiled
    }

    /// The inputs an input pattern matches, in input order: `*` every input, `NAME.*` the input
    /// `NAME` and every input whose name starts with `NAME.`; empty for a name that is no pattern.
    func patternInputs(_ pattern: String) -> [Int] {
        // The internal inputs of `after` transitions are no inputs a pattern stands for.
        if pattern == "*" { return inputNames.indices.filter { !afterInputRange.contains($0) } }
        let stem = String(pattern.dropLast(2))
        let prefix = stem + "."
        return inputNames.indices.filter { !afterInputRange.contains($0) && (inputNames[$0] == stem || inputNames[$0].hasPrefix(prefix)) }
    }

    /// Compiles the guard of a transition on `input`, once per text and argument type.
    mutating func compileGuard(_ source: ExpressionSource, input: Int) -> CompiledExpression? {
        let key = GuardKey(text: source.text, argumentType: input >= 0 ? argumentTypes[input] : nil)
        if let known = compiledGuards[key] { return known }
        var scope = ExpressionScope(
            variables: variables, argumentType: key.argumentType,
            argumentUnavailable: input >= 0 ? "input '\(inputNames[input])' takes no argument" : "an eventless transition has no input")
        scope.activitySlots = activitySlots
        scope.inputNameSlot = inputNameSlot
        scope.stateNames = stateNamesForTests
        scope.dataFields = dataFields
        let compiled = compileExpression(source, in: scope, expected: .bool, role: "a guard")
        if let compiled { compiledGuards[key] = compiled }
        return compiled
    }

    /// Parses and checks one expression, reporting a problem at its exact column. Under
    /// `on_error: raise` a problem is a warning and the expression fails when it runs.
    mutating func compileExpression(
        _ source: ExpressionSource, in scope: ExpressionScope, expected: ExpressionType?, role: String
    ) -> CompiledExpression? {
        let problemsBefore = diagnostics.count
        if let compiled = checkExpression(source, in: scope, expected: expected, role: role) { return compiled }
        return deferredFailure(since: problemsBefore)
    }

    /// Under `on_error: raise`, turns the errors reported since `problemsBefore` into warnings
    /// and returns an expression that fails with the first one's message when it runs (SCXML
    /// raises `error.execution` there); `nil` otherwise.
    mutating func deferredFailure(since problemsBefore: Int) -> CompiledExpression? {
        guard definition.onError == .raise, diagnostics.count > problemsBefore else { return nil }
        let message = diagnostics[problemsBefore].message
        for index in problemsBefore..<diagnostics.count {
            diagnostics[index].severity = .warning
            diagnostics[index].message += "; it raises \(Self.errorExecutionInput) when it runs (on_error: raise)"
        }
        return .invalid(message)
    }

    private mutating func checkExpression(
        _ source: ExpressionSource, in scope: ExpressionScope, expected: ExpressionType?, role: String
    ) -> CompiledExpression? {
        if let expected, expected != .bool {
            guard let parsed = parseExpression(source, role: role) else { return nil }
            do {
                return try ExpressionChecker.check(parsed, in: scope, storedAs: expected)
            } catch {
                if let checked = nullChecked(parsed, in: scope, storedAs: expected) {
                    diagnostics.append(.warning(
                        .expressionType,
                        "in \(role) '\(Self.excerpt(source.text))': \(error.message); it raises \(Self.errorExecutionInput) when it runs if the value is null (on_error: raise)",
                        at: source.position(atOffset: error.offset)))
                    return checked
                }
                reportCheckError(error, source, role: role)
                return nil
            }
        }
        guard let (compiled, type) = compileTypedExpression(source, in: scope, role: role) else { return nil }
        if expected == .bool && type.base != .bool {
            self.error(.expressionType, "\(role) must be a bool, but '\(Self.excerpt(source.text))' is \(type)", source.position(atOffset: 0))
            return nil
        }
        return compiled
    }

    /// Under `on_error: raise`, an expression whose value may be null stored where null is not
    /// allowed: checked when it runs instead, as SCXML checks a document's values (`nil` when
    /// its type does not fit even when not null, or the machine rejects).
    private func nullChecked(_ parsed: Expression, in scope: ExpressionScope, storedAs expected: ExpressionType) -> CompiledExpression? {
        guard definition.onError == .raise, !expected.isNullable, let (compiled, type) = try? ExpressionChecker.check(parsed, in: scope),
            type.isNullable, type.base != .null, expected.accepts(ExpressionType(type.base, element: type.element))
        else { return nil }
        return .nonNull(expected.base == .double && type.base == .int ? .toDouble(compiled) : compiled)
    }

    /// Compiles an expression of any type; the compiled form and its type.
    mutating func compileTypedExpression(
        _ source: ExpressionSource, in scope: ExpressionScope, role: String
    ) -> (CompiledExpression, ExpressionType)? {
        guard let parsed = parseExpression(source, role: role) else { return nil }
        do {
            return try ExpressionChecker.check(parsed, in: scope)
        } catch {
            reportCheckError(error, source, role: role)
            return nil
        }
    }

    private mutating func parseExpression(_ source: ExpressionSource, role: String) -> Expression? {
        do {
            return try ExpressionParser.parse(source.text)
        } catch {
            self.error(.expressionSyntax, "in \(role) '\(Self.excerpt(source.text))': \(error.message)", source.position(atOffset: error.offset))
            return nil
        }
    }

    private mutating func reportCheckError(_ error: ExpressionTypeError, _ source: ExpressionSource, role: String) {
        let code: DiagnosticCode = error.message.hasPrefix("undefined context variable") ? .undefinedVariable : .expressionType
        self.error(code, "in \(role) '\(Self.excerpt(source.text))': \(error.message)", source.position(atOffset: error.offset))
    }

    /// An expression as quoted in a message: a long one is cut, the position says where.
    static func excerpt(_ text: String) -> String {
        text.count > 80 ? text.prefix(77) + "..." : text
    }
}
