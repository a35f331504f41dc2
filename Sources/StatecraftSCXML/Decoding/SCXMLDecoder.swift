import Statecraft

/// Decodes an SCXML document's elements (docs/scxml.md) into a ``MachineDefinition``, as the
/// YAML decoder does for machine files: the document's shape is checked here, with the line of
/// every problem, and references and types afterwards by ``MachineCompiler``. Every element and
/// attribute is either read with SCXML's meaning or refused: nothing is skipped.
struct SCXMLDecoder {
    var diagnostics: [Diagnostic] = []
    let tree: XMLTree

    // MARK: - What the document declares, collected as it is read

    var context: [ContextVariable] = []
    var effects: [EffectDefinition] = []
    /// Named effects (`<sc:effect>`) read so far: their body's text, to refuse a name given two bodies.
    var namedEffectBodies: [String: String] = [:]
    /// How many effects each generated name (`STATE.onentry`, ...) has had.
    var generatedEffectCounts: [String: Int] = [:]
    var transitions: [TransitionDefinition] = []
    /// Event names that transitions take exactly or that `<raise>` and `<send>` name, in first
    /// mention order; event descriptors that end in `.*` are patterns and add no name.
    var eventNames: [Named] = []
    var knownEventNames: Set<String> = []
    /// `<sc:input>` declarations; when there is one, the machine's inputs are exactly these.
    var declaredInputs: [InputDeclaration] = []
    /// States with children, whose done events transitions may name.
    var doneEventNames: [String] = []
    var isNullDatamodel = false
    /// `sc:on-error`: SCXML's error events unless the document says `reject`.
    var onError = MachineDefinition.ErrorPolicy.raise
    /// Every id the document gives, so that generated ids avoid them.
    var ids: Set<String> = []
    var generatedIdCount = 0

    init(_ tree: XMLTree) {
        self.tree = tree
    }

    /// Decodes the document; `nil` when it is too broken to describe a machine.
    mutating func decode(defaultName: String) -> MachineDefinition? {
        let root = tree[0]
        guard root.name == "scxml", isSCXML(root) else {
            error(.unsupported, "the document's root is <\(root.name)>, not <scxml> (namespace \(XMLTreeReader.scxmlNamespace))", root)
            return nil
        }
        checkAttributes(0)
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
        collectIds()

        var states: [StateDeclaration] = []
        for child in root.children {
            let element = tree[child]
            if isStatecraft(element) {
                switch element.name {
                case "input": declareInput(child)
                default: error(.unknownKey, "<sc:\(element.name)> cannot appear in <scxml>; Statecraft's element there is <sc:input>", element)
                }
                continue
            }
            guard isSCXML(element) else {
                foreignElement(element)
                continue
            }
            switch element.name {
            case "state", "parallel", "final": if let state = decodeState(child) { states.append(state) }
            case "datamodel": decodeDatamodel(child)
            default: misplaced(child, in: "<scxml>", allowed: ["state", "parallel", "final", "datamodel"])
            }
        }
        guard let first = states.first else {
            error(.missingKey, "an <scxml> document needs at least one <state>, <parallel> or <final>", root)
            return nil
        }
        let initial = decodeRootInitial(root) ?? [first.name]
        let name = root.attribute("name") ?? defaultName
        var definition = MachineDefinition(
            name: name, description: root.attribute("description", namespace: .statecraft),
            initial: initial[0], onUnhandled: onUnhandled, context: context, inputs: machineInputs(), states: states,
            effects: effects, transitions: resolvePatterns(transitions))
        definition.otherInitialStates = Array(initial.dropFirst())
        definition.onError = onError
        return definition
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
    /// event name the document uses (and the done events of its compound states it names).
    private func machineInputs() -> [InputDeclaration] {
        if !declaredInputs.isEmpty { return declaredInputs }
        return eventNames.map { InputDeclaration($0) }
    }

    // MARK: - States

    /// Collects the ids, and refuses text where SCXML has none (only `<data>` and `<content>`
    /// hold a value; `<script>`'s is refused with the element).
    private mutating func collectIds() {
        for element in tree.elements where isSCXML(element) {
            if let id = element.attribute("id"), ["state", "parallel", "final", "history"].contains(element.name) { ids.insert(id) }
            if element.text != nil, !["data", "content", "script"].contains(element.name) {
                error(.invalidValue, "<\(element.name)> holds no text", element)
            }
        }
    }

    /// The state's id, or one made up for a state without one (`_state1`, ...), as SCXML allows.
    private mutating func stateName(_ element: XMLElement) -> Named {
        if let id = element.attribute("id") { return Named(id, at: element.position) }
        var name: String
        repeat {
            generatedIdCount += 1
            name = "_state\(generatedIdCount)"
        } while ids.contains(name)
        ids.insert(name)
        return Named(name, at: element.position)
    }

    private mutating func decodeState(_ index: Int) -> StateDeclaration? {
        checkAttributes(index)
        let element = tree[index]
        let name = stateName(element)
        var state = StateDeclaration(
            name, isFinal: element.name == "final", description: element.attribute("description", namespace: .statecraft),
            isParallel: element.name == "parallel")
        if let initial = element.attribute("initial") {
            state.initial = names(initial, element)
        }
        var transitionCount = 0
        var initialElement: XMLElement?
        for child in element.children {
            let childElement = tree[child]
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
                checkAttributes(child)
                state.entry += executableBlock(child, effectName: name.name + ".onentry")
            case (_, "onexit"):
                checkAttributes(child)
                state.exit += executableBlock(child, effectName: name.name + ".onexit")
            case ("state", "transition"), ("parallel", "transition"):
                transitionCount += 1
                decodeTransition(child, from: name, number: transitionCount)
            case ("state", "state"), ("state", "parallel"), ("state", "final"), ("parallel", "state"), ("parallel", "parallel"),
                ("state", "history"), ("parallel", "history"):
                if let nested = childElement.name == "history" ? decodeHistory(child) : decodeState(child) {
                    state.children.append(nested)
                }
            case ("state", "initial"):
                if element.attribute("initial") != nil {
                    error(.invalidValue, "<state id=\"\(name.name)\"> has both an initial attribute and an <initial> element", childElement)
                } else if initialElement != nil {
                    error(.invalidValue, "<state id=\"\(name.name)\"> has two <initial> elements", childElement)
                }
                initialElement = childElement
                (state.initial, state.defaultEffects) = pseudoStateTransition(child, effectName: name.name + ".initial")
            case (_, "datamodel"):
                decodeDatamodel(child)
            default:
                let allowed: [String] =
                    switch element.name {
                    case "state": ["onentry", "onexit", "transition", "initial", "state", "parallel", "final", "history", "datamodel"]
                    case "parallel": ["onentry", "onexit", "transition", "state", "parallel", "history", "datamodel"]
                    default: ["onentry", "onexit"]
                    }
                misplaced(child, in: "<\(element.name)>", allowed: allowed)
            }
        }
        if !state.children.isEmpty || state.isParallel {
            let done = "done.state." + name.name
            doneEventNames.append(done)
        }
        return state
    }

    private mutating func decodeHistory(_ index: Int) -> StateDeclaration? {
        checkAttributes(index)
        let element = tree[index]
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
        for child in element.children {
            if isSCXML(tree[child]), tree[child].name == "transition" {
                if seen { error(.invalidValue, "a <history> has one default <transition>", tree[child]) }
                seen = true
                (state.historyDefault, state.defaultEffects) = pseudoStateTransition(child, effectName: state.name.name + ".default")
            } else {
                misplaced(child, in: "<history>", allowed: ["transition"])
            }
        }
        return state
    }

    /// The targets of the one `<transition>` of an `<initial>`, or of a `<history>`'s default,
    /// and the effects of its executable content (named `effectName`).
    private mutating func pseudoStateTransition(_ index: Int, effectName: String) -> (targets: [Named], effects: [Named]) {
        let element = tree[index]
        if element.name == "initial" {
            checkAttributes(index)
            let transitions = element.children.filter { isSCXML(tree[$0]) && tree[$0].name == "transition" }
            for child in element.children where !transitions.contains(child) {
                misplaced(child, in: "<initial>", allowed: ["transition"])
            }
            guard transitions.count == 1 else {
                error(.invalidValue, "an <initial> holds exactly one <transition>, not \(transitions.count)", element)
                return ([], [])
            }
            return pseudoStateTransition(transitions[0], effectName: effectName)
        }
        checkAttributes(index)
        for attribute in ["event", "cond", "type"] where element.attribute(attribute) != nil {
            error(.invalidValue, "the <transition> of an <initial> or a <history> takes no \(attribute)", element)
        }
        let effects = executableBlock(index, effectName: effectName)
        guard let target = element.attribute("target") else {
            error(.missingKey, "the <transition> of an <initial> or a <history> needs a target", element)
            return ([], effects)
        }
        return (names(target, element), effects)
    }

    /// A space-separated list of ids.
    func names(_ text: String, _ element: XMLElement) -> [Named] {
        XMLWhitespace.tokens(text).map { Named($0, at: element.position) }
    }

    // MARK: - Transitions

    private mutating func decodeTransition(_ index: Int, from source: Named, number: Int) {
        checkAttributes(index)
        let element = tree[index]
        // `if let` rather than `map` with a closure: a closure calling a method of the decoder
        // from this mutating method copies the whole decoder, once per transition.
        var targets: [Named] = []
        if let target = element.attribute("target") {
            targets = names(target, element)
            if targets.isEmpty { error(.invalidValue, "<transition target> is empty; leave it out for a transition that stays", element) }
        }
        var isInternal = false
        switch element.attribute("type") {
        case nil, "external": break
        case "internal": isInternal = true
        case let other?: error(.invalidValue, "<transition type> is \"internal\" or \"external\", not \"\(other)\"", element)
        }
        var guardExpression: ExpressionSource?
        if let condition = element.attribute("cond") { guardExpression = expression(condition, element) }
        let effects = element.children.isEmpty ? [] : executableBlock(index, effectName: "\(source.name).transition.\(number)")
        let refusal = element.attribute("reject", namespace: .statecraft)
        if refusal != nil && (!targets.isEmpty || !effects.isEmpty) {
            error(.invalidValue, "a transition with sc:reject has no target and no executable content", element)
        }
        var descriptors: [(name: String, isPattern: Bool)] = []
        if let event = element.attribute("event") {
            descriptors = XMLWhitespace.tokens(event).map(Self.eventDescriptor)
            if descriptors.isEmpty { error(.invalidValue, "<transition event> is empty; leave it out for an eventless transition", element) }
        }
        func transition(_ input: Named, isEventless: Bool) -> TransitionDefinition {
            TransitionDefinition(
                input, from: .states([source]), to: targets.first, when: guardExpression, effects: effects, rejecting: refusal,
                description: element.attribute("description", namespace: .statecraft), at: element.position,
                moreTargets: Array(targets.dropFirst()), isInternal: isInternal, isEventless: isEventless)
        }
        if descriptors.isEmpty {
            transitions.append(transition(Named("", at: element.position), isEventless: true))
        }
        // A transition on several descriptors is one transition per descriptor, in a row: for any
        // event, the first of them that matches is taken, as the one SCXML transition would be.
        for descriptor in descriptors {
            if !descriptor.isPattern { useEvent(Named(descriptor.name, at: element.position)) }
            let input = descriptor.isPattern && descriptor.name != "*" ? descriptor.name + ".*" : descriptor.name
            transitions.append(transition(Named(input, at: element.position), isEventless: false))
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
    private func resolvePatterns(_ transitions: [TransitionDefinition]) -> [TransitionDefinition] {
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
        return transitions.map { transition in
            guard !transition.isEventless, !transition.isPattern, extended.contains(transition.input.name) else { return transition }
            var pattern = transition
            pattern.input.name += ".*"
            return pattern
        }
    }

    mutating func useEvent(_ name: Named) {
        if knownEventNames.insert(name.name).inserted { eventNames.append(name) }
    }

    // MARK: - Statecraft's inputs

    private mutating func declareInput(_ index: Int) {
        checkAttributes(index)
        let element = tree[index]
        guard let name = element.attribute("name") else {
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
        if !element.children.isEmpty { misplaced(element.children[0], in: "<sc:input>", allowed: []) }
        declaredInputs.append(
            InputDeclaration(
                Named(name, at: element.position), argumentType: type, description: element.attribute("description"),
                argumentTypePosition: element.position, isInternal: isInternal))
    }
}
