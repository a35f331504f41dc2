import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes a machine file's YAML (format version 1, docs/machine-files.md) into a ``MachineDefinition``.
///
/// It checks the schema (keys, value kinds) and reports every problem it finds with its
/// position; references and types are checked afterwards by ``MachineCompiler``. It reads the
/// flat ``YAMLDocument``, and interns names: a state named on many rows is one `String`.
///
/// The transitions are decoded while the file is parsed, some thousands at a time
/// (``SequenceItemSink``), so that the document never holds them all; the rest is decoded from
/// the document once it is whole.
struct MachineFileDecoder: YAMLShapeReading, SequenceItemSink {
    var diagnostics: [Diagnostic] = []
    /// The document being read: while the file is parsed, lent by the parser for one batch of items at a time.
    private(set) var document = YAMLDocument(source: [])
    private var spellings = TextInterner()
    /// The transitions decoded during the parse, in file order.
    private var streamedTransitions: [TransitionDefinition] = []
    /// Names declared among a state's options, not as states (``checkStateKeys(_:of:)``).
    private var misplacedStates: [String: MisplacedState] = [:]

    init() {}

    // MARK: - Decoding during the parse

    mutating func streamsItems(under key: Int, at offset: Int, of document: YAMLDocument) -> Bool {
        guard document.text(of: key, is: "transitions") else { return false }
        streamedTransitions.reserveCapacity(Self.lineCount(after: offset, in: document.source))
        return true
    }

    mutating func take(items: [Int], of document: inout YAMLDocument) {
        // Borrowed by swapping, not copied: the parser's document stays uniquely referenced, so
        // that adding to it after this returns copies nothing. The names go on being interned
        // in the document's table, which the parser adds large mappings' keys to.
        swap(&spellings, &document.spellings)
        swap(&self.document, &document)
        var transitions: [TransitionDefinition] = []
        swap(&transitions, &streamedTransitions)
        for item in items { decodeTransitionItem(item, into: &transitions) }
        swap(&transitions, &streamedTransitions)
        swap(&self.document, &document)
        swap(&spellings, &document.spellings)
    }

    /// The lines from `offset` to the end of `source`: room for the transitions of a block list
    /// that starts there, which has at most one per line (a flow list on fewer lines grows as
    /// it must). Room never written costs no memory, where growing by doubling would copy the
    /// whole array and, for a moment, hold it twice.
    private static func lineCount(after offset: Int, in source: [UInt8]) -> Int {
        source.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return 1 }
            var lines = 1
            var offset = min(max(offset, 0), bytes.count)
            while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
                offset = UnsafeRawPointer(found) - base + 1
                lines += 1
            }
            return lines
        }
    }

    // MARK: - Decoding the document

    /// Decodes `document`, the parse of the file this decoder was streamed; `nil` when the file
    /// is too broken to describe a machine.
    mutating func decode(_ document: consuming YAMLDocument, defaultName: String) -> MachineDefinition? {
        var document = document
        swap(&spellings, &document.spellings)
        self.document = document
        guard let root = self.document.root else {
            error(.missingKey, "file is empty; a machine file is a mapping with 'initial', 'states' and 'transitions'", .init(line: 1, column: 1))
            return nil
        }
        guard let top = mapping(root, "a machine file") else { return nil }
        // A scenario file given where a machine file is expected: one error that says so, not
        // one per key it lacks and has.
        if let scenarios = document.entry(top, "scenarios"),
            document.entry(top, "initial") == nil, document.entry(top, "states") == nil, document.entry(top, "transitions") == nil
        {
            error(
                .unknownKey,
                "this is a scenario file ('scenarios' lists tests of a machine), not a machine file; run it with 'smrun test'",
                document[scenarios.key].position)
            return nil
        }
        checkKeys(top, allowed: MachineFileKeys.topLevel, in: "a machine file")

        let name = document.entry(top, "machine").flatMap { string($0.value, "'machine'") } ?? defaultName
        let description = document.entry(top, "description").flatMap { string($0.value, "'description'") }
        // One state, or a list: several initial states in different regions of a parallel state.
        let initialNames = required(top, "initial").map { node in
            document[node].kind == .sequence ? names(node, "'initial'") : self.name(node, "'initial'").map { [$0] } ?? []
        }
        if let node = document.entry(top, "initial")?.value, document[node].kind == .sequence, initialNames?.isEmpty == true {
            error(.invalidValue, "'initial' names no state", document[node].position)
        }
        let initial = initialNames?.first
        var onUnhandled = MachineDefinition.UnhandledPolicy.reject
        if let entry = document.entry(top, "on_unhandled"), let text = string(entry.value, "'on_unhandled'") {
            if let policy = MachineDefinition.UnhandledPolicy(rawValue: text) {
                onUnhandled = policy
            } else {
                error(.invalidValue, "'on_unhandled' is 'reject' or 'ignore', not '\(text)'", document[entry.value].position)
            }
        }
        var onError = MachineDefinition.ErrorPolicy.reject
        if let entry = document.entry(top, "on_error"), let text = string(entry.value, "'on_error'") {
            if let policy = MachineDefinition.ErrorPolicy(rawValue: text) {
                onError = policy
            } else {
                error(.invalidValue, "'on_error' is 'reject' or 'raise', not '\(text)'", document[entry.value].position)
            }
        }
        let context = document.entry(top, "context").map { decodeContext($0.value) } ?? []
        let inputs = document.entry(top, "inputs").map { decodeInputs($0.value) }
        let states = required(top, "states").flatMap { decodeStates($0) }
        let effects = document.entry(top, "effects").map { decodeEffects($0.value) } ?? []
        let transitions = required(top, "transitions").map { decodeTransitions($0) } ?? []
        // Without its initial state and states a machine's references cannot be checked: every
        // one would be reported as undefined, burying the problem that matters.
        guard let initial, let states else { return nil }
        var definition = MachineDefinition(
            name: name, description: description, initial: initial, onUnhandled: onUnhandled,
            context: context, inputs: inputs, states: states, effects: effects, transitions: transitions)
        definition.otherInitialStates = Array(initialNames?.dropFirst() ?? [])
        definition.onError = onError
        definition.misplacedStates = misplacedStates
        return definition
    }

    // MARK: - Sections

    private mutating func decodeContext(_ node: Int) -> [ContextVariable] {
        guard let map = optionalMapping(node, "'context'") else { return [] }
        return document.entries(map).compactMap { entry in
            let name = document.string(entry.key)
            if document[entry.value].kind == .sequence {
                return initialList(entry.value, of: name).map { ContextVariable(key(entry), $0) }
            }
            guard document[entry.value].kind == .scalar else {
                error(
                    .wrongKind,
                    "context variable '\(name)' needs an int, double, bool, string, null or list initial value, not \(document.kindDescription(entry.value))\(document.quoteHint(entry.value))",
                    document[entry.value].position)
                return nil
            }
            return initialScalar(entry.value, of: name).map { ContextVariable(key(entry), $0) }
        }
    }

    /// A context variable's initial scalar: YAML's core schema, an int in 64 bits, a finite number.
    private mutating func initialScalar(_ node: Int, of name: String) -> Value? {
        let scalar = document.scalar(node)
        let value = scalar.coreSchemaValue
        if scalar.isOutOfRangeInteger {
            error(
                .invalidValue, "context variable '\(name)' starts as an integer outside the 64-bit range; quote it to make it a string",
                document[node].position)
        }
        if case .double(let d) = value, !d.isFinite {
            error(.invalidValue, "context variable '\(name)' must start as a finite number", document[node].position)
        }
        return value
    }

    /// A context variable's initial list, a YAML sequence of ints, doubles, bools or strings of
    /// one type (ints among doubles are doubles).
    private mutating func initialList(_ node: Int, of name: String) -> Value? {
        let nodes = Array(document.items(node))
        var items: [Value] = []
        for item in nodes {
            guard document[item].kind == .scalar else {
                error(
                    .wrongKind, "context variable '\(name)' is a list of ints, doubles, bools or strings; an item cannot be \(document.kindDescription(item))",
                    document[item].position)
                return nil
            }
            guard let value = initialScalar(item, of: name) else { return nil }
            items.append(value)
        }
        switch Value.list(checking: items) {
        case .success(let list): return list
        case .failure(let problem):
            error(.invalidValue, "context variable '\(name)': \(problem.message)", document[nodes[problem.index]].position)
            return nil
        }
    }

    private mutating func decodeInputs(_ node: Int) -> [InputDeclaration] {
        if document[node].kind == .sequence {
            return document.items(node).compactMap { item in self.name(item, "an input").map { InputDeclaration($0) } }
        }
        guard let map = optionalMapping(node, "'inputs' (a list of names or a mapping name -> argument type)") else { return [] }
        return document.entries(map).map { entry in
            let name = key(entry)
            let value = entry.value
            switch document[value].kind {
            case .scalar where document.isNull(value):
                return InputDeclaration(name)
            case .scalar:
                return InputDeclaration(name, argumentType: argumentType(value), argumentTypePosition: document[value].position)
            case .mapping:
                checkKeys(value, allowed: MachineFileKeys.input, in: "input '\(name.name)'")
                let arg = document.entry(value, "arg")
                let type = arg.flatMap { entry in
                    document[entry.value].kind == .scalar && !document.isNull(entry.value) ? argumentType(entry.value) : nil
                }
                if let arg, document[arg.value].kind != .scalar {
                    error(
                        .wrongKind, "'arg' of input '\(name.name)' is a type name, not \(document.kindDescription(arg.value))",
                        document[arg.value].position)
                }
                return InputDeclaration(
                    name, argumentType: type,
                    description: document.entry(value, "description").flatMap { string($0.value, "'description'") },
                    argumentTypePosition: arg.map { document[$0.value].position } ?? name.position,
                    isInternal: document.entry(value, "internal").map { flag($0.value, "'internal'") } ?? false)
            case .sequence:
                error(
                    .wrongKind,
                    "input '\(name.name)' takes an argument type or { arg: TYPE, description: TEXT, internal: true }, not a list",
                    document[value].position)
                return InputDeclaration(name)
            }
        }
    }

    /// The other languages' names of the argument types, for "did you mean": `str` is no typo
    /// of `string` by edit distance.
    private static let argumentTypeAliases: [String: ValueType] = [
        "str": .string, "text": .string, "String": .string, "integer": .int, "Int": .int, "number": .double,
        "float": .double, "Double": .double, "Float": .double, "boolean": .bool, "Bool": .bool,
    ]

    /// An input's argument type. A misspelt one is an error that suggests the type meant, and
    /// the input is then read as taking it, so that its transitions' uses of `arg` are not each
    /// an error too.
    private mutating func argumentType(_ node: Int) -> ValueType? {
        let text = document.string(node)
        if let type = ValueType(rawValue: text), ValueType.argumentTypes.contains(type) { return type }
        let meant = Self.argumentTypeAliases[text]
            ?? Suggestion.closest(to: text, in: ValueType.argumentTypes.map(\.rawValue)).flatMap(ValueType.init(rawValue:))
        error(
            .argumentType,
            "argument type is int, double, bool or string, not '\(text)'" + (meant.map { " (did you mean '\($0.rawValue)'?)" } ?? ""),
            document[node].position)
        return meant
    }

    /// The states folded into the list item at `item` (``FoldedListItems``), reported; `nil`
    /// when it holds no other.
    private mutating func foldedNames(_ item: Int) -> [Named]? {
        let node = document[item]
        guard node.kind == .scalar, node.style == .plain, !node.isInSource else { return nil }
        let text = document.string(item)
        guard let parts = FoldedListItems.parts(of: text, at: node.position, in: document.source),
            parts.allSatisfy({ NameRules.problem(withName: $0.text) == nil })
        else { return nil }
        error(.invalidName, FoldedListItems.message(parts, folded: text, kind: "item"), node.position)
        return parts.map { Named($0.text, at: $0.position) }
    }

    /// Reports the keys of a state's options that are no option. One that reads as a state
    /// (a name that is no typo of an option, with nothing or a state's options under it) is
    /// most likely a state indented one level too deep: said so, and kept as a misplaced state
    /// (``MisplacedState``), which references to it are told about instead of that it is
    /// undefined.
    private mutating func checkStateKeys(_ options: Int, of state: Named) {
        let allowed = MachineFileKeys.state
        for entry in document.entries(options) where !allowed.contains(where: { document.text(of: entry.key, is: $0) }) {
            let key = document.string(entry.key)
            let value = entry.value
            let readsAsState =
                NameRules.problem(withName: key) == nil && Suggestion.closest(to: key, in: allowed.map(\.description)) == nil
                && (document.isNull(value)
                    || (document[value].kind == .mapping
                        && document.entries(value).allSatisfy { entry in allowed.contains { document.text(of: entry.key, is: $0) } }))
            guard readsAsState else {
                unknownKey(entry, allowed: allowed, in: "state '\(state.name)'")
                continue
            }
            let position = document[entry.key].position
            error(
                .unknownKey,
                "'\(key)' is declared under '\(state.name)', where its options go (\(allowed.map(\.description).joined(separator: ", "))), not as a state; check the indentation: a state beside '\(state.name)' is indented as it is, and a child goes under its 'states:'",
                position)
            if misplacedStates[key] == nil { misplacedStates[key] = MisplacedState(parent: state.name, position: position) }
        }
    }

    /// States nest at most this deep (`states` inside a state's options): deeper is refused
    /// at once, before the decoder or the compiler recurses into it.
    static let maximumStateDepth = 100


    /// A `states` list or mapping; `depth` is 1 at the top level.
    private mutating func decodeStates(_ node: Int, depth: Int = 1) -> [StateDeclaration]? {
        if document[node].kind == .sequence {
            return document.items(node).flatMap { item in
                (foldedNames(item) ?? self.name(item, "a state").map { [$0] } ?? []).map { StateDeclaration($0) }
            }
        }
        guard let map = mapping(node, "'states' (a list of names or a mapping name -> options)") else { return nil }
        return document.entries(map).map { entry in
            let name = key(entry)
            let options = entry.value
            guard document[options].kind == .mapping else {
                if !document.isNull(options) {
                    error(
                        .wrongKind,
                        "state '\(name.name)' takes options { entry, exit, final, description, states, initial, parallel, history }, not \(document.kindDescription(options))",
                        document[options].position)
                }
                return StateDeclaration(name)
            }
            checkStateKeys(options, of: name)
            var state = StateDeclaration(
                name, entry: document.entry(options, "entry").map { names($0.value, "'entry'") } ?? [],
                exit: document.entry(options, "exit").map { names($0.value, "'exit'") } ?? [],
                isFinal: document.entry(options, "final").map { flag($0.value, "'final'") } ?? false,
                description: document.entry(options, "description").flatMap { string($0.value, "'description'") })
            state.isParallel = document.entry(options, "parallel").map { flag($0.value, "'parallel'") } ?? false
            state.initial = document.entry(options, "initial").map { names($0.value, "'initial'") } ?? []
            if let history = document.entry(options, "history") {
                let text = string(history.value, "'history'") ?? ""
                if let kind = StateDeclaration.HistoryKind(rawValue: text) {
                    state.history = kind
                } else if document[history.value].kind == .scalar {
                    error(
                        .invalidValue, "'history' is 'shallow' or 'deep', not '\(text)'"
                            + Suggestion.didYouMean(text, in: ["shallow", "deep"]),
                        document[history.value].position)
                }
                let allowed: [StaticString] = ["history", "default", "default_effects", "description"]
                for entry in document.entries(options) where !allowed.contains(where: { document.text(of: entry.key, is: $0) }) {
                    error(
                        .invalidState,
                        "history state '\(name.name)' takes only 'history', 'default', 'default_effects' and 'description', not '\(document.string(entry.key))'",
                        document[entry.key].position)
                }
            }
            if let defaults = document.entry(options, "default") {
                if state.history == nil {
                    error(.invalidState, "'default' belongs to a history state ('history: shallow' or 'deep'); state '\(name.name)' is not one", document[defaults.key].position)
                }
                state.historyDefault = names(defaults.value, "'default'")
            }
            state.defaultEffects = document.entry(options, "default_effects").map { names($0.value, "'default_effects'") } ?? []
            if let children = document.entry(options, "states") {
                if depth >= Self.maximumStateDepth {
                    error(
                        .limitExceeded, "states nest more than \(Self.maximumStateDepth) levels deep", document[children.key].position)
                } else {
                    state.children = decodeStates(children.value, depth: depth + 1) ?? []
                }
            }
            return state
        }
    }

    private mutating func decodeTransitions(_ node: Int) -> [TransitionDefinition] {
        guard document[node].kind == .sequence else {
            if !document.isNull(node) {
                error(
                    .wrongKind, "'transitions' is a list of rows or mappings, not \(document.kindDescription(node))",
                    document[node].position)
            }
            return []
        }
        // The items decoded during the parse come first; any left in the document (after an
        // anchor) follow them.
        var transitions: [TransitionDefinition] = []
        swap(&transitions, &streamedTransitions)
        for item in document.items(node) {
            decodeTransitionItem(item, into: &transitions)
        }
        return transitions
    }

    /// Decodes an item of `transitions`: a row or a mapping.
    private mutating func decodeTransitionItem(_ item: Int, into transitions: inout [TransitionDefinition]) {
        let node = document[item]
        switch node.kind {
        case .scalar:
            // A plain row on several lines: maybe rows folded into one by their indentation.
            if node.style == .plain && !node.isInSource && decodeFoldedRows(item, into: &transitions) { return }
            // A local copy of the buffer, so that reading it does not overlap this decoder's changes.
            let buffer = document.buffer(of: node)
            buffer.withUnsafeBytes { buffer in
                let row = RowFormParser.Scalar(
                    text: UnsafeRawBufferPointer(rebasing: buffer[node.start..<(node.start + node.count)]),
                    position: node.position,
                    contentOffset: node.style == .singleQuoted || node.style == .doubleQuoted ? 1 : 0, isASCII: node.isASCII)
                if let problem = RowFormParser.parse(row, into: &transitions, spellings: &spellings) {
                    diagnostics.append(problem)
                }
            }
        case .mapping:
            if let transition = decodeTransition(item) { transitions.append(transition) }
        case .sequence:
            error(.wrongKind, "a transition is a row 'INPUT | FROM => TO | EFFECTS' or a mapping, not a list", node.position)
        }
    }

    /// Rows folded into the row at `item` (``FoldedListItems``): reported, and each decoded as
    /// the row it is; false, with nothing done, when the row holds no other.
    private mutating func decodeFoldedRows(_ item: Int, into transitions: inout [TransitionDefinition]) -> Bool {
        let row = document.string(item)
        guard let parts = FoldedListItems.parts(of: row, at: document[item].position, in: document.source) else { return false }
        func parse(_ part: FoldedListItems.Part, into transitions: inout [TransitionDefinition], _ spellings: inout TextInterner) -> Diagnostic? {
            var text = part.text
            return text.withUTF8 { bytes in
                let scalar = RowFormParser.Scalar(
                    text: UnsafeRawBufferPointer(bytes), position: part.position, contentOffset: 0, isASCII: bytes.allSatisfy { $0 < 0x80 })
                return RowFormParser.parse(scalar, into: &transitions, spellings: &spellings)
            }
        }
        var trial: [TransitionDefinition] = []
        var trialSpellings = TextInterner()
        guard parts.allSatisfy({ parse($0, into: &trial, &trialSpellings) == nil }) else { return false }
        error(.invalidRow, FoldedListItems.message(parts, folded: row, kind: "row"), document[item].position)
        for part in parts { _ = parse(part, into: &transitions, &spellings) }
        return true
    }

    private mutating func decodeTransition(_ map: Int) -> TransitionDefinition? {
        // Each key read once: a lookup per key read all the keys again each time.
        let keyed = keyedEntries(map, allowed: MachineFileKeys.transition, in: "a transition")
        func entry(_ key: TransitionKey) -> YAMLDocument.Entry? { keyed[key.rawValue] }
        // Without `input`, the transition is eventless: taken as soon as its guard holds.
        let inputEntry = entry(.input)
        let input = inputEntry.map { name($0.value, "'input'") } ?? Named("", at: document[map].position)
        // `after: DURATION` instead of `input`: taken once the source has been active that long.
        let afterEntry = entry(.after)
        let after = afterEntry.flatMap { delay($0.value, "'after'") }
        if let afterEntry, inputEntry != nil {
            error(
                .invalidValue,
                "a transition is taken on an input or 'after' a delay, not both: leave out 'input' or 'after'",
                document[afterEntry.key].position)
        }
        let fromEntry = entry(.from)
        if fromEntry == nil { error(.missingKey, "missing required key 'from'", document[map].position) }
        var source: TransitionDefinition.Source?
        if let from = fromEntry?.value {
            if document[from].kind == .mapping {
                source = decodeExcept(from)
            } else if document[from].kind == .scalar, document.text(of: from, is: "*") {
                source = .anyNonFinal(document[from].position)
            } else {
                let states = names(from, "'from'")
                if states.contains(where: { $0.name == "*" }) {
                    error(.invalidValue, "'*' stands for every non-final state and cannot be listed with others", document[from].position)
                } else if !states.isEmpty {
                    source = .states(states)
                } else if document[from].kind == .sequence {
                    error(.invalidValue, "'from' lists no state", document[from].position)
                }
            }
        }
        var targets: [Named] = []
        if let entry = entry(.to), !(document[entry.value].kind == .scalar && document.isNull(entry.value)) {
            if document[entry.value].kind == .sequence {
                targets = names(entry.value, "'to'")
                if targets.isEmpty { error(.invalidValue, "'to' lists no state; leave 'to' out to stay", document[entry.value].position) }
            } else if let target = name(entry.value, "'to'") {
                targets = [target]
            }
        }
        var isInternal = false
        if let type = entry(.type), let text = string(type.value, "'type'") {
            switch text {
            case "internal": isInternal = true
            case "external": isInternal = false
            default:
                error(
                    .invalidValue, "'type' is 'external' or 'internal', not '\(text)'" + Suggestion.didYouMean(text, in: ["external", "internal"]),
                    document[type.value].position)
            }
        }
        let guardExpression = entry(.when).flatMap { expression($0.value, "'when'") }
        var effects = entry(.effects).map { names($0.value, "'effects'") } ?? []
        let refusal = entry(.reject).flatMap { refusalMessage($0.value) }
        if refusal != nil, let conflict = entry(.to) ?? entry(.effects) {
            error(
                .invalidValue,
                "a transition that rejects its input ('reject') changes nothing: it cannot have '\(document.string(conflict.key))' too",
                document[conflict.key].position)
            targets = []
            effects = []
        }
        let description = entry(.description).flatMap { string($0.value, "'description'") }
        // A malformed delay was reported: without it, the transition has no trigger.
        guard let input, let source, afterEntry == nil || after != nil || inputEntry != nil else { return nil }
        // Without rare parts, its names are kept as the interner's spellings.
        if targets.count <= 1 && refusal == nil && description == nil && inputEntry != nil {
            return TransitionDefinition(
                input, from: TransitionDefinition.StoredSource(source), to: targets.first, when: guardExpression, effects: NameList(effects),
                at: document[map].position, isInternal: isInternal, spellings: spellings.sharedSpellings())
        }
        return TransitionDefinition(
            input, from: source, to: targets.first, when: guardExpression, effects: effects, rejecting: refusal,
            description: description, at: document[map].position, moreTargets: Array(targets.dropFirst()), isInternal: isInternal,
            isEventless: inputEntry == nil && afterEntry == nil, after: inputEntry == nil ? after : nil)
    }

    /// The keys of a transition written as a mapping, in the order of ``MachineFileKeys/transition``
    /// (their indices there).
    private enum TransitionKey: Int {
        case input, after, from, to, when, effects, type, reject, description
    }

    /// `from: { not: NAME }` or `from: { not: [NAME, ...] }`: every non-final state but these.
    private mutating func decodeExcept(_ from: Int) -> TransitionDefinition.Source? {
        checkKeys(from, allowed: MachineFileKeys.excludedSources, in: "'from' (a state, a list of states, '*', or { not: STATES })")
        guard let excluded = required(from, "not") else { return nil }
        let states = names(excluded, "'not'")
        if states.contains(where: { $0.name == "*" }) {
            error(.invalidValue, "'not' lists the states to leave out of '*'; it cannot list '*'", document[excluded].position)
            return nil
        }
        if states.isEmpty {
            if document[excluded].kind == .sequence || document.isNull(excluded) {
                error(.invalidValue, "'not' lists no state; write from: '*' for every non-final state", document[excluded].position)
            }
            return nil
        }
        return .anyNonFinalExcept(states, document[excluded].position)
    }

    /// `reject: MESSAGE`: one line of text, shown as the rejection's message.
    private mutating func refusalMessage(_ node: Int) -> String? {
        guard document[node].kind == .scalar, !document.isNull(node) || document.text(of: node, is: "null") else {
            error(
                .wrongKind, "'reject' is the message the input is rejected with, not \(document.kindDescription(node))",
                document[node].position)
            return nil
        }
        let message = document.string(node)
        if message.allSatisfy({ $0 == " " }) {
            error(.invalidValue, "'reject' needs a message saying why the input is rejected", document[node].position)
            return nil
        }
        if message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            error(
                .invalidValue, "'reject' is a message on one line, without line breaks or control characters",
                document[node].position)
            return nil
        }
        return message
    }

    // MARK: - Values

    mutating func checkKeys(_ map: Int, allowed: [StaticString], in context: @autoclosure () -> String) {
        for entry in document.entries(map) where !allowed.contains(where: { document.text(of: entry.key, is: $0) }) {
            unknownKey(entry, allowed: allowed, in: context())
        }
    }

    private mutating func unknownKey(_ entry: YAMLDocument.Entry, allowed: [StaticString], in context: String) {
        let key = document.string(entry.key)
        let names = allowed.map { $0.description }
        error(
            .unknownKey,
            "unknown key '\(key)' in \(context)" + Suggestion.didYouMean(key, in: names)
                + "; expected one of: \(names.joined(separator: ", "))",
            document[entry.key].position)
    }

    /// A mapping's entries by key, at the index of the key in `allowed` (`nil` for a key it does
    /// not have), each key compared once; any other key is reported as ``checkKeys(_:allowed:in:)``
    /// reports it.
    mutating func keyedEntries(_ map: Int, allowed: [StaticString], in context: @autoclosure () -> String) -> [YAMLDocument.Entry?] {
        var keyed = [YAMLDocument.Entry?](repeating: nil, count: allowed.count)
        for entry in document.entries(map) {
            if let index = allowed.firstIndex(where: { document.text(of: entry.key, is: $0) }) {
                if keyed[index] == nil { keyed[index] = entry }
            } else {
                unknownKey(entry, allowed: allowed, in: context())
            }
        }
        return keyed
    }

    /// A mapping, or nothing for an empty value (`context:` with nothing under it).
    mutating func optionalMapping(_ node: Int, _ what: String) -> Int? {
        if document.isNull(node) { return nil }
        return mapping(node, what)
    }

    /// `true` or `false`; anything else is an error, read as `false`.
    private mutating func flag(_ node: Int, _ what: String) -> Bool {
        if document[node].kind == .scalar, case .bool(let value) = document.scalar(node).coreSchemaValue { return value }
        error(.wrongKind, "\(what) is true or false", document[node].position)
        return false
    }

    mutating func string(_ node: Int, _ what: String) -> String? {
        if document[node].kind == .scalar { return document.string(node) }
        error(.wrongKind, "\(what) must be a scalar, not \(document.kindDescription(node))\(document.quoteHint(node))", document[node].position)
        return nil
    }

    /// The interned text of a scalar.
    private mutating func interned(_ node: Int) -> String {
        let node = document[node]
        return document.buffer(of: node).withUnsafeBytes { spellings.string(UnsafeRawBufferPointer(rebasing: $0[node.start..<(node.start + node.count)])) }
    }

    /// A scalar as a name written at `position`, interned (``TextInterner/named(_:at:)``).
    private mutating func interned(_ node: Int, at position: SourcePosition) -> Named {
        let node = document[node]
        return document.buffer(of: node).withUnsafeBytes {
            spellings.named(UnsafeRawBufferPointer(rebasing: $0[node.start..<(node.start + node.count)]), at: position)
        }
    }

    /// A mapping entry's key as a name, where the key is written.
    mutating func key(_ entry: YAMLDocument.Entry) -> Named {
        interned(entry.key, at: document[entry.key].position)
    }

    /// A name: any non-empty scalar, read as a string whatever it looks like (`on`, `1`).
    mutating func name(_ node: Int, _ what: @autoclosure () -> String) -> Named? {
        let scalar = document[node]
        guard scalar.kind == .scalar else {
            error(.wrongKind, "\(what()) must be a name, not \(document.kindDescription(node))", scalar.position)
            return nil
        }
        if scalar.count == 0 || (document.isNull(node) && !document.text(of: node, is: "null")) {
            error(.wrongKind, "\(what()) must be a name, not empty", scalar.position)
            return nil
        }
        let offset = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
        return interned(node, at: scalar.position.advanced(by: offset))
    }

    /// One name or a list of names.
    mutating func names(_ node: Int, _ what: String) -> [Named] {
        if document[node].kind == .sequence { return document.items(node).compactMap { name($0, "each of \(what)") } }
        if document.isNull(node) { return [] }
        return name(node, what).map { [$0] } ?? []
    }

    /// An expression: the scalar's text, whatever its YAML quoting (docs/machine-files.md).
    mutating func expression(_ node: Int, _ what: String) -> ExpressionSource? {
        let scalar = document[node]
        guard scalar.kind == .scalar, !(document.isNull(node) && scalar.count == 0) else {
            error(.wrongKind, "\(what) must be an expression, not \(document.kindDescription(node))", scalar.position)
            return nil
        }
        if scalar.style == .plain, scalar.hasTag, let tag = document.tags[node], tag.hasPrefix("!") {
            error(.expressionSyntax, tagHint(node, tag: tag, what), scalar.position)
            return nil
        }
        let offset = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
        return ExpressionSource(interned(node), at: scalar.position, columnOffset: offset)
    }

    /// `when: !pedRequested`: YAML reads an unquoted value's leading `!` as a tag, leaving the
    /// expression empty (or without its first name). Says so, and shows the value quoted, with
    /// its key when the line names one.
    private func tagHint(_ node: Int, tag: String, _ what: String) -> String {
        let rest = document.string(node)
        let text = rest.isEmpty ? tag : "\(tag) \(rest)"
        let quoted = text.contains("\"") ? "'\(text.replacing("'", with: "''"))'" : "\"\(text)\""
        var key = ""
        let position = document[node].position
        let lines = document.source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if position.line >= 1, position.line <= lines.count {
            let line = Array(String(decoding: lines[position.line - 1], as: UTF8.self).unicodeScalars)
            var before = String(String.UnicodeScalarView(line[..<min(max(position.column - 1, 0), line.count)]))
            while before.hasSuffix(" ") { before.removeLast() }
            if before.hasSuffix(":") {
                key = String(before.dropLast().reversed().prefix { !" {,".contains($0) }.reversed())
            }
        }
        return "\(what) starts with '!', which YAML reads as a tag (\(tag)), leaving the expression "
            + (rest.isEmpty ? "empty" : "'\(rest)'") + "; quote it: " + (key.isEmpty ? quoted : "\(key): \(quoted)")
    }
}
