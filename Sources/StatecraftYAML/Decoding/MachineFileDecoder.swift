import Statecraft

/// Decodes a machine file's YAML (format version 1, DESIGN §2) into a ``MachineDefinition``.
///
/// It checks the schema (keys, value kinds) and reports every problem it finds with its
/// position; references and types are checked afterwards by ``MachineCompiler``.
struct MachineFileDecoder {
    private(set) var diagnostics: [Diagnostic] = []

    static let topLevelKeys = ["machine", "description", "initial", "on_unhandled", "context", "inputs", "states", "effects", "transitions"]

    /// Decodes `root`; `nil` when the file is too broken to describe a machine.
    mutating func decode(_ root: YAMLNode?, defaultName: String) -> MachineDefinition? {
        guard let root else {
            error(.missingKey, "file is empty; a machine file is a mapping with 'initial', 'states' and 'transitions'", .init(line: 1, column: 1))
            return nil
        }
        guard let top = mapping(root, "a machine file") else { return nil }
        checkKeys(top, allowed: Self.topLevelKeys, in: "a machine file")

        let name = top["machine"].flatMap { string($0.value, "'machine'") } ?? defaultName
        let description = top["description"].flatMap { string($0.value, "'description'") }
        let initial = required(top, "initial").flatMap { self.name($0, "'initial'") }
        var onUnhandled = MachineDefinition.UnhandledPolicy.reject
        if let entry = top["on_unhandled"], let text = string(entry.value, "'on_unhandled'") {
            if let policy = MachineDefinition.UnhandledPolicy(rawValue: text) {
                onUnhandled = policy
            } else {
                error(.invalidValue, "'on_unhandled' is 'reject' or 'ignore', not '\(text)'", entry.value.position)
            }
        }
        let context = top["context"].map { decodeContext($0.value) } ?? []
        let inputs = top["inputs"].map { decodeInputs($0.value) }
        let states = required(top, "states").flatMap { decodeStates($0) }
        let effects = top["effects"].map { decodeEffects($0.value) } ?? []
        let transitions = required(top, "transitions").map { decodeTransitions($0) } ?? []
        // Without its initial state and states a machine's references cannot be checked: every
        // one would be reported as undefined, burying the problem that matters.
        guard let initial, let states else { return nil }
        return MachineDefinition(
            name: name, description: description, initial: initial, onUnhandled: onUnhandled,
            context: context, inputs: inputs, states: states, effects: effects, transitions: transitions)
    }

    // MARK: Sections

    private mutating func decodeContext(_ node: YAMLNode) -> [ContextVariable] {
        guard let map = optionalMapping(node, "'context'") else { return [] }
        return map.entries.compactMap { entry in
            guard case .scalar(let scalar) = entry.value else {
                error(
                    .wrongKind, "context variable '\(entry.key.value)' needs an int, double, bool, string or null initial value, not \(entry.value.kindDescription)",
                    entry.value.position)
                return nil
            }
            let value = scalar.coreSchemaValue
            if case .double(let d) = value, !d.isFinite {
                error(.invalidValue, "context variable '\(entry.key.value)' must start as a finite number", scalar.position)
            }
            return ContextVariable(Named(entry.key.value, at: entry.key.position), value)
        }
    }

    private mutating func decodeInputs(_ node: YAMLNode) -> [InputDeclaration] {
        if case .sequence(let list) = node {
            return list.items.compactMap { item in self.name(item, "an input").map { InputDeclaration($0) } }
        }
        guard let map = optionalMapping(node, "'inputs' (a list of names or a mapping name -> argument type)") else { return [] }
        return map.entries.map { entry in
            let name = Named(entry.key.value, at: entry.key.position)
            switch entry.value {
            case .scalar(let scalar) where scalar.isNull:
                return InputDeclaration(name)
            case .scalar(let scalar):
                return InputDeclaration(name, argumentType: argumentType(scalar), argumentTypePosition: scalar.position)
            case .mapping(let options):
                checkKeys(options, allowed: ["arg", "description"], in: "input '\(name.name)'")
                let type = options["arg"].flatMap { entry in entry.value.scalar.flatMap { $0.isNull ? nil : argumentType($0) } }
                if let arg = options["arg"], arg.value.scalar == nil {
                    error(.wrongKind, "'arg' of input '\(name.name)' is a type name, not \(arg.value.kindDescription)", arg.value.position)
                }
                return InputDeclaration(
                    name, argumentType: type, description: options["description"].flatMap { string($0.value, "'description'") },
                    argumentTypePosition: options["arg"]?.value.position ?? name.position)
            case .sequence:
                error(.wrongKind, "input '\(name.name)' takes an argument type or { arg: TYPE, description: TEXT }, not a list", entry.value.position)
                return InputDeclaration(name)
            }
        }
    }

    private mutating func argumentType(_ scalar: YAMLScalar) -> ValueType? {
        if let type = ValueType(rawValue: scalar.value), ValueType.argumentTypes.contains(type) { return type }
        error(
            .argumentType,
            "argument type is int, double, bool or string, not '\(scalar.value)'"
                + Suggestion.didYouMean(scalar.value, in: ValueType.argumentTypes.map(\.rawValue)),
            scalar.position)
        return nil
    }

    private mutating func decodeStates(_ node: YAMLNode) -> [StateDeclaration]? {
        if case .sequence(let list) = node {
            return list.items.compactMap { item in self.name(item, "a state").map { StateDeclaration($0) } }
        }
        guard let map = mapping(node, "'states' (a list of names or a mapping name -> options)") else { return nil }
        return map.entries.map { entry in
            let name = Named(entry.key.value, at: entry.key.position)
            guard case .mapping(let options) = entry.value else {
                if !(entry.value.scalar?.isNull ?? false) {
                    error(.wrongKind, "state '\(name.name)' takes options { entry, exit, final }, not \(entry.value.kindDescription)", entry.value.position)
                }
                return StateDeclaration(name)
            }
            checkKeys(options, allowed: ["entry", "exit", "final"], in: "state '\(name.name)'")
            var isFinal = false
            if let final = options["final"] {
                if let value = final.value.scalar?.coreSchemaValue, case .bool(let b) = value {
                    isFinal = b
                } else {
                    error(.wrongKind, "'final' is true or false", final.value.position)
                }
            }
            return StateDeclaration(
                name, entry: options["entry"].map { names($0.value, "'entry'") } ?? [],
                exit: options["exit"].map { names($0.value, "'exit'") } ?? [], isFinal: isFinal)
        }
    }

    private mutating func decodeEffects(_ node: YAMLNode) -> [EffectDefinition] {
        guard let map = optionalMapping(node, "'effects' (a mapping name -> { set, send })") else { return [] }
        return map.entries.map { entry in
            let name = Named(entry.key.value, at: entry.key.position)
            guard case .mapping(let body) = entry.value else {
                if !(entry.value.scalar?.isNull ?? false) {
                    error(.wrongKind, "effect '\(name.name)' takes { set: {...}, send: [...] }, not \(entry.value.kindDescription)", entry.value.position)
                }
                return EffectDefinition(name)
            }
            checkKeys(body, allowed: ["set", "send"], in: "effect '\(name.name)'")
            var assignments: [EffectDefinition.Assignment] = []
            if let set = body["set"], let variables = mapping(set.value, "'set' (a mapping variable -> expression)") {
                for assignment in variables.entries {
                    if let expression = expression(assignment.value, "the value of '\(assignment.key.value)'") {
                        assignments.append(.init(Named(assignment.key.value, at: assignment.key.position), expression))
                    }
                }
            }
            var sends: [EffectDefinition.Send] = []
            if let send = body["send"] {
                let items: [YAMLNode]
                if case .sequence(let list) = send.value { items = list.items } else { items = [send.value] }
                for item in items {
                    if case .mapping(let message) = item {
                        checkKeys(message, allowed: ["input", "arg"], in: "a sent input")
                        guard let input = required(message, "input").flatMap({ self.name($0, "'input'") }) else { continue }
                        sends.append(.init(input, argument: message["arg"].flatMap { expression($0.value, "'arg'") }))
                    } else if let input = self.name(item, "a sent input") {
                        sends.append(.init(input))
                    }
                }
            }
            return EffectDefinition(name, assignments: assignments, sends: sends)
        }
    }

    private mutating func decodeTransitions(_ node: YAMLNode) -> [TransitionDefinition] {
        guard case .sequence(let list) = node else {
            if !(node.scalar?.isNull ?? false) {
                error(.wrongKind, "'transitions' is a list of rows or mappings, not \(node.kindDescription)", node.position)
            }
            return []
        }
        return list.items.compactMap { item in
            switch item {
            case .scalar(let row):
                switch TransitionRow.parse(row) {
                case .success(let transition): return transition
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                    return nil
                }
            case .mapping(let map):
                return decodeTransition(map)
            case .sequence:
                error(.wrongKind, "a transition is a row 'INPUT | FROM => TO | EFFECTS' or a mapping, not a list", item.position)
                return nil
            }
        }
    }

    private mutating func decodeTransition(_ map: YAMLMapping) -> TransitionDefinition? {
        checkKeys(map, allowed: ["input", "from", "to", "when", "effects"], in: "a transition")
        let input = required(map, "input").flatMap { name($0, "'input'") }
        var source: TransitionDefinition.Source?
        if let from = required(map, "from") {
            if let scalar = from.scalar, scalar.value == "*" {
                source = .anyNonFinal(scalar.position)
            } else {
                let states = names(from, "'from'")
                if states.contains(where: { $0.name == "*" }) {
                    error(.invalidValue, "'*' stands for every non-final state and cannot be listed with others", from.position)
                } else if !states.isEmpty {
                    source = .states(states)
                } else if case .sequence = from {
                    error(.invalidValue, "'from' lists no state", from.position)
                }
            }
        }
        let target = map["to"].flatMap { entry in entry.value.scalar?.isNull == true ? nil : name(entry.value, "'to'") }
        let guardExpression = map["when"].flatMap { expression($0.value, "'when'") }
        let effects = map["effects"].map { names($0.value, "'effects'") } ?? []
        guard let input, let source else { return nil }
        return TransitionDefinition(input, from: source, to: target, when: guardExpression, effects: effects, at: map.position)
    }

    // MARK: Values

    private mutating func error(_ code: DiagnosticCode, _ message: String, _ position: SourcePosition) {
        diagnostics.append(.error(code, message, at: position))
    }

    private mutating func checkKeys(_ map: YAMLMapping, allowed: [String], in context: String) {
        for entry in map.entries where !allowed.contains(entry.key.value) {
            error(
                .unknownKey,
                "unknown key '\(entry.key.value)' in \(context)" + Suggestion.didYouMean(entry.key.value, in: allowed)
                    + "; expected one of: \(allowed.joined(separator: ", "))",
                entry.key.position)
        }
    }

    private mutating func required(_ map: YAMLMapping, _ key: String) -> YAMLNode? {
        if let entry = map[key] { return entry.value }
        error(.missingKey, "missing required key '\(key)'", map.position)
        return nil
    }

    private mutating func mapping(_ node: YAMLNode, _ what: String) -> YAMLMapping? {
        if case .mapping(let map) = node { return map }
        error(.wrongKind, "\(what) must be a mapping, not \(node.kindDescription)", node.position)
        return nil
    }

    /// A mapping, or nothing for an empty value (`context:` with nothing under it).
    private mutating func optionalMapping(_ node: YAMLNode, _ what: String) -> YAMLMapping? {
        if node.scalar?.isNull == true { return nil }
        return mapping(node, what)
    }

    private mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        if case .scalar(let scalar) = node { return scalar.value }
        error(.wrongKind, "\(what) must be a scalar, not \(node.kindDescription)", node.position)
        return nil
    }

    /// A name: any non-empty scalar, read as a string whatever it looks like (`on`, `1`).
    private mutating func name(_ node: YAMLNode, _ what: String) -> Named? {
        guard case .scalar(let scalar) = node else {
            error(.wrongKind, "\(what) must be a name, not \(node.kindDescription)", node.position)
            return nil
        }
        if scalar.value.isEmpty || (scalar.isNull && scalar.value != "null") {
            error(.wrongKind, "\(what) must be a name, not empty", node.position)
            return nil
        }
        return Named(scalar.value, at: scalar.position.advanced(by: scalar.contentOffset))
    }

    /// One name or a list of names.
    private mutating func names(_ node: YAMLNode, _ what: String) -> [Named] {
        if case .sequence(let list) = node { return list.items.compactMap { name($0, "each of \(what)") } }
        if node.scalar?.isNull == true { return [] }
        return name(node, what).map { [$0] } ?? []
    }

    /// An expression: the scalar's text, whatever its YAML quoting (DESIGN §2).
    private mutating func expression(_ node: YAMLNode, _ what: String) -> ExpressionSource? {
        guard case .scalar(let scalar) = node, !(scalar.isNull && scalar.value.isEmpty) else {
            error(.wrongKind, "\(what) must be an expression, not \(node.kindDescription)", node.position)
            return nil
        }
        return ExpressionSource(scalar.value, at: scalar.position, columnOffset: scalar.contentOffset)
    }
}
