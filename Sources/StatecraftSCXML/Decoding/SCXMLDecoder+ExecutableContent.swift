import Statecraft

// Executable content (`<onentry>`, `<onexit>`, a `<transition>`'s body) as effects. A block's
// SCXML elements become one effect named after where they are (`STATE.onentry`, `STATE.onexit`,
// `STATE.transition.N`; a second block of a state `STATE.onentry.2`), whose steps are the
// elements in order, and each `<sc:effect name="NAME">` the effect NAME, so that a machine
// file's effect names survive a round trip.
extension SCXMLDecoder {
    /// The effects that `block`'s executable content runs, in order; their bodies are added to ``effects``.
    /// `base` is made only for a block that has content (most transitions have none).
    mutating func executableBlock(_ block: XMLElement, effectName base: @autoclosure () -> String) -> [Named] {
        var names: [Named] = []
        var steps: [EffectDefinition.Step] = []
        var start = block.position
        while let element = stream.nextChild(of: block) {
            if isStatecraft(element) && element.name == "effect" {
                if !steps.isEmpty { flush(&steps, at: start, into: &names, base: base()) }
                names.append(namedEffect(element))
                continue
            }
            if steps.isEmpty { start = element.position }
            step(element, into: &steps)
        }
        if !steps.isEmpty { flush(&steps, at: start, into: &names, base: base()) }
        return names
    }

    /// Makes the steps so far, which are some, one effect.
    private mutating func flush(_ steps: inout [EffectDefinition.Step], at position: SourcePosition, into names: inout [Named], base: String) {
        let count = (generatedEffectCounts[base] ?? 0) + 1
        generatedEffectCounts[base] = count
        let effect = EffectDefinition(Named(count > 1 ? "\(base).\(count)" : base, at: position), steps: steps)
        steps = []
        effects.append(effect)
        names.append(effect.name)
    }

    /// `<sc:effect name="NAME">`: the named effect, with the body written inside it (a hook when
    /// empty). A name used again must have the same body.
    private mutating func namedEffect(_ element: XMLElement) -> Named {
        checkAttributes(element)
        guard let named = element.named("name") else {
            error(.missingKey, "<sc:effect> needs a name", element)
            return Named("", at: element.position)
        }
        let name = named.name
        let body = EffectDefinition(named, steps: steps(of: element))
        let text = Self.text(of: body.steps)
        if let known = namedEffectBodies[name] {
            if known != text {
                error(.duplicateEffect, "effect '\(name)' is given two different bodies", element)
            }
        } else {
            namedEffectBodies[name] = text
            // An empty body declares a hook, as `NAME:` without a body does in a machine file.
            effects.append(body)
        }
        return body.name
    }

    /// The steps, as text without positions: two bodies written alike read alike.
    private static func text(of steps: [EffectDefinition.Step]) -> String {
        steps.map { step in
            switch step {
            case .assign(let assignment): "set \(assignment.variable.name) = \(assignment.expression.text);"
            case .send(let send):
                "send \(send.input.name) \(send.argument?.text ?? "") \(send.queue.rawValue) \(send.delay?.text ?? "") \(send.id?.name ?? "") \(send.delayExpression?.text ?? "");"
            case .log(let log): "log \(log.label ?? "") \(log.expression?.text ?? "");"
            case .conditional(let conditional):
                "if " + conditional.branches.map { "\($0.condition.text) { \(text(of: $0.steps)) }" }.joined(separator: " elif ")
                    + " else { \(text(of: conditional.otherwise)) };"
            case .forEach(let loop):
                "foreach \(loop.items.text) \(loop.item.name) \(loop.index?.name ?? "") { \(text(of: loop.steps)) };"
            case .cancel(let id): "cancel \(id.name);"
            case .cancelEvaluated(let id): "cancel_expr \(id.text);"
            }
        }.joined()
    }

    // MARK: - Elements

    /// The steps of `parent`'s children, elements of executable content, in order.
    private mutating func steps(of parent: XMLElement) -> [EffectDefinition.Step] {
        var steps: [EffectDefinition.Step] = []
        while let element = stream.nextChild(of: parent) {
            step(element, into: &steps)
        }
        return steps
    }

    /// Adds the steps of one element of executable content.
    private mutating func step(_ element: XMLElement, into steps: inout [EffectDefinition.Step]) {
            guard isSCXML(element) else {
                if isStatecraft(element) {
                    error(.unknownKey, "<sc:\(element.name)> cannot appear in \(element.name == "effect" ? "<sc:effect>" : "executable content")", element)
                } else {
                    misplaced(element, in: "executable content", allowed: SCXMLVocabulary.executableContent)
                }
                return
            }
            switch element.name {
            case "assign": if let assignment = decodeAssign(element) { steps.append(.assign(assignment)) }
            case "raise":
                checkAttributes(element)
                noChildren(element)
                guard let event = element.named("event") else {
                    error(.missingKey, "<raise> needs an event", element)
                    return
                }
                useEvent(event)
                steps.append(.send(.init(event)))
            case "send":
                if let (send, idLocation) = decodeSend(element) {
                    steps.append(.send(send))
                    if let idLocation { steps.append(.assign(idLocation)) }
                }
            case "log":
                checkAttributes(element)
                noChildren(element)
                if element.attribute("label") == nil && element.attribute("expr") == nil {
                    error(.missingKey, "<log> needs a label, an expr or both", element)
                    return
                }
                steps.append(
                    .log(.init(label: element.attribute("label"), expression: element.attribute("expr").map { expression($0, element) }, at: element.position)))
            case "if": if let conditional = decodeIf(element) { steps.append(.conditional(conditional)) }
            case "foreach": if let loop = decodeForEach(element) { steps.append(.forEach(loop)) }
            case "elseif", "else":
                error(.unknownKey, "<\(element.name)> belongs in an <if>", element)
            case "cancel":
                checkAttributes(element)
                noChildren(element)
                switch (element.attribute("sendid"), element.attribute("sendidexpr")) {
                case (let id?, nil): steps.append(.cancel(Named(id, at: element.position)))
                case (nil, let id?): steps.append(.cancelEvaluated(expression(id, element)))
                case (_?, _?): error(.invalidValue, "<cancel> has a sendid or a sendidexpr, not both", element)
                case (nil, nil): error(.missingKey, "<cancel> needs a sendid or a sendidexpr", element)
                }
            default:
                misplaced(element, in: "executable content", allowed: SCXMLVocabulary.executableContent)
            }
    }

    private mutating func decodeAssign(_ element: XMLElement) -> EffectDefinition.Assignment? {
        checkAttributes(element)
        if isNullDatamodel {
            error(.unsupported, "<assign> needs data, and the null datamodel has none; leave out datamodel=\"null\"", element)
            return nil
        }
        guard let location = element.attribute("location") else {
            error(.missingKey, "<assign> needs a location", element)
            return nil
        }
        guard let value = element.attribute("expr") else {
            error(.unsupported, "<assign> takes its value from expr; a value written inside it is not supported", element)
            return nil
        }
        noChildren(element)
        return .init(Named(location, at: element.position), expression(value, element))
    }

    /// `<if cond>` steps `<elseif cond/>` steps `<else/>` steps `</if>`: SCXML separates the
    /// branches with empty elements.
    private mutating func decodeIf(_ element: XMLElement) -> EffectDefinition.Conditional? {
        checkAttributes(element)
        guard let condition = element.attribute("cond") else {
            error(.missingKey, "<if> needs a cond", element)
            return nil
        }
        var branches: [(condition: ExpressionSource, steps: [EffectDefinition.Step])] = [(expression(condition, element), [])]
        var otherwise: [EffectDefinition.Step]?
        while let child = stream.nextChild(of: element) {
            guard isSCXML(child), child.name == "elseif" || child.name == "else" else {
                if otherwise != nil { step(child, into: &otherwise!) } else { step(child, into: &branches[branches.count - 1].steps) }
                continue
            }
            checkAttributes(child)
            noChildren(child)
            if otherwise != nil {
                error(.invalidValue, "<\(child.name)> after <else> in one <if>", child)
            } else if child.name == "else" {
                otherwise = []
            } else if let condition = child.attribute("cond") {
                branches.append((expression(condition, child), []))
            } else {
                error(.missingKey, "<elseif> needs a cond", child)
            }
        }
        return EffectDefinition.Conditional(branches.map { EffectDefinition.Branch($0.condition, $0.steps) }, otherwise: otherwise ?? [])
    }

    /// `<foreach array item index>`: over a list, an int (0 to n - 1) or a string's characters.
    /// An `item` or `index` that no `<data>` declares is declared by the loop (``loopVariables``).
    private mutating func decodeForEach(_ element: XMLElement) -> EffectDefinition.ForEach? {
        checkAttributes(element)
        if isNullDatamodel {
            error(.unsupported, "<foreach> needs data, and the null datamodel has none; leave out datamodel=\"null\"", element)
            return nil
        }
        guard let items = element.attribute("array"), let item = element.attribute("item") else {
            error(.missingKey, "<foreach> needs an array and an item", element)
            return nil
        }
        let itemName = Named(item, at: element.position)
        let indexName = element.attribute("index").map { Named($0, at: element.position) }
        loopVariables.append(itemName)
        if let indexName { loopVariables.append(indexName) }
        return EffectDefinition.ForEach(expression(items, element), item: itemName, index: indexName, steps: steps(of: element))
    }

    /// `<send>` to this machine: its external queue (no target, or SCXML's event processor as
    /// `type`) or its internal one (`target="#_internal"`), or to another target (which only
    /// fails); `<content expr="...">` gives the
    /// event's value (`arg`). With `idlocation`, also the assignment of the send's id (one
    /// made up, `_send1`, ...) to that variable.
    private mutating func decodeSend(_ element: XMLElement) -> (EffectDefinition.Send, idLocation: EffectDefinition.Assignment?)? {
        checkAttributes(element)
        for attribute in ["eventexpr", "targetexpr", "typeexpr", "namelist"] where element.attribute(attribute) != nil {
            error(.unsupported, "<send \(attribute)> is not supported: a send names its event and this machine", element)
        }
        var delay: Delay?
        if let text = element.attribute("delay") {
            do {
                delay = try Delay(parsing: text)
            } catch {
                self.error(.invalidValue, "<send delay=\"\(text)\">: \(error.message)", element)
            }
        }
        let delayExpression = element.attribute("delayexpr").map { expression($0, element) }
        if delay != nil && delayExpression != nil { error(.invalidValue, "<send> has a delay or a delayexpr, not both", element) }
        var id = element.attribute("id").map { Named($0, at: element.position) }
        var idLocation: EffectDefinition.Assignment?
        if let location = element.attribute("idlocation") {
            if id != nil { error(.invalidValue, "<send> has an id or an idlocation, not both", element) }
            let name = madeUpId(prefix: "_send")
            // Only a delayed send can be cancelled, so only a delayed one is given the id.
            if delay != nil || delayExpression != nil { id = Named(name, at: element.position) }
            idLocation = .init(Named(location, at: element.position), ExpressionSource("\"\(name)\"", at: element.position))
        }
        if let type = element.attribute("type"), type != SCXMLVocabulary.scxmlEventProcessor, type != "scxml" {
            error(.unsupported, "<send type=\"\(type)\"> is not supported: only SCXML's own event processor (this machine) is", element)
        }
        var queue = EffectDefinition.SendQueue.external
        // Another target is the send's own: the compiler refuses it, or under sc:on-error="raise"
        // makes it a step that raises error.execution, as SCXML does.
        var target: String?
        switch element.attribute("target") {
        case nil: break
        case SCXMLVocabulary.internalTarget?: queue = .internal
        case let other?: target = other
        }
        var argument: ExpressionSource?
        var data: [EffectDefinition.Send.DataField] = []
        while let content = stream.nextChild(of: element) {
            guard isSCXML(content), content.name == "content" || content.name == "param" else {
                misplaced(content, in: "<send>", allowed: ["content", "param"])
                continue
            }
            checkAttributes(content)
            if content.name == "param" {
                if let field = decodeParam(content) { data.append(field) }
                continue
            }
            let holdsElements = stream.nextChild(of: content) != nil
            guard let value = content.attribute("expr"), !holdsElements, stream.text(of: content) == nil else {
                error(.unsupported, "<content> gives the event's value with expr; a value written inside it is not supported", content)
                continue
            }
            if argument != nil { error(.invalidValue, "a <send> has one <content>", content) }
            argument = expression(value, content)
        }
        guard let event = element.named("event") else {
            error(.missingKey, "<send> needs an event", element)
            return nil
        }
        useEvent(event)
        // A delayed send fires as an input of its own when it falls due, whatever its target.
        if delay != nil || delayExpression != nil { queue = .internal }
        if argument != nil && !data.isEmpty {
            error(.invalidValue, "a <send> gives its event's data with <content> or with <param>, not both", element)
        }
        var send = EffectDefinition.Send(
            event, argument: argument, queue: queue, delay: delay, id: id, delayExpression: delayExpression)
        send.target = target
        send.data = data
        return (send, idLocation)
    }

    /// `<param name expr>` or `<param name location>`: a named field of the event's data
    /// (`_event.data.NAME`), its value taken when the send runs.
    private mutating func decodeParam(_ element: XMLElement) -> EffectDefinition.Send.DataField? {
        noChildren(element)
        guard let name = element.named("name") else {
            error(.missingKey, "<param> needs a name", element)
            return nil
        }
        switch (element.attribute("expr"), element.attribute("location")) {
        case (let value?, nil), (nil, let value?):
            return EffectDefinition.Send.DataField(name, expression(value, element))
        case (_?, _?):
            error(.invalidValue, "<param name=\"\(name.name)\"> has an expr or a location, not both", element)
        case (nil, nil):
            error(.missingKey, "<param name=\"\(name.name)\"> needs an expr or a location", element)
        }
        return nil
    }

    mutating func noChildren(_ element: XMLElement) {
        if let first = stream.nextChild(of: element) {
            error(.unknownKey, "<\(element.name)> holds no elements, found <\(first.name)>", first)
        }
    }
}
