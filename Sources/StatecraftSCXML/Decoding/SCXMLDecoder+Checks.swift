import Statecraft

// The checks every element goes through: its namespace, its attributes, its place.
extension SCXMLDecoder {
    mutating func error(_ code: DiagnosticCode, _ message: String, _ element: XMLElement) {
        diagnostics.append(.error(code, message, at: element.position))
    }

    /// An element of SCXML's namespace, or of none (a document without `xmlns` is read as SCXML).
    func isSCXML(_ element: XMLElement) -> Bool {
        element.namespace == .scxml || element.namespace == .none
    }

    func isStatecraft(_ element: XMLElement) -> Bool {
        element.namespace == .statecraft
    }

    /// An element of another namespace: SCXML lets processors ignore them, Statecraft refuses
    /// them so that nothing a document says is silently dropped.
    mutating func foreignElement(_ element: XMLElement) {
        error(
            .unsupported, "<\(element.name)> of namespace \(element.namespace) is not supported: Statecraft reads SCXML's elements and its own",
            element)
    }

    /// An SCXML element where it cannot be: unsupported, unknown (with a did-you-mean) or misplaced.
    mutating func misplaced(_ element: XMLElement, in parent: String, allowed: [String]) {
        guard isSCXML(element) else {
            if isStatecraft(element) {
                error(.unknownKey, "<sc:\(element.name)> cannot appear in \(parent)", element)
            } else {
                foreignElement(element)
            }
            return
        }
        if let reason = SCXMLVocabulary.unsupportedElements[element.name] {
            error(.unsupported, reason, element)
        } else if SCXMLVocabulary.attributes[element.name] != nil {
            let list = allowed.isEmpty ? "nothing" : allowed.map { "<\($0)>" }.joined(separator: ", ")
            error(.unknownKey, "<\(element.name)> cannot appear in \(parent), which holds \(list)", element)
        } else {
            error(
                .unknownKey,
                "unknown element <\(element.name)>\(Suggestion.didYouMean(element.name, in: allowed)) in \(parent), which holds \(allowed.map { "<\($0)>" }.joined(separator: ", "))",
                element)
        }
    }

    /// Refuses attributes the element does not take: unknown ones with a did-you-mean, and
    /// those of other namespaces.
    mutating func checkAttributes(_ element: XMLElement) {
        let statecraft = isStatecraft(element)
        let allowed = element.attributeRules.allowed
        let allowedStatecraft = element.attributeRules.allowedStatecraft
        var tag: String { statecraft ? "sc:\(element.name)" : element.name }
        for attribute in element.attributes {
            if attribute.namespace == .none {
                if !XMLElement.contains(allowed, attribute.name) {
                    let list = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
                    error(
                        .unknownKey,
                        "<\(tag)> has no attribute '\(attribute.name)'\(Suggestion.didYouMean(attribute.name, in: allowed)); its attributes are \(list)",
                        element)
                }
            } else if attribute.namespace == .statecraft {
                if !XMLElement.contains(allowedStatecraft, attribute.name) {
                    let list = allowedStatecraft.isEmpty ? "none" : allowedStatecraft.map { "sc:" + $0 }.joined(separator: ", ")
                    error(
                        .unknownKey,
                        "<\(tag)> has no attribute 'sc:\(attribute.name)'\(Suggestion.didYouMean(attribute.name, in: allowedStatecraft)); Statecraft's attributes there are \(list)",
                        element)
                }
            } else if attribute.namespace != .other("http://www.w3.org/XML/1998/namespace") {
                error(.unsupported, "attribute '\(attribute.name)' of namespace \(attribute.namespace) on <\(tag)> is not supported", element)
            }
        }
    }

    /// A condition or value: Statecraft's expression language, where SCXML's `In(id)` and
    /// `In('id')` are its `in(id)`, `_event.data` is `arg` (`_event.data.NAME` is `arg.NAME`) and `_event.name` is `input()`. Another use of the event
    /// variable is reported here, where the expression checker would only see a stray `.`.
    mutating func expression(_ text: String, _ element: XMLElement) -> ExpressionSource {
        let rewritten = SCXMLExpression.statecraftText(of: text)
        if SCXMLExpression.mentionsEventVariable(rewritten) {
            error(
                .unsupported,
                "'\(text)': of SCXML's event variable only _event.data (the event's value, arg), its fields (_event.data.NAME, arg.NAME) and _event.name (input()) are supported", element)
        }
        return ExpressionSource(rewritten, at: element.position)
    }
}
