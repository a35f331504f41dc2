import Statecraft

// `<datamodel>` and `<data>`: the machine's context. Every `<data>` of the document, wherever
// it is written, is a context variable set when the machine starts (SCXML's early binding).
extension SCXMLDecoder {
    mutating func decodeDatamodel(_ datamodel: XMLElement) {
        checkAttributes(datamodel)
        while let element = stream.nextChild(of: datamodel) {
            guard isSCXML(element), element.name == "data" else {
                misplaced(element, in: "<datamodel>", allowed: ["data"])
                continue
            }
            decodeData(element)
        }
    }

    private mutating func decodeData(_ element: XMLElement) {
        checkAttributes(element)
        if isNullDatamodel {
            error(.unsupported, "<data> is not allowed with datamodel=\"null\", which has no data; leave the datamodel attribute out", element)
            return
        }
        guard let id = element.attribute("id") else {
            error(.missingKey, "<data> needs an id", element)
            return
        }
        if element.attribute("src") != nil {
            error(.unsupported, "<data src> is not supported: a value is written in expr", element)
            return
        }
        if let first = stream.nextChild(of: element) {
            error(.unsupported, "<data> holding elements is not supported: a value is a constant in expr", first)
            return
        }
        let text: String
        switch (element.attribute("expr"), stream.text(of: element)) {
        case (let expr?, nil): text = expr
        case (nil, let content?): text = content
        case (nil, nil): text = "null"
        case (_?, _?):
            error(.invalidValue, "<data id=\"\(id)\"> has both expr and a value inside it", element)
            return
        }
        if text.first(where: { !$0.isWhitespace }) == "[" {
            switch SCXMLConstant.list(of: text) {
            case .success(let list): context.append(ContextVariable(Named(id, at: element.position), list))
            case .failure(let problem): error(.invalidValue, "<data id=\"\(id)\">'s list \(problem.message)", element)
            }
            return
        }
        guard let value = SCXMLConstant.value(of: text) else {
            error(
                .invalidValue,
                "<data id=\"\(id)\">'s value '\(text)' is not a constant: an int, a finite double, true, false, null, a quoted string or a list of them in brackets",
                element)
            return
        }
        context.append(ContextVariable(Named(id, at: element.position), value))
    }
}
