// Phase 4: effect bodies compiled, checked against the inputs that can run them.
extension CompilationPass {
    /// For each effect, the argument types of the inputs that can run it (`nil` in the set: an
    /// input without argument, or the machine's start). An effect that reads `arg` needs one type.
    func effectArgumentTypes(initial: Int) -> [Set<ValueType?>] {
        // Gathered as a bit per type (the last bit for no argument): a large machine's transitions
        // run effects hundreds of thousands of times, and a set would hash each time.
        let noArgument: UInt8 = 1 << ValueType.allCases.count
        func bit(_ type: ValueType?) -> UInt8 {
            type.map { 1 << ValueType.allCases.firstIndex(of: $0)! } ?? noArgument
        }
        let inputBits = argumentTypes.map(bit)
        var runners = [UInt8](repeating: 0, count: effectNames.count)
        func add(_ effects: [Int], _ bits: UInt8) {
            for id in effects { runners[id] |= bits }
        }
        // Through buffers, in one loop: a nested function per transition cost some 270
        // instructions in a large machine, most of them reference counting of the arrays read.
        let isChart = isChart
        runners.withUnsafeMutableBufferPointer { runners in
            definition.transitions.withUnsafeBufferPointer { transitions in
                references.withUnsafeBufferPointer { references in
                    entryEffects.withUnsafeBufferPointer { entryEffects in
                        exitEffects.withUnsafeBufferPointer { exitEffects in
                            for index in references.indices {
                                let bits: UInt8
                                if transitions[index].isEventless {
                                    bits = noArgument
                                } else if let input = references[index].input {
                                    bits = inputBits[input]
                                } else {
                                    bits = references[index].inputs.reduce(0) { $0 | inputBits[$1] }
                                }
                                guard bits != 0 else { continue }
                                for id in references[index].effects { runners[id] |= bits }
                                // In a statechart any transition may exit or enter a state (and eventless
                                // ones, done events and the start take no argument): see below.
                                guard !isChart, let target = references[index].target, target >= 0 else { continue }
                                for id in entryEffects[target] { runners[id] |= bits }
                                for source in references[index].sources {
                                    for id in exitEffects[source] { runners[id] |= bits }
                                }
                            }
                        }
                    }
                }
            }
        }
        if isChart {
            for state in states.indices {
                add(entryEffects[state], noArgument)
                add(exitEffects[state], noArgument)
                add(defaultEffects[state], noArgument)
            }
        } else if initial >= 0 {
            add(entryEffects[initial], noArgument)
        }
        let types: [ValueType?] = ValueType.allCases + [nil]
        return runners.map { bits in Set(types.filter { bits & bit($0) != 0 }) }
    }

    mutating func compileEffects(
        argumentScopes: [Set<ValueType?>], transitions: [CompiledTransition], argumentIsRead: inout [Bool]
    ) -> [CompiledEffect] {
        var bodies = [CompiledEffect](repeating: .hook, count: effectNames.count)
        var compiledOnce = [Bool](repeating: false, count: effectNames.count)
        for effect in definition.effects {
            guard let id = effectIDs[effect.name.name], !compiledOnce[id] else { continue }
            compiledOnce[id] = true
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
            scope.inputNameSlot = inputNameSlot
            scope.stateNames = stateNamesForTests
            scope.dataFields = dataFields
            var texts: [String] = []
            let steps = compileSteps(effect.steps, of: effect.name.name, in: scope, texts: &texts)
            if effect.expressions.contains(where: { readsArgument($0.text) }) {
                for t in transitions where t.input >= 0 && effectsRun(by: t).contains(id) { argumentIsRead[t.input] = true }
            }
            bodies[id] = CompiledEffect(steps: steps, expressionTexts: texts)
        }
        return bodies
    }

    // MARK: - Steps

    /// Compiles `steps` of effect `effect`, appending each expression's text to `texts` (a
    /// step's site is its index there); a step with an error is left out (the error reported).
    private mutating func compileSteps(
        _ steps: [EffectDefinition.Step], of effect: String, in scope: ExpressionScope, texts: inout [String]
    ) -> [CompiledEffect.Step] {
        var compiled: [CompiledEffect.Step] = []
        for step in steps {
            switch step {
            case .assign(let assignment):
                guard let variable = variables[assignment.variable.name] else {
                    let problemsBefore = diagnostics.count
                    error(
                        .undefinedVariable,
                        "effect '\(effect)' sets undefined context variable '\(assignment.variable.name)'"
                            + Suggestion.didYouMean(assignment.variable.name, in: variables.keys),
                        assignment.variable.position)
                    if case .invalid(let message)? = deferredFailure(since: problemsBefore) {
                        compiled.append(.fail(message: message, site: texts.count))
                        texts.append(assignment.expression.text)
                    }
                    continue
                }
                if let value = compileExpression(
                    assignment.expression, in: scope, expected: variable.type, role: "the value of '\(assignment.variable.name)'")
                {
                    compiled.append(.assign(slot: variable.slot, value: value, site: texts.count))
                    texts.append(assignment.expression.text)
                }
            case .send(let send):
                if let target = send.target {
                    let problemsBefore = diagnostics.count
                    error(
                        .unsupported,
                        "effect '\(effect)' sends '\(send.input.name)' to target '\(target)': a machine sends only to itself (no target)",
                        send.input.position)
                    if case .invalid(let message)? = deferredFailure(since: problemsBefore) {
                        compiled.append(.fail(message: message, site: texts.count))
                        texts.append(send.input.name)
                    }
                    continue
                }
                if let send = compileSend(send, of: effect, in: scope, texts: &texts) { compiled.append(.send(send)) }
            case .log(let log):
                var value: CompiledExpression?
                if let expression = log.expression {
                    let problemsBefore = diagnostics.count
                    guard let checked = compileTypedExpression(expression, in: scope, role: "the value logged")?.0 ?? deferredFailure(since: problemsBefore)
                    else { continue }
                    value = checked
                }
                compiled.append(.log(label: log.label, value: value, site: log.expression == nil ? -1 : texts.count))
                if let expression = log.expression { texts.append(expression.text) }
            case .conditional(let conditional):
                var branches: [CompiledEffect.Branch] = []
                for branch in conditional.branches {
                    let condition = compileExpression(branch.condition, in: scope, expected: .bool, role: "the condition of 'if'")
                    let site = texts.count
                    texts.append(branch.condition.text)
                    let body = compileSteps(branch.steps, of: effect, in: scope, texts: &texts)
                    if let condition { branches.append(.init(condition: condition, site: site, steps: body)) }
                }
                let otherwise = compileSteps(conditional.otherwise, of: effect, in: scope, texts: &texts)
                compiled.append(.conditional(branches: branches, otherwise: otherwise))
            case .forEach(let loop):
                if let step = compileLoop(loop, of: effect, in: scope, texts: &texts) { compiled.append(step) }
            case .cancel(let name):
                // An unknown id was reported by declareTimerIDs.
                if let timer = timerIDs[name.name] { compiled.append(.cancel(timer: timer)) }
            case .cancelEvaluated(let id):
                if let value = compileExpression(id, in: scope, expected: .string, role: "the id cancelled") {
                    compiled.append(.cancelEvaluated(value: value, site: texts.count, timers: timerIDs))
                    texts.append(id.text)
                }
            }
        }
        return compiled
    }

    private mutating func compileSend(
        _ send: EffectDefinition.Send, of effect: String, in scope: ExpressionScope, texts: inout [String]
    ) -> CompiledEffect.Send? {
        guard let input = input(send.input, role: "effect '\(effect)' sends; it") else { return nil }
        let isExternal = send.queue == .external
        let delay = send.delay?.milliseconds ?? -1
        let timer = send.id.flatMap { timerIDs[$0.name] } ?? -1
        var delayExpression: (value: CompiledExpression, site: Int)?
        if let source = send.delayExpression {
            if send.delay != nil {
                error(.invalidValue, "a send has a 'delay' or a 'delay_expr', not both", source.position)
                return nil
            }
            guard let (value, type) = compileTypedExpression(source, in: scope, role: "the delay of '\(inputNames[input])'") else { return nil }
            guard type.base == .int || type.base == .string else {
                error(
                    .expressionType, "a delay is an int of milliseconds or a duration string, but '\(Self.excerpt(source.text))' is \(type)",
                    source.position(atOffset: 0))
                return nil
            }
            delayExpression = (value, texts.count)
            texts.append(source.text)
        }
        if !send.data.isEmpty {
            if let type = argumentTypes[input] {
                error(
                    .argumentType, "input '\(inputNames[input])' takes a \(type) argument, sent with 'arg', not 'data'",
                    send.data[0].name.position)
                return nil
            }
            if let argument = send.argument {
                error(.invalidValue, "a send has an 'arg' or 'data', not both", argument.position)
                return nil
            }
            guard let data = compileData(send.data, sentTo: input, in: scope) else { return nil }
            texts.append(send.data.map { "\($0.name.name): \($0.expression.text)" }.joined(separator: ", "))
            return .init(
                input: input, argument: data, isExternal: isExternal, site: texts.count - 1, delay: delay, timer: timer,
                delayExpression: delayExpression)
        }
        switch (argumentTypes[input], send.argument) {
        case (nil, nil):
            texts.append(inputNames[input])
            return .init(
                input: input, argument: nil, isExternal: isExternal, site: texts.count - 1, delay: delay, timer: timer,
                delayExpression: delayExpression)
        case (let type?, let argument?):
            guard let compiled = compileExpression(
                argument, in: scope, expected: ExpressionType(type), role: "the argument sent to '\(inputNames[input])'")
            else { return nil }
            texts.append(argument.text)
            return .init(
                input: input, argument: compiled, isExternal: isExternal, site: texts.count - 1, delay: delay, timer: timer,
                delayExpression: delayExpression)
        case (let type?, nil):
            error(
                .argumentType, "input '\(inputNames[input])' takes a \(type) argument; send it with { input: \(inputNames[input]), arg: ... }",
                send.input.position)
        case (nil, let argument?):
            error(.argumentType, "input '\(inputNames[input])' takes no argument, but one is sent", argument.position)
        }
        return nil
    }

    /// A send's `data`: each field once, its value of the one type the machine's sends give
    /// that field (an int where a double is given is made a double).
    private mutating func compileData(
        _ data: [EffectDefinition.Send.DataField], sentTo input: Int, in scope: ExpressionScope
    ) -> CompiledExpression? {
        var names: [String] = []
        var values: [CompiledExpression] = []
        var failed = false
        for field in data {
            if names.contains(field.name.name) {
                error(.invalidValue, "the data sent to '\(inputNames[input])' has the field '\(field.name.name)' twice", field.name.position)
                failed = true
                continue
            }
            names.append(field.name.name)
            let role = "the field '\(field.name.name)' of the data sent to '\(inputNames[input])'"
            guard let type = dataFields[field.name.name] else {
                // Its expression did not check: say why.
                if let (_, type) = compileTypedExpression(field.expression, in: scope, role: role) {
                    error(
                        .expressionType, "a field of an input's data is an int, double, bool or string, but '\(Self.excerpt(field.expression.text))' is \(type)",
                        field.expression.position(atOffset: 0))
                }
                failed = true
                continue
            }
            guard let value = compileExpression(field.expression, in: scope, expected: ExpressionType(type), role: role) else {
                failed = true
                continue
            }
            values.append(value)
        }
        return failed ? nil : .record(names: names, values: values)
    }

    /// A `foreach`: its items a list, an int or a string, its item and index declared variables
    /// that can hold an item and an int.
    private mutating func compileLoop(
        _ loop: EffectDefinition.ForEach, of effect: String, in scope: ExpressionScope, texts: inout [String]
    ) -> CompiledEffect.Step? {
        let site = texts.count
        texts.append(loop.items.text)
        var itemType: ExpressionType?
        let items = compileTypedExpression(loop.items, in: scope, role: "the items of 'foreach'")
        if let type = items?.1 {
            if type.base == .int || type.base == .string {
                itemType = ExpressionType(type.base)
            } else if type.base == .list, let element = type.element {
                itemType = ExpressionType(element)
            } else {
                error(
                    .expressionType,
                    "'foreach' iterates a list (its items), an int (0 to n - 1) or a string (its characters), but '\(Self.excerpt(loop.items.text))' is \(type)",
                    loop.items.position(atOffset: 0))
            }
        }
        func slot(_ name: Named, holding type: ExpressionType?, _ role: String) -> Int? {
            guard let variable = variables[name.name] else {
                error(
                    .undefinedVariable,
                    "effect '\(effect)' loops with undefined context variable '\(name.name)' as its \(role)"
                        + Suggestion.didYouMean(name.name, in: variables.keys) + "; declare it under 'context'",
                    name.position)
                return nil
            }
            if let type, !variable.type.accepts(type) {
                error(
                    .expressionType,
                    "the \(role) of 'foreach' is \(type.base == .int ? "an" : "a") \(type), but context variable '\(name.name)' is \(variable.type)",
                    name.position)
                return nil
            }
            return variable.slot
        }
        let item = slot(loop.item, holding: itemType, "item")
        let index = loop.index.map { slot($0, holding: .int, "index") } ?? -1
        let body = compileSteps(loop.steps, of: effect, in: scope, texts: &texts)
        guard let compiledItems = items?.0, itemType != nil, let item, let index else { return nil }
        return .forEach(items: compiledItems, site: site, item: item, index: index, steps: body)
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
