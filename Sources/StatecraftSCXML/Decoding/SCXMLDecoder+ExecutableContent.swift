import Statecraft

// Executable content (`<onentry>`, `<onexit>`, a `<transition>`'s body) as effects. A block's
// SCXML elements become one effect named after where they are (`STATE.onentry`, `STATE.onexit`,
// `STATE.transition.N`; a second block of a state `STATE.onentry.2`), and each `<sc:effect
// name="NAME">` the effect NAME, so that a machine file's effect names survive a round trip.
extension SCXMLDecoder {
    /// The effects that `index`'s executable content runs, in order; their bodies are added to ``effects``.
    mutating func executableBlock(_ index: Int, effectName base: String) -> [Named] {
        var names: [Named] = []
        var body: EffectDefinition?
        for child in tree[index].children {
            let element = tree[child]
            if isStatecraft(element) && element.name == "effect" {
                flush(&body, into: &names, base: base)
                names.append(namedEffect(child))
                continue
            }
            // Sends are queued after every assignment of a body: an assignment written after
            // a send starts the next effect, so that the send's value sees what was written before it.
            if isSCXML(element) && element.name == "assign", body?.sends.isEmpty == false {
                flush(&body, into: &names, base: base)
            }
            var current = body ?? EffectDefinition(Named(base, at: element.position))
            if statement(child, into: &current) { body = current }
        }
        flush(&body, into: &names, base: base)
        return names
    }

    private mutating func flush(_ body: inout EffectDefinition?, into names: inout [Named], base: String) {
        guard var effect = body else { return }
        body = nil
        let count = (generatedEffectCounts[base] ?? 0) + 1
        generatedEffectCounts[base] = count
        if count > 1 { effect.name.name = "\(base).\(count)" }
        effects.append(effect)
        names.append(effect.name)
    }

    /// `<sc:effect name="NAME">`: the named effect, with the body written inside it (a hook when
    /// empty). A name used again must have the same body.
    private mutating func namedEffect(_ index: Int) -> Named {
        checkAttributes(index)
        let element = tree[index]
        guard let name = element.attribute("name") else {
            error(.missingKey, "<sc:effect> needs a name", element)
            return Named("", at: element.position)
        }
        var body = EffectDefinition(Named(name, at: element.position))
        for child in element.children {
            if isStatecraft(tree[child]) {
                error(.unknownKey, "<sc:\(tree[child].name)> cannot appear in <sc:effect>", tree[child])
                continue
            }
            _ = statement(child, into: &body)
        }
        let text = Self.bodyText(body)
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

    private static func bodyText(_ body: EffectDefinition) -> String {
        body.assignments.map { "set \($0.variable.name) = \($0.expression.text)\n" }.joined()
            + body.sends.map { "send \($0.input.name) \($0.argument?.text ?? "")\n" }.joined()
    }

    // MARK: - Elements

    /// Adds one element of executable content to `body`; whether it added anything.
    private mutating func statement(_ index: Int, into body: inout EffectDefinition) -> Bool {
        let element = tree[index]
        guard isSCXML(element) else {
            misplaced(index, in: "executable content", allowed: SCXMLVocabulary.executableContent)
            return false
        }
        switch element.name {
        case "assign":
            checkAttributes(index)
            if isNullDatamodel {
                error(.unsupported, "<assign> needs data, and the null datamodel has none; leave out datamodel=\"null\"", element)
                return false
            }
            guard let location = element.attribute("location") else {
                error(.missingKey, "<assign> needs a location", element)
                return false
            }
            guard let value = element.attribute("expr") else {
                error(.unsupported, "<assign> takes its value from expr; a value written inside it is not supported", element)
                return false
            }
            noChildren(element)
            body.assignments.append(.init(Named(location, at: element.position), expression(value, element)))
            return true
        case "raise":
            checkAttributes(index)
            guard let event = element.attribute("event") else {
                error(.missingKey, "<raise> needs an event", element)
                return false
            }
            noChildren(element)
            useEvent(Named(event, at: element.position))
            body.sends.append(.init(Named(event, at: element.position)))
            return true
        case "send":
            guard let send = decodeSend(index) else { return false }
            body.sends.append(send)
            return true
        case "log", "if", "foreach":
            error(.unsupported, "<\(element.name)> is not supported yet", element)
        case "elseif", "else":
            error(.unknownKey, "<\(element.name)> belongs in an <if>", element)
        case "cancel":
            error(.unsupported, "<cancel> is not supported yet: delayed sends are not", element)
        default:
            misplaced(index, in: "executable content", allowed: SCXMLVocabulary.executableContent)
        }
        return false
    }

    /// `<send>` to this machine: its internal queue (`target="#_internal"`); `<content
    /// expr="...">` gives the event's value (`arg`).
    private mutating func decodeSend(_ index: Int) -> EffectDefinition.Send? {
        checkAttributes(index)
        let element = tree[index]
        for attribute in ["eventexpr", "targetexpr", "typeexpr", "namelist"] where element.attribute(attribute) != nil {
            error(.unsupported, "<send \(attribute)> is not supported: a send names its event and this machine", element)
        }
        for attribute in ["delay", "delayexpr", "id", "idlocation"] where element.attribute(attribute) != nil {
            error(.unsupported, "<send \(attribute)> is not supported yet: delayed sends are not", element)
        }
        if let type = element.attribute("type"), type != SCXMLVocabulary.scxmlEventProcessor, type != "scxml" {
            error(.unsupported, "<send type=\"\(type)\"> is not supported: only SCXML's own event processor (this machine) is", element)
        }
        switch element.attribute("target") {
        case SCXMLVocabulary.internalTarget?: break
        case nil:
            error(
                .unsupported,
                "<send> without target=\"#_internal\" goes to the external queue, which is not supported yet; <raise> or target=\"#_internal\" queue it internally",
                element)
        case let target?:
            error(.unsupported, "<send target=\"\(target)\"> is not supported: a machine sends only to itself (target=\"#_internal\")", element)
        }
        var argument: ExpressionSource?
        for child in element.children {
            let content = tree[child]
            guard isSCXML(content), content.name == "content" else {
                misplaced(child, in: "<send>", allowed: ["content"])
                continue
            }
            checkAttributes(child)
            guard let value = content.attribute("expr"), content.children.isEmpty, content.text == nil else {
                error(.unsupported, "<content> gives the event's value with expr; a value written inside it is not supported", content)
                continue
            }
            if argument != nil { error(.invalidValue, "a <send> has one <content>", content) }
            argument = expression(value, content)
        }
        guard let event = element.attribute("event") else {
            error(.missingKey, "<send> needs an event", element)
            return nil
        }
        useEvent(Named(event, at: element.position))
        return EffectDefinition.Send(Named(event, at: element.position), argument: argument)
    }

    mutating func noChildren(_ element: XMLElement) {
        if let first = element.children.first {
            error(.unknownKey, "<\(element.name)> holds no elements, found <\(tree[first].name)>", tree[first])
        }
    }
}
