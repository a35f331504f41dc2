import Statecraft

// The `effects` section: each effect's body, a list of steps or one step (docs/machine-files.md).
extension MachineFileDecoder {
    typealias Step = EffectDefinition.Step

    mutating func decodeEffects(_ node: Int) -> [EffectDefinition] {
        guard let map = optionalMapping(node, "'effects' (a mapping name -> steps)") else { return [] }
        return document.entries(map).map { entry in
            let name = key(entry)
            return EffectDefinition(name, steps: steps(entry.value, of: "effect '\(name.name)'"))
        }
    }

    // MARK: - Bodies

    /// A body: a list of steps, or one step written as a mapping; nothing for an empty value.
    private mutating func steps(_ node: Int, of owner: String) -> [Step] {
        var steps: [Step] = []
        var openIf: EffectDefinition.Conditional?
        switch document[node].kind {
        case .mapping:
            step(node, of: owner, into: &steps, openIf: &openIf)
        case .sequence:
            for item in document.items(node) {
                guard document[item].kind == .mapping else {
                    error(
                        .wrongKind, "each step of \(owner) is a mapping such as { set: ... } or { if: ..., do: [...] }, not \(document.kindDescription(item))",
                        document[item].position)
                    continue
                }
                step(item, of: owner, into: &steps, openIf: &openIf)
            }
        default:
            if !document.isNull(node) {
                error(
                    .wrongKind, "\(owner) takes a step ({ set, send, log, if, foreach }) or a list of steps, not \(document.kindDescription(node))",
                    document[node].position)
            }
        }
        if let openIf { steps.append(.conditional(openIf)) }
        return steps
    }

    /// One step mapping, appended to `steps`; `openIf` is an `if` that an `elif` or `else` step may
    /// still continue (appended once something else follows).
    private mutating func step(_ map: Int, of owner: String, into steps: inout [Step], openIf: inout EffectDefinition.Conditional?) {
        checkKeys(map, allowed: MachineFileKeys.effectStep, in: "a step of \(owner)")
        // The step's kind is the first of these keys it has; `send` may go with `set`, and `else`
        // with `if` or `elif`: any other key of these in the same mapping is an error.
        let kinds: [StaticString] = ["set", "send", "cancel", "cancel_expr", "log", "if", "elif", "foreach", "else"]
        var present: [(name: String, entry: YAMLDocument.Entry)] = []
        for entry in document.entries(map) {
            if let name = kinds.first(where: { document.text(of: entry.key, is: $0) }) { present.append((name.description, entry)) }
        }
        let kind = kinds.lazy.compactMap { kind in present.first { $0.name == kind.description } }.first
        if let kind {
            for other in present where other.name != kind.name {
                let together: Set = [kind.name, other.name]
                if together == ["set", "send"] || together == ["set", "cancel"] || together == ["send", "cancel"] { continue }
                if together == ["if", "else"] || together == ["elif", "else"] { continue }
                error(
                    .invalidValue,
                    "a step does one thing: '\(other.name)' cannot go with '\(kind.name)' in one mapping; write them as steps of a list",
                    document[other.entry.key].position)
            }
        }
        let doEntry = document.entry(map, "do")
        if let doEntry, !["if", "elif"].contains(kind?.name) {
            error(.invalidValue, "'do' goes with 'if' or 'elif' (a 'foreach' has its own 'do')", document[doEntry.key].position)
        }
        guard let (kind, entry) = kind else {
            if doEntry == nil {
                error(.missingKey, "a step of \(owner) needs one of: set, send, cancel, cancel_expr, log, if, elif, else, foreach", document[map].position)
            }
            return
        }
        if kind != "elif" && kind != "else", let conditional = openIf {
            steps.append(.conditional(conditional))
            openIf = nil
        }
        switch kind {
        case "set", "send", "cancel", "cancel_expr":
            // In one mapping: assignments, then cancels, then sends.
            steps += assignments(map)
            steps += document.entry(map, "cancel").map { names($0.value, "'cancel'").map(Step.cancel) } ?? []
            if let entry = document.entry(map, "cancel_expr"), let id = expression(entry.value, "'cancel_expr'") {
                steps.append(.cancelEvaluated(id))
            }
            steps += sends(map)
        case "log":
            if let log = log(entry) { steps.append(.log(log)) }
        case "foreach":
            if let loop = forEach(entry.value, of: owner) { steps.append(.forEach(loop)) }
        case "else":
            let otherwise = self.steps(entry.value, of: owner)
            guard var conditional = openIf else {
                error(.invalidValue, "'else' without an 'if' step before it", document[entry.key].position)
                return
            }
            conditional.otherwise = otherwise
            steps.append(.conditional(conditional))
            openIf = nil
        default:  // "if", "elif"
            let condition = expression(entry.value, "the condition of '\(kind)'")
            let body = doEntry.map { self.steps($0.value, of: owner) } ?? []
            let otherwise = document.entry(map, "else").map { self.steps($0.value, of: owner) }
            if kind == "elif" && openIf == nil {
                error(.invalidValue, "'elif' without an 'if' step before it", document[entry.key].position)
                return
            }
            guard let condition else { return }
            var conditional = openIf ?? EffectDefinition.Conditional([])
            conditional.branches.append(.init(condition, body))
            if let otherwise {
                conditional.otherwise = otherwise
                steps.append(.conditional(conditional))
                openIf = nil
            } else {
                openIf = conditional
            }
        }
    }

    // MARK: - Steps

    /// `set: { variable: expression }`: one step per assignment, in written order.
    private mutating func assignments(_ map: Int) -> [Step] {
        guard let set = document.entry(map, "set"), let variables = mapping(set.value, "'set' (a mapping variable -> expression)")
        else { return [] }
        var steps: [Step] = []
        for assignment in document.entries(variables) {
            if let expression = expression(assignment.value, "the value of '\(document.string(assignment.key))'") {
                steps.append(.assign(.init(key(assignment), expression)))
            }
        }
        return steps
    }

    /// `send: INPUT`, `send: { input, arg, data, queue, delay, delay_expr, id, target }` or a list of them.
    private mutating func sends(_ map: Int) -> [Step] {
        guard let send = document.entry(map, "send") else { return [] }
        let items = document[send.value].kind == .sequence ? Array(document.items(send.value)) : [send.value]
        var steps: [Step] = []
        for item in items {
            if document[item].kind == .mapping {
                checkKeys(item, allowed: MachineFileKeys.sentInput, in: "a sent input")
                guard let input = required(item, "input").flatMap({ self.name($0, "'input'") }) else { continue }
                var queue = EffectDefinition.SendQueue.internal
                if let entry = document.entry(item, "queue"), let text = string(entry.value, "'queue'") {
                    if let named = EffectDefinition.SendQueue(rawValue: text) {
                        queue = named
                    } else {
                        error(.invalidValue, "'queue' is 'internal' or 'external', not '\(text)'", document[entry.value].position)
                    }
                }
                let argument = document.entry(item, "arg").flatMap { expression($0.value, "'arg'") }
                let delayed = document.entry(item, "delay").flatMap { self.delay($0.value, "'delay'") }
                let id = document.entry(item, "id").flatMap { self.name($0.value, "'id'") }
                let delayExpression = document.entry(item, "delay_expr").flatMap { expression($0.value, "'delay_expr'") }
                var send = EffectDefinition.Send(input, argument: argument, queue: queue, delay: delayed, id: id, delayExpression: delayExpression)
                send.target = document.entry(item, "target").flatMap { string($0.value, "'target'") }
                if let data = document.entry(item, "data") { send.data = self.data(data.value) }
                steps.append(.send(send))
            } else if let input = self.name(item, "a sent input") {
                steps.append(.send(.init(input)))
            }
        }
        return steps
    }

    /// A send's `data: { NAME: EXPRESSION, ... }`: the input's data with named fields, each
    /// named as a variable is (read as `arg.NAME`).
    private mutating func data(_ node: Int) -> [EffectDefinition.Send.DataField] {
        guard document[node].kind == .mapping else {
            error(.wrongKind, "'data' is a mapping of field names to expressions, not \(document.kindDescription(node))", document[node].position)
            return []
        }
        return document.entries(node).compactMap { entry in
            guard let name = self.name(entry.key, "a field of 'data'"), let value = expression(entry.value, "field '\(name.name)'") else {
                return nil
            }
            if NameRules.problem(withVariableName: name.name) != nil && !NameRules.keywords.contains(name.name) {
                error(.invalidName, "field name '\(name.name)' must be letters, digits and '_', not starting with a digit", name.position)
                return nil
            }
            return EffectDefinition.Send.DataField(name, value)
        }
    }

    /// `log: LABEL` or `log: { label: LABEL, expr: EXPRESSION }`.
    private mutating func log(_ entry: YAMLDocument.Entry) -> EffectDefinition.Log? {
        let position = document[entry.key].position
        let node = entry.value
        if document[node].kind == .scalar && !document.isNull(node) {
            return EffectDefinition.Log(label: document.string(node), at: position)
        }
        guard document[node].kind == .mapping else {
            error(.wrongKind, "'log' takes a label, or { label: TEXT, expr: EXPRESSION }, not \(document.kindDescription(node))", document[node].position)
            return nil
        }
        checkKeys(node, allowed: MachineFileKeys.log, in: "'log'")
        let label = document.entry(node, "label").flatMap { string($0.value, "'label'") }
        let expressionEntry = document.entry(node, "expr")
        let value = expressionEntry.flatMap { expression($0.value, "'expr'") }
        if document.entry(node, "label") == nil && expressionEntry == nil {
            error(.missingKey, "'log' needs a 'label', an 'expr' or both", document[node].position)
            return nil
        }
        return EffectDefinition.Log(label: label, expression: value, at: position)
    }

    /// `foreach: { array: EXPRESSION, item: VARIABLE, index: VARIABLE, do: [steps] }`.
    private mutating func forEach(_ node: Int, of owner: String) -> EffectDefinition.ForEach? {
        guard let map = mapping(node, "'foreach' ({ array, item, index, do })") else { return nil }
        checkKeys(map, allowed: MachineFileKeys.forEach, in: "'foreach'")
        let items = required(map, "array").flatMap { expression($0, "'array'") }
        let item = required(map, "item").flatMap { name($0, "'item'") }
        let index = document.entry(map, "index").flatMap { name($0.value, "'index'") }
        let body = document.entry(map, "do").map { steps($0.value, of: owner) } ?? []
        guard let items, let item else { return nil }
        return EffectDefinition.ForEach(items, item: item, index: index, steps: body)
    }
}
