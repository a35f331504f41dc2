// Phase 2: names resolved to ids, the initial state, variables typed, the table bounded.
extension CompilationPass {
    /// Resolves each state's effects and each transition's names to ids, reporting nothing:
    /// ``compileTransitions()`` reports what is undefined, in the order the transitions name it.
    mutating func resolveReferences() {
        // By index, field by field: mapping over the states would copy each whole declaration.
        // Most states run no entry, exit or default effects: those share the empty list.
        func ids(_ names: [Named]) -> [Int] { names.isEmpty ? [] : names.compactMap { effectIDs[$0.name] } }
        entryEffects = states.indices.map { ids(states[$0].entry) }
        exitEffects = states.indices.map { ids(states[$0].exit) }
        defaultEffects = states.indices.map { ids(states[$0].defaultEffects) }
        // `*`: every non-final state at the top level (in a flat machine, every non-final state).
        let nonFinal = states.indices.filter { !states[$0].isFinal && parents[$0] < 0 && states[$0].history == nil }
        var stateResolver = NameResolver(states.map(\.name.name))
        var inputResolver = NameResolver(inputNames)
        var effectResolver = NameResolver(effectNames)
        // Equal source and effect lists share one array: most transitions leave from one state
        // and run one effect or none, so a large machine would otherwise allocate two per row.
        var sourceLists = SharedIDLists(idCount: states.count)
        var effectLists = SharedIDLists(idCount: effectNames.count)
        references.reserveCapacity(definition.transitions.count)
        // Read field by field through a buffer: copying a whole transition (as reading an
        // array's element, or calling one of its computed properties, does) retains and
        // releases each of its strings and arrays.
        let transitions = definition.transitions
        transitions.withUnsafeBufferPointer { transitions in
            // The table of a decoder's compactly kept names (one per file), fetched once: each
            // transition's is compared with it, not retained.
            let spellings = transitions.firstIndex { $0.spellings != nil }.flatMap { transitions[$0].spellings }
            for index in transitions.indices {
                let isCompact = spellings != nil && transitions[index].spellings === spellings
                var sources: [Int] = []
                var hasUndefinedSource = false
                let target: Int?
                var effects: [Int] = []
                let moreTargets = transitions[index].moreTargets.isEmpty ? [] : transitions[index].moreTargets.map { stateResolver.id(of: $0) }
                // A decoder's compactly kept names: resolved by spelling, without making them.
                if isCompact, let spellings {
                    let firstSource = stateResolver.id(ofSpelling: transitions[index].compactSource.spelling, in: spellings)
                    if transitions[index].moreSourceCount == 0 {
                        if let firstSource { sources = sourceLists.list(of: firstSource) } else { hasUndefinedSource = true }
                    } else {
                        // Several: each state once, in order, as for the names of a box.
                        if let firstSource { sources.append(firstSource) } else { hasUndefinedSource = true }
                        for name in transitions[index].moreCompactSources {
                            if let id = stateResolver.id(ofSpelling: name.spelling, in: spellings) {
                                if !sources.contains(id) { sources.append(id) }
                            } else {
                                hasUndefinedSource = true
                            }
                        }
                        sources = sourceLists.list(sources)
                    }
                    let targetSpelling = transitions[index].compactTarget.spelling
                    target = targetSpelling < 0 ? -1 : stateResolver.id(ofSpelling: targetSpelling, in: spellings)
                    let effectSpelling = transitions[index].compactEffect.spelling
                    if transitions[index].moreEffectCount == 0 {
                        if effectSpelling >= 0, let id = effectResolver.id(ofSpelling: effectSpelling, in: spellings) { effects = effectLists.list(of: id) }
                    } else {
                        // Undefined effects are left out, as for the names of a box (the declarations report them).
                        if let id = effectResolver.id(ofSpelling: effectSpelling, in: spellings) { effects.append(id) }
                        for name in transitions[index].moreCompactEffects {
                            if let id = effectResolver.id(ofSpelling: name.spelling, in: spellings) { effects.append(id) }
                        }
                        effects = effectLists.list(effects)
                    }
                } else {
                    switch transitions[index].storedSource {
                    case .state(let name):
                        if let id = stateResolver.id(of: name) { sources = sourceLists.list(of: id) } else { hasUndefinedSource = true }
                    case .other(.states(let names)):
                        sources.reserveCapacity(names.count)
                        for name in names {
                            if let id = stateResolver.id(of: name) {
                                if !sources.contains(id) { sources.append(id) }
                            } else {
                                hasUndefinedSource = true
                            }
                        }
                        sources = sourceLists.list(sources)
                    case .other(.anyNonFinal):
                        sources = nonFinal
                    case .other(.anyNonFinalExcept(let names, _)):
                        var excluded = [Bool](repeating: false, count: definition.states.count)
                        for name in names {
                            if let id = stateResolver.id(of: name) { excluded[id] = true } else { hasUndefinedSource = true }
                        }
                        sources = nonFinal.filter { !excluded[$0] }
                    }
                    target = if let name = transitions[index].target { stateResolver.id(of: name) } else { -1 }
                    switch transitions[index].effectList {
                    case .one(let name): effects = effectResolver.id(of: name).map { effectLists.list(of: $0) } ?? []
                    case .many(let names) where names.isEmpty: break
                    case .many(let names): effects = effectLists.list(names.compactMap { effectResolver.id(of: $0) })
                    }
                }
                let isEventless = transitions[index].isEventless
                let inputName = isCompact ? spellings!.strings[Int(transitions[index].compactInput.spelling)] : transitions[index].input.name
                let isPattern = TransitionDefinition.isPattern(inputName, isEventless: isEventless, hasDelay: transitions[index].after != nil)
                let input: Int? =
                    if !afterInputs.isEmpty, let after = afterInputs[index] {
                        after
                    } else if isEventless || isPattern {
                        nil
                    } else if isCompact, let spellings {
                        inputResolver.id(ofSpelling: transitions[index].compactInput.spelling, in: spellings)
                    } else {
                        inputResolver.id(of: transitions[index].input)
                    }
                references.append(
                    TransitionReferences(
                        input: input, sources: sources, hasUndefinedSource: hasUndefinedSource,
                        target: target, moreTargets: moreTargets, effects: effects, isPattern: isPattern,
                        inputs: isPattern ? patternInputs(inputName) : []))
            }
        }
    }

    /// Variable types come from initial values; one that starts as `null` takes the one type
    /// that assignments to it (or a `foreach` that loops with it) give it, and one that starts
    /// as the empty list the list type assigned to it (docs/machine-files.md). The fields that
    /// sends give inputs' data are typed on the way, as their expressions may read such variables.
    mutating func declareVariables(argumentScopes: [Set<ValueType?>]) {
        var unresolved: Set<String> = []
        for (slot, variable) in definition.context.enumerated() {
            if let problem = NameRules.problem(withVariableName: variable.name.name) {
                error(.invalidName, problem, variable.name.position)
            }
            if variables[variable.name.name] != nil {
                error(.duplicateVariable, "context variable '\(variable.name.name)' is declared twice", variable.name.position)
                continue
            }
            let type = ExpressionType(of: variable.initialValue)
            variables[variable.name.name] = (slot, type)
            if type.base == .null || type.element == .null { unresolved.insert(variable.name.name) }
        }
        let sendsData = definition.effects.contains { $0.allSends.contains { !$0.data.isEmpty } }
        guard !unresolved.isEmpty || sendsData else { return }
        /// Gives an unresolved variable `type`; whether it did.
        func resolve(_ name: String, as type: ExpressionType) -> Bool {
            guard unresolved.contains(name), let variable = variables[name], type.base != .null else { return false }
            if variable.type.base == .list {
                guard type.base == .list, type.element != .null else { return false }
                variables[name] = (variable.slot, ExpressionType(.list, nullable: variable.type.isNullable, element: type.element))
            } else {
                variables[name] = (variable.slot, ExpressionType(type.base, nullable: true, element: type.element))
            }
            unresolved.remove(name)
            return true
        }
        // Until nothing changes.
        var changed = true
        while changed {
            changed = false
            for effect in definition.effects {
                var scope = ExpressionScope(
                    variables: variables, argumentType: effectIDs[effect.name.name].flatMap { Self.singleType(argumentScopes[$0]) },
                    argumentUnavailable: "")
                scope.activitySlots = activitySlots
                scope.inputNameSlot = inputNameSlot
                scope.dataFields = dataFields
                func type(of source: ExpressionSource) -> ExpressionType? {
                    guard let parsed = try? ExpressionParser.parse(source.text) else { return nil }
                    return try? ExpressionChecker.check(parsed, in: scope).1
                }
                for assignment in effect.allAssignments where unresolved.contains(assignment.variable.name) {
                    if let type = type(of: assignment.expression), resolve(assignment.variable.name, as: type) { changed = true }
                }
                for loop in effect.allLoops where unresolved.contains(loop.item.name) || unresolved.contains(loop.index?.name ?? "") {
                    if let index = loop.index, resolve(index.name, as: .int) { changed = true }
                    guard let items = type(of: loop.items) else { continue }
                    let item: ValueType? = items.base == .list ? items.element : items.base == .int || items.base == .string ? items.base : nil
                    if let item, resolve(loop.item.name, as: ExpressionType(item)) { changed = true }
                }
                for send in effect.allSends {
                    for field in send.data where dataFields[field.name.name] == nil {
                        if let type = type(of: field.expression), Self.dataFieldTypes.contains(type.base) {
                            dataFields[field.name.name] = type.base
                            changed = true
                        }
                    }
                }
            }
        }
    }

    /// The types a field of an input's data may have.
    static let dataFieldTypes: [ValueType] = [.int, .double, .bool, .string]

    /// The one argument type in `runners`, when every runner has that type.
    static func singleType(_ runners: Set<ValueType?>) -> ValueType? {
        runners.count == 1 ? runners.first! : nil
    }

    mutating func resolveInitial() -> Int {
        let initial = definition.initial
        guard let id = stateIDs[initial.name] else {
            if !states.isEmpty {
                undefinedState(initial, "initial state '\(initial.name)' is not a declared state" + Suggestion.didYouMean(initial.name, in: stateIDs.keys))
            }
            return -1
        }
        if states[id].history != nil {
            error(.invalidInitial, "initial state '\(initial.name)' is a history state; name a state", initial.position)
        }
        if states[id].isFinal {
            error(.invalidInitial, "initial state '\(initial.name)' is final, so the machine could accept no input", initial.position)
        }
        return id
    }

    /// ``MachineDefinition/otherInitialStates`` resolved, each one that is not a state (or is
    /// a history or final one) reported.
    mutating func resolveOtherInitials() -> [Int] {
        var ids: [Int] = []
        for name in definition.otherInitialStates {
            guard let id = stateIDs[name.name] else {
                undefinedState(name, "initial state '\(name.name)' is not a declared state" + Suggestion.didYouMean(name.name, in: stateIDs.keys))
                continue
            }
            if states[id].history != nil || states[id].isFinal {
                error(.invalidInitial, "initial state '\(name.name)' is a \(states[id].isFinal ? "final" : "history") state; name a state", name.position)
                continue
            }
            ids.append(id)
        }
        return ids
    }

    /// Refuses a machine whose dispatch table would be too large to build.
    mutating func tableFits(_ transitions: [CompiledTransition]) -> Bool {
        // A statechart's flat table is empty: its runner reads the state tree instead.
        let (cells, overflow) = (isChart ? 0 : states.count).multipliedReportingOverflow(by: inputNames.count)
        let pairs = transitions.indices.reduce(0) { $0 + transitions[$1].sources.count }
        let position = states.first?.name.position ?? definition.initial.position
        if overflow || cells > maximumTableCells {
            diagnostics.append(
                .limitExceeded(
                    .tableCells,
                    "\(states.count) states and \(inputNames.count) inputs make a dispatch table of "
                        + "\(overflow ? "too many" : String(cells)) cells, over the limit of \(maximumTableCells)",
                    at: position))
            return false
        }
        if pairs > maximumTableCells {
            diagnostics.append(
                .limitExceeded(
                    .tableCells,
                    "the transitions leave from \(pairs) (transition, state) pairs in all ('*' counts every non-final state), "
                        + "over the limit of \(maximumTableCells)",
                    at: position))
            return false
        }
        return true
    }
}
