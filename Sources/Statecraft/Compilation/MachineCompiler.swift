/// Checks a ``MachineDefinition`` (names, references, types) and compiles it.
///
/// Every problem is reported, not just the first: the result carries all diagnostics, and a
/// machine only when there is no error.
public enum MachineCompiler {
    public struct Output: Sendable {
        public var machine: CompiledMachine?
        public var diagnostics: [Diagnostic]
    }

    /// The most cells the dispatch table may have (states x inputs), and the most (transition,
    /// source state) pairs: the compiled machine's memory grows with them, and a small file
    /// can declare 60,000 states and 60,000 inputs.
    public static let defaultMaximumTableCells = 1 << 24

    public static func compile(_ definition: MachineDefinition, maximumTableCells: Int = defaultMaximumTableCells) -> Output {
        var pass = CompilationPass(definition, maximumTableCells: maximumTableCells)
        let machine = pass.run()
        let diagnostics = pass.diagnostics.sorted { $0.position < $1.position }
        return Output(machine: diagnostics.hasErrors ? nil : machine, diagnostics: diagnostics)
    }
}

private struct CompilationPass {
    let definition: MachineDefinition
    var diagnostics: [Diagnostic] = []

    var stateIDs: [String: Int] = [:]
    var inputIDs: [String: Int] = [:]
    var inputNames: [String] = []
    var argumentTypes: [ValueType?] = []
    var effectIDs: [String: Int] = [:]
    var effectNames: [String] = []
    var variables: [String: (slot: Int, type: ExpressionType)] = [:]
    /// Per state, the ids of its entry and of its exit effects.
    var entryEffects: [[Int]] = []
    var exitEffects: [[Int]] = []
    /// Per transition, its names as ids; emptied once the transitions are compiled.
    var references: [TransitionReferences] = []
    /// Guards compiled without error, by text and argument type: a guard written on many
    /// transitions is parsed and checked once.
    var compiledGuards: [GuardKey: CompiledExpression] = [:]
    /// Whether each expression text reads `arg`, as found so far.
    var readsArgumentByText: [String: Bool] = [:]

    let maximumTableCells: Int

    /// A transition's names resolved to ids.
    struct TransitionReferences {
        /// The input, or `nil` when it is undefined.
        var input: Int?
        /// The source states, each once, in order (every non-final state for `*`); undefined ones left out.
        var sources: [Int]
        /// Whether a listed source state is undefined.
        var hasUndefinedSource: Bool
        /// The target state, -1 when there is none, `nil` when it is undefined.
        var target: Int?
        var effects: [Int]
    }

    struct GuardKey: Hashable {
        var text: String
        var argumentType: ValueType?
    }

    init(_ definition: MachineDefinition, maximumTableCells: Int) {
        self.definition = definition
        self.maximumTableCells = maximumTableCells
    }

    mutating func error(_ code: DiagnosticCode, _ message: String, _ position: SourcePosition) {
        diagnostics.append(.error(code, message, at: position))
    }

    mutating func run() -> CompiledMachine? {
        declareStates()
        declareInputs()
        declareEffects()
        resolveReferences()
        let initial = resolveInitial()
        let argumentScopes = effectArgumentTypes(initial: initial)
        declareVariables(argumentScopes: argumentScopes)
        let transitions = compileTransitions()
        // Compiled transitions share their arrays; the rest is not needed again, and the
        // dispatch table is built next, when memory peaks.
        references = []
        guard tableFits(transitions) else { return nil }
        var argumentIsRead = [Bool](repeating: false, count: inputNames.count)
        // By index: iterating would copy each transition, retaining all its parts.
        for index in transitions.indices where transitions[index].guardText.map({ readsArgument($0) }) ?? false {
            argumentIsRead[transitions[index].input] = true
        }
        let effects = compileEffects(argumentScopes: argumentScopes, transitions: transitions, argumentIsRead: &argumentIsRead)
        let states = definition.states
        return CompiledMachine(
            name: definition.name, description: definition.description, stateNames: states.map(\.name.name),
            inputNames: inputNames, effectNames: effectNames,
            variableNames: definition.context.map(\.name.name), initialState: max(initial, 0),
            initialContext: definition.context.map(\.initialValue), onUnhandled: definition.onUnhandled,
            argumentTypes: argumentTypes, argumentIsRead: argumentIsRead, isFinal: states.map(\.isFinal),
            entryEffects: entryEffects, exitEffects: exitEffects,
            transitions: transitions, effects: effects,
            variableTypes: definition.context.map { variables[$0.name.name]?.type ?? ExpressionType($0.initialValue.type) })
    }

    private mutating func readsArgument(_ text: String) -> Bool {
        if let known = readsArgumentByText[text] { return known }
        let reads = (try? ExpressionParser.parse(text))?.readsArgument ?? false
        readsArgumentByText[text] = reads
        return reads
    }

    // MARK: Declarations

    mutating func declareStates() {
        if definition.states.isEmpty {
            error(.missingKey, "a machine needs at least one state", definition.initial.position)
        }
        stateIDs.reserveCapacity(definition.states.count)
        for (index, state) in definition.states.enumerated() {
            if let problem = NameRules.problem(withName: state.name.name) {
                error(.invalidName, problem, state.name.position)
            }
            if let first = stateIDs[state.name.name] {
                error(
                    .duplicateState, "state '\(state.name.name)' is declared twice (first at line \(definition.states[first].name.position.line))",
                    state.name.position)
            } else {
                stateIDs[state.name.name] = index
            }
        }
    }

    mutating func declareInputs() {
        if let declared = definition.inputs {
            for input in declared {
                if let problem = NameRules.problem(withName: input.name.name) {
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
            }
        } else {
            for transition in definition.transitions where inputIDs[transition.input.name] == nil {
                if let problem = NameRules.problem(withName: transition.input.name) {
                    error(.invalidName, problem, transition.input.position)
                }
                inputIDs[transition.input.name] = inputNames.count
                inputNames.append(transition.input.name)
                argumentTypes.append(nil)
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
        for index in definition.states.indices {
            for name in definition.states[index].exit { mention(name) }
            for name in definition.states[index].entry { mention(name) }
        }
        for index in definition.transitions.indices {
            for name in definition.transitions[index].effects { mention(name) }
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

    /// Resolves each state's effects and each transition's names to ids, reporting nothing:
    /// ``compileTransitions()`` reports what is undefined, in the order the transitions name it.
    mutating func resolveReferences() {
        entryEffects = definition.states.map { $0.entry.compactMap { effectIDs[$0.name] } }
        exitEffects = definition.states.map { $0.exit.compactMap { effectIDs[$0.name] } }
        let nonFinal = definition.states.indices.filter { !definition.states[$0].isFinal }
        var stateResolver = NameResolver(definition.states.map(\.name.name))
        var inputResolver = NameResolver(inputNames)
        var effectResolver = NameResolver(effectNames)
        let transitions = definition.transitions
        references.reserveCapacity(transitions.count)
        for index in transitions.indices {
            var sources: [Int] = []
            var hasUndefinedSource = false
            switch transitions[index].source {
            case .states(let names) where names.count == 1:
                // One source (most transitions): an array of one, without growing one.
                if let id = stateResolver.id(of: names[0]) { sources = [id] } else { hasUndefinedSource = true }
            case .states(let names):
                sources.reserveCapacity(names.count)
                for name in names {
                    if let id = stateResolver.id(of: name) {
                        if !sources.contains(id) { sources.append(id) }
                    } else {
                        hasUndefinedSource = true
                    }
                }
            case .anyNonFinal:
                sources = nonFinal
            }
            let target: Int? = if let name = transitions[index].target { stateResolver.id(of: name) } else { -1 }
            let effects = transitions[index].effects
            references.append(
                TransitionReferences(
                    input: inputResolver.id(of: transitions[index].input), sources: sources, hasUndefinedSource: hasUndefinedSource,
                    target: target, effects: effects.isEmpty ? [] : effects.compactMap { effectResolver.id(of: $0) }))
        }
    }

    /// Variable types come from initial values; one that starts as `null` takes the one type
    /// that assignments to it give it (docs/machine-files.md).
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
            variables[variable.name.name] = (slot, ExpressionType(variable.initialValue.type))
            if variable.initialValue == .null { unresolved.insert(variable.name.name) }
        }
        // Infer null-started variables from what is assigned to them, until nothing changes.
        var changed = true
        while changed && !unresolved.isEmpty {
            changed = false
            for effect in definition.effects {
                let scope = ExpressionScope(
                    variables: variables, argumentType: effectIDs[effect.name.name].flatMap { Self.singleType(argumentScopes[$0]) },
                    argumentUnavailable: "")
                for assignment in effect.assignments where unresolved.contains(assignment.variable.name) {
                    guard let parsed = try? ExpressionParser.parse(assignment.expression.text),
                        let type = try? ExpressionChecker.check(parsed, in: scope).1, type.base != .null,
                        let variable = variables[assignment.variable.name]
                    else { continue }
                    variables[assignment.variable.name] = (variable.slot, ExpressionType(type.base, nullable: true))
                    unresolved.remove(assignment.variable.name)
                    changed = true
                }
            }
        }
    }

    /// The one argument type in `runners`, when every runner has that type.
    static func singleType(_ runners: Set<ValueType?>) -> ValueType? {
        runners.count == 1 ? runners.first! : nil
    }

    mutating func resolveInitial() -> Int {
        let initial = definition.initial
        guard let id = stateIDs[initial.name] else {
            if !definition.states.isEmpty {
                error(
                    .undefinedState,
                    "initial state '\(initial.name)' is not a declared state" + Suggestion.didYouMean(initial.name, in: stateIDs.keys),
                    initial.position)
            }
            return -1
        }
        if definition.states[id].isFinal {
            error(.invalidInitial, "initial state '\(initial.name)' is final, so the machine could accept no input", initial.position)
        }
        return id
    }

    /// Refuses a machine whose dispatch table would be too large to build.
    mutating func tableFits(_ transitions: [CompiledTransition]) -> Bool {
        let (cells, overflow) = definition.states.count.multipliedReportingOverflow(by: inputNames.count)
        let pairs = transitions.indices.reduce(0) { $0 + transitions[$1].sources.count }
        let position = definition.states.first?.name.position ?? definition.initial.position
        if overflow || cells > maximumTableCells {
            error(
                .limitExceeded,
                "\(definition.states.count) states and \(inputNames.count) inputs make a dispatch table of "
                    + "\(overflow ? "too many" : String(cells)) cells, over the limit of \(maximumTableCells) (raise it with --max-table-cells)",
                position)
            return false
        }
        if pairs > maximumTableCells {
            error(
                .limitExceeded,
                "the transitions leave from \(pairs) (transition, state) pairs in all ('*' counts every non-final state), "
                    + "over the limit of \(maximumTableCells) (raise it with --max-table-cells)",
                position)
            return false
        }
        return true
    }

    // MARK: Transitions

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
            if references.hasUndefinedSource, case .states(let names) = transitions[index].source {
                for name in names where stateIDs[name.name] == nil { _ = state(name, role: "transition") }
            }
            let target = references.target ?? transitions[index].target.flatMap { state($0, role: "transition") }
            let guardSource = transitions[index].guardExpression
            var guardExpression: CompiledExpression?
            if let guardSource, let input {
                guardExpression = compileGuard(guardSource, input: input)
            }
            guard let input, let target else { continue }
            compiled.append(
                CompiledTransition(
                    input: input, sources: references.sources, target: target, guardExpression: guardExpression,
                    guardText: guardSource?.text, effects: references.effects, position: transitions[index].position))
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

    // MARK: Effects

    /// For each effect, the argument types of the inputs that can run it (`nil` in the set: an
    /// input without argument, or the machine's start). An effect that reads `arg` needs one type.
    func effectArgumentTypes(initial: Int) -> [Set<ValueType?>] {
        var runners = [Set<ValueType?>](repeating: [], count: effectNames.count)
        func add(_ effects: [Int], _ argumentType: ValueType?) {
            for id in effects { runners[id].insert(argumentType) }
        }
        for index in references.indices {
            guard let input = references[index].input else { continue }
            let argumentType = argumentTypes[input]
            add(references[index].effects, argumentType)
            guard let target = references[index].target, target >= 0 else { continue }
            add(entryEffects[target], argumentType)
            for source in references[index].sources { add(exitEffects[source], argumentType) }
        }
        if initial >= 0 { add(entryEffects[initial], nil) }
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
            let scope = ExpressionScope(variables: variables, argumentType: argumentType, argumentUnavailable: unavailable)
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
                for t in transitions where effectsRun(by: t).contains(id) { argumentIsRead[t.input] = true }
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
