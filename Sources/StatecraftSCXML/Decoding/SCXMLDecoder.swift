import Statecraft

/// Decodes an SCXML document's elements (docs/scxml.md) into a ``MachineDefinition``, as the
/// YAML decoder does for machine files: the document's shape is checked here, with the line of
/// every problem, and references and types afterwards by ``MachineCompiler``. Every element and
/// attribute is either read with SCXML's meaning or refused: nothing is skipped.
struct SCXMLDecoder {
    var diagnostics: [Diagnostic] = []
    /// The document, read as the decoder goes: an element's children are read as it decodes them.
    let stream: XMLStreamReader

    // MARK: - What the document declares, collected as it is read

    var context: [ContextVariable] = []
    /// The `item` and `index` of every `<foreach>`, in document order: those that no `<data>`
    /// declares become context variables starting as `null`, as SCXML's `<foreach>` declares them.
    var loopVariables: [Named] = []
    var effects: [EffectDefinition] = []
    /// A named effect's first body: its elements as the reader recorded them, and its steps.
    struct NamedEffectBody {
        var written: [Int]
        var steps: [EffectDefinition.Step]
    }

    /// Named effects (`<sc:effect>`) read so far, with the body each was given first, to refuse
    /// a name given two bodies: by name, into ``namedEffectBodyList``, and by the name's
    /// spelling (the index + 1, 0 for none), so that most uses hash no string.
    var namedEffectBodies: [String: Int] = [:]
    var namedEffectBySpelling: [Int] = []
    var namedEffectBodyList: [NamedEffectBody] = []
    /// How many effects each generated name (`STATE.onentry`, ...) has had.
    var generatedEffectCounts: [String: Int] = [:]
    var transitions: [TransitionDefinition] = []
    /// Event names that transitions take exactly or that `<raise>` and `<send>` name, in first
    /// mention order; event descriptors that end in `.*` are patterns and add no name.
    var eventNames: [Named] = []
    var knownEventNames: Set<String> = []
    /// By spelling (``Named/spelling``): whether an event name of that spelling is in ``knownEventNames``.
    var usedEventSpellings: [Bool] = []
    /// The names that `NAME.*` descriptors extend, in order: without `<sc:input>` declarations
    /// each is an event name too, since the descriptor takes `NAME` itself and every event that
    /// extends it (``eventNames``).
    var patternStems: [Named] = []
    /// `<sc:input>` declarations; when there is one, the machine's inputs are exactly these.
    var declaredInputs: [InputDeclaration] = []
    /// States with children, whose done events transitions may name.
    var doneEventNames: [String] = []
    var isNullDatamodel = false
    /// `sc:on-error`: SCXML's error events unless the document says `reject`.
    var onError = MachineDefinition.ErrorPolicy.raise
    /// The ids made up so far, and those of the document known before it is read (when it is
    /// read a second time, see ``madeUpIds``): made-up ids avoid them, and those the stream has
    /// read so far (``XMLStreamReader/stateIds``).
    var ids: Set<String>
    /// The ids made up for states without one and for `<send idlocation>`, in order. One that a
    /// state further on turns out to give is a clash: the document is then decoded again,
    /// knowing all its ids from the start, as if it had been read whole first.
    var madeUpIds: [String] = []
    var generatedIdCount = 0
    /// Where in ``diagnostics`` the stream's diagnostics of misplaced text go: after those of
    /// `<scxml>`'s attributes. `nil` when the document is not SCXML, whose text is not judged.
    var textDiagnosticsIndex: Int?

    init(_ stream: XMLStreamReader, knownIds: Set<String>) {
        self.stream = stream
        self.ids = knownIds
    }

    /// Decodes the document from its root element; `nil` when it is too broken to describe a machine.
    mutating func decode(_ root: XMLElement, defaultName: String) -> MachineDefinition? {
        guard root.name == "scxml", isSCXML(root) else {
            error(.unsupported, "the document's root is <\(root.name)>, not <scxml> (namespace \(XMLStreamReader.scxmlNamespace))", root)
            return nil
        }
        checkAttributes(root)
        if let version = root.attribute("version"), version != "1.0" {
            error(.invalidValue, "<scxml version> is \"1.0\", not \"\(version)\"", root)
        }
        if let binding = root.attribute("binding"), binding != "early" {
            error(
                .unsupported,
                binding == "late"
                    ? "binding=\"late\" is not supported: every <data> is set when the machine starts (early binding)"
                    : "<scxml binding> is \"early\" or \"late\", not \"\(binding)\"", root)
        }
        switch root.attribute("datamodel") ?? SCXMLVocabulary.ownDatamodel {
        case SCXMLVocabulary.ownDatamodel: break
        case SCXMLVocabulary.nullDatamodel: isNullDatamodel = true
        case let other:
            error(
                .unsupported,
                "datamodel=\"\(other)\" is not supported; conditions and values are written in Statecraft's expression language (datamodel=\"\(SCXMLVocabulary.ownDatamodel)\", the default) or there is no data (datamodel=\"null\")",
                root)
        }
        // An event that no transition takes is discarded in SCXML: ignored, unless the document says otherwise.
        var onUnhandled = MachineDefinition.UnhandledPolicy.ignore
        if let text = root.attribute("on-unhandled", namespace: .statecraft) {
            if let policy = MachineDefinition.UnhandledPolicy(rawValue: text) {
                onUnhandled = policy
            } else {
                error(.invalidValue, "sc:on-unhandled is 'reject' or 'ignore', not '\(text)'", root)
            }
        }
        // A step that fails raises error.execution in SCXML, unless the document says otherwise.
        if let text = root.attribute("on-error", namespace: .statecraft) {
            if let policy = MachineDefinition.ErrorPolicy(rawValue: text) {
                onError = policy
            } else {
                error(.invalidValue, "sc:on-error is 'raise' or 'reject', not '\(text)'", root)
            }
        }
        textDiagnosticsIndex = diagnostics.count
        var states: [StateDeclaration] = []
        while let element = stream.nextChild(of: root) {
            if isStatecraft(element) {
                switch element.name {
                case "input": declareInput(element)
                default: error(.unknownKey, "<sc:\(element.name)> cannot appear in <scxml>; Statecraft's element there is <sc:input>", element)
                }
                continue
            }
            guard isSCXML(element) else {
                foreignElement(element)
                continue
            }
            switch element.name {
            case "state", "parallel", "final": if let state = decodeState(element) { states.append(state) }
            case "datamodel": decodeDatamodel(element)
            default: misplaced(element, in: "<scxml>", allowed: ["state", "parallel", "final", "datamodel"])
            }
        }
        guard let first = states.first else {
            error(.missingKey, "an <scxml> document needs at least one <state>, <parallel> or <final>", root)
            return nil
        }
        let initial = decodeRootInitial(root) ?? [first.name]
        let name = root.attribute("name") ?? defaultName
        if declaredInputs.isEmpty { for stem in patternStems { useEvent(stem) } }
        resolvePatterns()
        declareLoopVariables()
        var definition = MachineDefinition(
            name: name, description: root.attribute("description", namespace: .statecraft),
            initial: initial[0], onUnhandled: onUnhandled, context: context, inputs: machineInputs(), states: states,
            effects: effects, transitions: transitions)
        definition.otherInitialStates = Array(initial.dropFirst())
        definition.onError = onError
        // Without declarations every valid event name is an input, named or not (SCXML 3.12.1).
        definition.acceptsUndeclaredEvents = declaredInputs.isEmpty
        return definition
    }

    /// The `<foreach>` items and indexes that no `<data>` declares, each once, as variables
    /// starting as `null` (their type is the items' and int).
    private mutating func declareLoopVariables() {
        var declared = Set(context.map(\.name.name))
        for name in loopVariables where !declared.contains(name.name) {
            declared.insert(name.name)
            context.append(ContextVariable(name, .null))
        }
    }

    /// `<scxml initial>`: one state, or several in different regions of a parallel state.
    private mutating func decodeRootInitial(_ root: XMLElement) -> [Named]? {
        guard let text = root.attribute("initial") else { return nil }
        let names = XMLWhitespace.tokens(text)
        guard !names.isEmpty else {
            error(.invalidValue, "<scxml initial> is empty", root)
            return nil
        }
        return names.map { Named($0, at: root.position) }
    }

    /// The machine's inputs: the `<sc:input>` declarations when there are any, else every
    /// event name the document uses, the names its `NAME.*` descriptors extend among them (and
    /// the done events of its compound states it names).
    private func machineInputs() -> [InputDeclaration] {
        if !declaredInputs.isEmpty { return declaredInputs }
        return eventNames.map { InputDeclaration($0) }
    }

    // MARK: - States

    /// The state's id, or one made up for a state without one (`_state1`, ...), as SCXML allows.
    private mutating func stateName(_ element: XMLElement) -> Named {
        if let id = element.named("id") { return id }
        return Named(madeUpId(prefix: "_state"), at: element.position)
    }

    /// A new id, `PREFIX1`, `PREFIX2`, ..., that the document does not give.
    mutating func madeUpId(prefix: String) -> String {
        var name: String
        repeat {
            generatedIdCount += 1
            name = prefix + String(generatedIdCount)
        } while ids.contains(name) || stream.stateIds.contains(name)
        ids.insert(name)
        madeUpIds.append(name)
        return name
    }

    private mutating func decodeState(_ element: XMLElement) -> StateDeclaration? {
        checkAttributes(element)
        let name = stateName(element)
        var state = StateDeclaration(
            name, isFinal: element.name == "final", description: element.attribute("description", namespace: .statecraft),
            isParallel: element.name == "parallel")
        if let initial = element.named("initial") {
            state.initial = names(initial)
        }
        var transitionCount = 0
        var hasInitialElement = false
        while let childElement = stream.nextChild(of: element) {
            guard isSCXML(childElement) else {
                if isStatecraft(childElement) {
                    error(.unknownKey, "<sc:\(childElement.name)> cannot appear in <\(element.name)>", childElement)
                } else {
                    foreignElement(childElement)
                }
                continue
            }
            switch (element.name, childElement.name) {
            case (_, "onentry"):
                checkAttributes(childElement)
                state.entry += executableBlock(childElement, effectName: name.name + ".onentry")
            case (_, "onexit"):
                checkAttributes(childElement)
                state.exit += executableBlock(childElement, effectName: name.name + ".onexit")
            case ("state", "transition"), ("parallel", "transition"):
                transitionCount += 1
                decodeTransition(childElement, from: name, number: transitionCount)
            case ("state", "state"), ("state", "parallel"), ("state", "final"), ("parallel", "state"), ("parallel", "parallel"),
                ("state", "history"), ("parallel", "history"):
                if let nested = childElement.name == "history" ? decodeHistory(childElement) : decodeState(childElement) {
                    state.children.append(nested)
                }
            case ("state", "initial"):
                if element.attribute("initial") != nil {
                    error(.invalidValue, "<state id=\"\(name.name)\"> has both an initial attribute and an <initial> element", childElement)
                } else if hasInitialElement {
                    error(.invalidValue, "<state id=\"\(name.name)\"> has two <initial> elements", childElement)
                }
                hasInitialElement = true
                (state.initial, state.defaultEffects) = initialTransition(childElement, effectName: name.name + ".initial")
            case (_, "datamodel"):
                decodeDatamodel(childElement)
            default:
                let allowed: [String] =
                    switch element.name {
                    case "state": ["onentry", "onexit", "transition", "initial", "state", "parallel", "final", "history", "datamodel"]
                    case "parallel": ["onentry", "onexit", "transition", "state", "parallel", "history", "datamodel"]
                    default: ["onentry", "onexit"]
                    }
                misplaced(childElement, in: "<\(element.name)>", allowed: allowed)
            }
        }
        if !state.children.isEmpty || state.isParallel {
            let done = "done.state." + name.name
            doneEventNames.append(done)
        }
        return state
    }

    private mutating func decodeHistory(_ element: XMLElement) -> StateDeclaration? {
        checkAttributes(element)
        let kind: StateDeclaration.HistoryKind
        switch element.attribute("type") ?? "shallow" {
        case "shallow": kind = .shallow
        case "deep": kind = .deep
        case let other:
            error(.invalidValue, "<history type> is \"shallow\" or \"deep\", not \"\(other)\"", element)
            kind = .shallow
        }
        var state = StateDeclaration(stateName(element), history: kind)
        var seen = false
        while let child = stream.nextChild(of: element) {
            if isSCXML(child), child.name == "transition" {
                if seen { error(.invalidValue, "a <history> has one default <transition>", child) }
                seen = true
                (state.historyDefault, state.defaultEffects) = pseudoStateTransition(child, effectName: state.name.name + ".default")
            } else {
                misplaced(child, in: "<history>", allowed: ["transition"])
            }
        }
        return state
    }

    /// The targets and effects of the one `<transition>` of an `<initial>`. Of several, none is
    /// kept, and what decoding the first of them found is dropped.
    private mutating func initialTransition(_ element: XMLElement, effectName: String) -> (targets: [Named], effects: [Named]) {
        checkAttributes(element)
        var transitionCount = 0
        var first: (targets: [Named], effects: [Named]) = ([], [])
        var firstDiagnostics = diagnostics.count..<diagnostics.count
        while let child = stream.nextChild(of: element) {
            guard isSCXML(child), child.name == "transition" else {
                misplaced(child, in: "<initial>", allowed: ["transition"])
                continue
            }
            transitionCount += 1
            if transitionCount == 1 {
                let start = diagnostics.count
                first = pseudoStateTransition(child, effectName: effectName)
                firstDiagnostics = start..<diagnostics.count
            } else if transitionCount == 2 {
                diagnostics.removeSubrange(firstDiagnostics)
            }
        }
        guard transitionCount == 1 else {
            error(.invalidValue, "an <initial> holds exactly one <transition>, not \(transitionCount)", element)
            return ([], [])
        }
        return first
    }

    /// The targets of the `<transition>` of an `<initial>`, or of a `<history>`'s default, and
    /// the effects of its executable content (named `effectName`).
    private mutating func pseudoStateTransition(_ element: XMLElement, effectName: String) -> (targets: [Named], effects: [Named]) {
        checkAttributes(element)
        for attribute in ["event", "cond", "type"] where element.attribute(attribute) != nil {
            error(.invalidValue, "the <transition> of an <initial> or a <history> takes no \(attribute)", element)
        }
        let effects = executableBlock(element, effectName: effectName)
        guard let target = element.named("target") else {
            error(.missingKey, "the <transition> of an <initial> or a <history> needs a target", element)
            return ([], effects)
        }
        return (names(target), effects)
    }

    /// A space-separated list of ids; one id (most lists) keeps the value's spelling.
    func names(_ value: Named) -> [Named] {
        if stream.shape(of: value).contains(.oneToken) { return [value] }
        return XMLWhitespace.tokens(value.name).map { Named($0, at: value.position) }
    }

    // MARK: - Transitions

    private mutating func decodeTransition(_ element: XMLElement, from source: Named, number: Int) {
        checkAttributes(element)
        // `if let` rather than `map` with a closure: a closure calling a method of the decoder
        // from this mutating method copies the whole decoder, once per transition.
        var target: Named?
        var moreTargets: [Named] = []
        if let value = element.named("target") {
            if stream.shape(of: value).contains(.oneToken) {
                target = value
            } else {
                let targets = names(value)
                if targets.isEmpty { error(.invalidValue, "<transition target> is empty; leave it out for a transition that stays", element) }
                target = targets.first
                moreTargets = Array(targets.dropFirst())
            }
        }
        var isInternal = false
        switch element.attribute("type") {
        case nil, "external": break
        case "internal": isInternal = true
        case let other?: error(.invalidValue, "<transition type> is \"internal\" or \"external\", not \"\(other)\"", element)
        }
        var guardExpression: ExpressionSource?
        if let condition = element.attribute("cond") { guardExpression = expression(condition, element) }
        let effects = executableBlock(element, effectName: "\(source.name).transition.\(number)")
        let refusal = element.attribute("reject", namespace: .statecraft)
        if refusal != nil && (target != nil || !effects.isEmpty) {
            error(.invalidValue, "a transition with sc:reject has no target and no executable content", element)
        }
        let description = element.attribute("description", namespace: .statecraft)
        let event = element.named("event")
        let position = element.position
        // One event name, not a pattern, one target or none, and none of the rare parts (most
        // transitions): built from its parts handed over, not copied (a copy retains each name),
        // and without an array for the one source state.
        if let event, stream.shape(of: event) == .oneToken, moreTargets.isEmpty, refusal == nil, description == nil {
            useEvent(event)
            transitions.append(
                TransitionDefinition(
                    consume event, from: .state(source), to: consume target, when: consume guardExpression,
                    effects: NameList(consume effects), at: position, isInternal: isInternal, isEventless: false,
                    spellings: stream.spellingTable()))
            return
        }
        // Not a nested function: one capturing the `var`s above would box them on the heap.
        let parts = TransitionParts(
            source: source, target: target, moreTargets: moreTargets, guardExpression: guardExpression, effects: effects,
            refusal: refusal, description: description, position: position, isInternal: isInternal)
        func transition(_ input: Named, isEventless: Bool) -> TransitionDefinition { parts.transition(input, isEventless: isEventless) }
        // One event name, not a pattern, with rare parts: the value itself, its spelling kept.
        if let event, stream.shape(of: event) == .oneToken {
            useEvent(event)
            transitions.append(transition(event, isEventless: false))
            return
        }
        var descriptors: [(name: String, isPattern: Bool)] = []
        if let event {
            descriptors = XMLWhitespace.tokens(event.name).map(Self.eventDescriptor)
            if descriptors.isEmpty { error(.invalidValue, "<transition event> is empty; leave it out for an eventless transition", element) }
        }
        if descriptors.isEmpty {
            transitions.append(transition(Named("", at: position), isEventless: true))
        }
        // A transition on several descriptors is one transition per descriptor, in a row: for any
        // event, the first of them that matches is taken, as the one SCXML transition would be.
        for descriptor in descriptors {
            if !descriptor.isPattern {
                useEvent(Named(descriptor.name, at: position))
            } else if descriptor.name != "*" {
                patternStems.append(Named(descriptor.name, at: position))
            }
            let input = descriptor.isPattern && descriptor.name != "*" ? descriptor.name + ".*" : descriptor.name
            transitions.append(transition(Named(input, at: position), isEventless: false))
        }
    }

    /// What the transitions made of one `<transition>` share, but their input.
    private struct TransitionParts {
        var source: Named
        var target: Named?
        var moreTargets: [Named]
        var guardExpression: ExpressionSource?
        var effects: [Named]
        var refusal: String?
        var description: String?
        var position: SourcePosition
        var isInternal: Bool

        func transition(_ input: Named, isEventless: Bool) -> TransitionDefinition {
            // Most transitions have one target and none of the rare parts: built from their
            // stored parts, without an array for the one source state.
            if moreTargets.isEmpty && refusal == nil && description == nil {
                return TransitionDefinition(
                    input, from: .state(source), to: target, when: guardExpression, effects: NameList(effects), at: position,
                    isInternal: isInternal, isEventless: isEventless)
            }
            return TransitionDefinition(
                input, from: .states([source]), to: target, when: guardExpression, effects: effects, rejecting: refusal,
                description: description, at: position, moreTargets: moreTargets, isInternal: isInternal,
                isEventless: isEventless)
        }
    }

    /// An SCXML event descriptor: `*`, or a name matching itself and the names that extend it by
    /// `.`-separated tokens; `NAME.*` and `NAME.` say the same. Returns the name, and whether it
    /// was written as a pattern (`*`: the name `*`).
    private static func eventDescriptor(_ text: String) -> (name: String, isPattern: Bool) {
        if text == "*" { return ("*", true) }
        // Read as bytes: Substring's hasSuffix is slow, and this runs once per transition.
        let bytes = text.utf8
        let (dot, star) = (UInt8(ascii: "."), UInt8(ascii: "*"))
        if bytes.last == star && bytes.dropLast().last == dot { return (String(text.dropLast(2)), true) }
        if bytes.last == dot { return (String(text.dropLast()), true) }
        return (text, false)
    }

    /// SCXML's descriptor `NAME` also matches `NAME.more`: where the machine has such an input,
    /// the transition on `NAME` becomes the pattern `NAME.*`, which the compiler expands over
    /// the inputs (done events included). `NAME.*` and `*` stay as they are.
    private mutating func resolvePatterns() {
        var inputs = (declaredInputs.isEmpty ? eventNames.map(\.name) : declaredInputs.map(\.name.name)) + doneEventNames
        // The machine raises error.execution: a descriptor `error` takes it.
        if onError == .raise { inputs.append(SCXMLVocabulary.errorExecutionEvent) }
        var extended: Set<String> = []
        for name in inputs {
            var prefix = Substring(name)
            while let dot = prefix.lastIndex(of: ".") {
                prefix = prefix[..<dot]
                extended.insert(String(prefix))
            }
        }
        guard !extended.isEmpty else { return }
        // In place, reading only the input's fields: a copy of every transition costs more than
        // the check. An input name is looked up once per spelling (a large document names a
        // few hundred events on 100,000 transitions), and the answer kept by its spelling.
        var becomesPattern: [UInt8] = []  // by spelling: 0 not known yet, 1 no, 2 yes
        for index in transitions.indices where !transitions[index].isEventless {
            let spelling = transitions[index].input.spelling
            if spelling >= 0 && spelling < becomesPattern.count && becomesPattern[spelling] != 0 {
                if becomesPattern[spelling] == 2 { transitions[index].input.name += ".*" }
                continue
            }
            let name = transitions[index].input.name
            // SCXML's transitions have no `after` delay: a pattern is one by its name alone.
            let extends = !TransitionDefinition.isPattern(name, isEventless: false, hasDelay: false) && extended.contains(name)
            if spelling >= 0 {
                if spelling >= becomesPattern.count { becomesPattern += repeatElement(0, count: spelling + 1 - becomesPattern.count) }
                becomesPattern[spelling] = extends ? 2 : 1
            }
            if extends { transitions[index].input.name += ".*" }
        }
    }

    mutating func useEvent(_ name: Named) {
        // A name with a spelling met before is known: no need to hash it again.
        if name.spelling >= 0 {
            if name.spelling < usedEventSpellings.count && usedEventSpellings[name.spelling] { return }
            if name.spelling >= usedEventSpellings.count {
                usedEventSpellings += repeatElement(false, count: name.spelling + 1 - usedEventSpellings.count)
            }
            usedEventSpellings[name.spelling] = true
        }
        if knownEventNames.insert(name.name).inserted { eventNames.append(name) }
    }

    // MARK: - Statecraft's inputs

    private mutating func declareInput(_ element: XMLElement) {
        checkAttributes(element)
        guard let name = element.named("name") else {
            error(.missingKey, "<sc:input> needs a name", element)
            return
        }
        var type: ValueType?
        if let arg = element.attribute("arg") {
            if let argumentType = ValueType(rawValue: arg), ValueType.argumentTypes.contains(argumentType) {
                type = argumentType
            } else {
                error(.argumentType, "an argument type is int, double, bool or string, not '\(arg)'", element)
            }
        }
        var isInternal = false
        switch element.attribute("internal") {
        case nil, "false": break
        case "true": isInternal = true
        case let other?: error(.invalidValue, "<sc:input internal> is \"true\" or \"false\", not \"\(other)\"", element)
        }
        if let child = stream.nextChild(of: element) { misplaced(child, in: "<sc:input>", allowed: []) }
        declaredInputs.append(
            InputDeclaration(
                name, argumentType: type, description: element.attribute("description"),
                argumentTypePosition: element.position, isInternal: isInternal))
    }
}
