import Statecraft

/// Decodes a scenario file's YAML into a ``ScenarioDocument``, checking its schema (keys, value
/// kinds) and reporting every problem with its position, as ``MachineFileDecoder`` does for
/// machine files. Names are resolved against the machine afterwards (``ScenarioChecker``).
struct ScenarioFileDecoder: YAMLShapeReading {
    var diagnostics: [Diagnostic] = []
    let document: YAMLDocument

    static let topLevelKeys: [StaticString] = ["machine", "scenarios"]
    static let scenarioKeys: [StaticString] = ["name", "context", "state", "steps"]
    static let stepKeys: [StaticString] = ["send", "wait", "expect"]
    static let expectKeys: [StaticString] = ["ok", "state", "states", "in", "effects", "context", "error", "sent", "finished"]
    static let sentKeys: [StaticString] = ["input", "after", "timer", "state", "error"]
    /// The rejection kinds a scenario may expect: not `queued` (the typed API's only), nor
    /// `unknown-input` and `bad-argument`, which make a scenario invalid before it runs.
    static let errorKinds = RejectionKind.allCases.filter { ![.queued, .unknownInput, .badArgument].contains($0) }

    /// Each name's one `String`: a scenario file names the same inputs and states on many steps.
    private var spellings: TextInterner

    init(_ document: YAMLDocument) {
        self.document = document
        spellings = document.spellings
    }

    /// Decodes the document; `nil` when the file is too broken to run.
    mutating func decode() -> ScenarioDocument? {
        guard let root = document.root else {
            error(.missingKey, "file is empty; a scenario file is a mapping with 'machine' and 'scenarios'", .init(line: 1, column: 1))
            return nil
        }
        guard let top = mapping(root, "a scenario file") else { return nil }
        checkKeys(top, allowed: Self.topLevelKeys, in: "a scenario file")
        let machine = required(top, "machine").flatMap { node in string(node, "'machine'").map { ($0, document[node].position) } }
        var scenarios: [Scenario] = []
        if let list = required(top, "scenarios") {
            if document[list].kind == .sequence {
                scenarios = document.items(list).compactMap { decodeScenario($0) }
            } else {
                error(.wrongKind, "'scenarios' is a list of scenarios, not \(document.kindDescription(list))", document[list].position)
            }
        }
        guard let machine else { return nil }
        return ScenarioDocument(machinePath: machine.0, machinePathPosition: machine.1, scenarios: scenarios)
    }

    private mutating func decodeScenario(_ node: Int) -> Scenario? {
        guard let map = mapping(node, "a scenario") else { return nil }
        checkKeys(map, allowed: Self.scenarioKeys, in: "a scenario")
        let name = required(map, "name").flatMap { string($0, "'name'") }
        let context = document.entry(map, "context").map { variables($0.value, "'context'") } ?? []
        let state = document.entry(map, "state").map { names($0.value, "'state'") }
        var steps: [ScenarioStep] = []
        if let list = required(map, "steps") {
            if document[list].kind == .sequence {
                steps = document.items(list).compactMap { decodeStep($0) }
            } else {
                error(.wrongKind, "'steps' is a list of steps, not \(document.kindDescription(list))", document[list].position)
            }
        }
        guard let name else { return nil }
        return Scenario(name: name, position: document[map].position, context: context, state: state, steps: steps)
    }

    private mutating func decodeStep(_ node: Int) -> ScenarioStep? {
        guard let map = mapping(node, "a step ({ send: INPUT, expect: {...} })") else { return nil }
        checkKeys(map, allowed: Self.stepKeys, in: "a step")
        let position = document[map].position
        var send: ScenarioStep.Send?
        if let entry = document.entry(map, "send") {
            send = decodeSend(entry.value)
            if send == nil { return nil }
        }
        var wait: Delay?
        if let entry = document.entry(map, "wait") {
            if document.entry(map, "send") != nil {
                error(.invalidValue, "a step sends an input or waits, not both; make them two steps", document[entry.key].position)
                return nil
            }
            wait = delay(entry.value, "'wait'")
            if wait == nil { return nil }
        }
        var expectation = StepExpectation()
        if let entry = document.entry(map, "expect") {
            guard let decoded = decodeExpectation(entry.value) else { return nil }
            expectation = decoded
        }
        if send == nil && wait == nil && document.entry(map, "expect") == nil {
            // A step of only unknown keys has been reported already.
            if document[map].count == 0 { error(.missingKey, "a step has 'send' or 'wait', 'expect', or both", position) }
            return nil
        }
        return ScenarioStep(position: position, send: send, wait: wait, expectation: expectation)
    }

    private mutating func decodeSend(_ node: Int) -> ScenarioStep.Send? {
        if document[node].kind != .mapping {
            return name(node, "'send'").map { .init(input: $0, argument: nil, argumentPosition: document[node].position) }
        }
        checkKeys(node, allowed: ["input", "arg"], in: "'send'")
        let input = required(node, "input").flatMap { name($0, "'input'") }
        var argument: Value?
        var argumentPosition = document[node].position
        if let arg = document.entry(node, "arg") {
            argument = value(arg.value, "'arg'")
            argumentPosition = document[arg.value].position
            if argument == nil { return nil }
        }
        return input.map { .init(input: $0, argument: argument, argumentPosition: argumentPosition) }
    }

    private mutating func decodeExpectation(_ node: Int) -> StepExpectation? {
        guard let map = mapping(node, "'expect'") else { return nil }
        checkKeys(map, allowed: Self.expectKeys, in: "'expect'")
        var expectation = StepExpectation()
        for entry in document.entries(map) {
            let value = entry.value
            let position = document[value].position
            if document.text(of: entry.key, is: "ok") {
                expectation.ok = bool(value, "'ok'").map { .init(value: $0, position: position) }
            } else if document.text(of: entry.key, is: "finished") {
                expectation.finished = bool(value, "'finished'").map { .init(value: $0, position: position) }
            } else if document.text(of: entry.key, is: "state") {
                expectation.state = name(value, "'state'").map { .init(value: $0, position: position) }
            } else if document.text(of: entry.key, is: "states") {
                expectation.states = .init(value: names(value, "'states'"), position: position)
            } else if document.text(of: entry.key, is: "in") {
                expectation.includes = .init(value: names(value, "'in'"), position: position)
            } else if document.text(of: entry.key, is: "effects") {
                expectation.effects = .init(value: names(value, "'effects'"), position: position)
            } else if document.text(of: entry.key, is: "context") {
                expectation.context = .init(value: variables(value, "'context'"), position: position)
            } else if document.text(of: entry.key, is: "error") {
                expectation.error = errorKind(value).map { .init(value: $0, position: position) }
            } else if document.text(of: entry.key, is: "sent") {
                expectation.sent = decodeSent(value).map { .init(value: $0, position: position) }
            }
        }
        return expectation
    }

    private mutating func decodeSent(_ node: Int) -> [StepExpectation.Sent]? {
        guard document[node].kind == .sequence else {
            error(
                .wrongKind, "'sent' is a list of queued and timed results ({ input, after, timer, state, error }), not \(document.kindDescription(node))",
                document[node].position)
            return nil
        }
        return document.items(node).compactMap { item in
            guard let map = mapping(item, "a queued or timed result ({ input, after, timer, state, error })") else { return nil }
            checkKeys(map, allowed: Self.sentKeys, in: "a queued or timed result")
            var sent = StepExpectation.Sent(position: document[map].position)
            sent.input = document.entry(map, "input").flatMap { name($0.value, "'input'") }
            sent.after = document.entry(map, "after").flatMap { entry in
                delay(entry.value, "'after'").map { .init(value: $0, position: document[entry.value].position) }
            }
            sent.timer = document.entry(map, "timer").flatMap { name($0.value, "'timer'") }
            sent.state = document.entry(map, "state").flatMap { name($0.value, "'state'") }
            sent.error = document.entry(map, "error").flatMap { entry in
                errorKind(entry.value).map { .init(value: $0, position: document[entry.value].position) }
            }
            return sent
        }
    }

    // MARK: - Values

    private mutating func checkKeys(_ map: Int, allowed: [StaticString], in context: String) {
        for entry in document.entries(map) where !allowed.contains(where: { document.text(of: entry.key, is: $0) }) {
            let key = document.string(entry.key)
            let names = allowed.map { $0.description }
            error(
                .unknownKey,
                "unknown key '\(key)' in \(context)" + Suggestion.didYouMean(key, in: names)
                    + "; expected one of: \(names.joined(separator: ", "))",
                document[entry.key].position)
        }
    }

    private mutating func string(_ node: Int, _ what: String) -> String? {
        if document[node].kind == .scalar, !document.isNull(node) { return document.string(node) }
        error(.wrongKind, "\(what) must be a non-empty scalar, not \(document.kindDescription(node))", document[node].position)
        return nil
    }

    private mutating func bool(_ node: Int, _ what: String) -> Bool? {
        if document[node].kind == .scalar, case .bool(let b) = document.scalar(node).coreSchemaValue { return b }
        error(.wrongKind, "\(what) is true or false", document[node].position)
        return nil
    }

    /// A name: any non-empty scalar, read as a string whatever it looks like (`on`, `1`).
    private mutating func name(_ node: Int, _ what: String) -> Named? {
        let scalar = document[node]
        guard scalar.kind == .scalar, scalar.count > 0 || scalar.style != .plain else {
            error(.wrongKind, "\(what) must be a name, not \(scalar.kind == .scalar ? "empty" : document.kindDescription(node))", scalar.position)
            return nil
        }
        let offset = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
        return document.buffer(of: scalar).withUnsafeBytes {
            spellings.named(UnsafeRawBufferPointer(rebasing: $0[scalar.start..<(scalar.start + scalar.count)]), at: scalar.position.advanced(by: offset))
        }
    }

    /// A list of names (`[]` or empty for none), or one name.
    private mutating func names(_ node: Int, _ what: String) -> [Named] {
        if document[node].kind == .sequence { return document.items(node).compactMap { name($0, "each of \(what)") } }
        if document.isNull(node) { return [] }
        return name(node, what).map { [$0] } ?? []
    }

    /// A value as YAML's core schema reads it: quoted scalars are strings, a sequence of scalars
    /// of one type a list.
    private mutating func value(_ node: Int, _ what: String) -> Value? {
        if document[node].kind == .sequence {
            let nodes = Array(document.items(node))
            var items: [Value] = []
            for item in nodes {
                guard document[item].kind == .scalar, let value = value(item, "an item of \(what)") else {
                    if document[item].kind != .scalar {
                        error(.wrongKind, "an item of \(what) must be an int, double, bool or string, not \(document.kindDescription(item))", document[item].position)
                    }
                    return nil
                }
                items.append(value)
            }
            switch Value.list(checking: items) {
            case .success(let list): return list
            case .failure(let problem):
                error(.invalidValue, "\(what): \(problem.message)", document[nodes[problem.index]].position)
                return nil
            }
        }
        guard document[node].kind == .scalar else {
            error(.wrongKind, "\(what) must be an int, double, bool, string, null or a list, not \(document.kindDescription(node))", document[node].position)
            return nil
        }
        let scalar = document.scalar(node)
        if scalar.isOutOfRangeInteger {
            error(.invalidValue, "\(what) is an integer outside the 64-bit range; quote it to make it a string", scalar.position)
            return nil
        }
        let value = scalar.coreSchemaValue
        if case .double(let d) = value, !d.isFinite {
            error(.invalidValue, "\(what) must be a finite number", scalar.position)
            return nil
        }
        return value
    }

    /// A mapping variable -> value.
    private mutating func variables(_ node: Int, _ what: String) -> [(variable: Named, value: Value, position: SourcePosition)] {
        if document.isNull(node) { return [] }
        guard let map = mapping(node, "\(what) (a mapping variable -> value)") else { return [] }
        return document.entries(map).compactMap { entry in
            guard let variable = name(entry.key, "a variable"),
                let value = value(entry.value, "the value of '\(document.string(entry.key))'")
            else { return nil }
            return (variable, value, document[entry.value].position)
        }
    }

    private mutating func errorKind(_ node: Int) -> RejectionKind? {
        guard let text = string(node, "'error'") else { return nil }
        if let kind = RejectionKind(rawValue: text), Self.errorKinds.contains(kind) { return kind }
        let kinds = Self.errorKinds.map(\.rawValue)
        error(
            .invalidValue,
            "'error' is a rejection kind, not '\(text)'" + Suggestion.didYouMean(text, in: kinds) + "; expected one of: \(kinds.joined(separator: ", "))",
            document[node].position)
        return nil
    }
}
