import Statecraft

/// The namespace of an element or attribute: the two the SCXML reader knows by heart, none, or
/// another (kept as its URI, for the message that refuses it). An enum, so that the hundreds of
/// thousands of elements of a large document do not each hold the URI's text.
enum XMLNamespace: Hashable, Sendable, CustomStringConvertible {
    case none
    case scxml
    case statecraft
    case other(String)

    init(uri: String) {
        switch uri {
        case "": self = .none
        case XMLTreeReader.scxmlNamespace: self = .scxml
        case SCXMLVocabulary.statecraftNamespace: self = .statecraft
        default: self = .other(uri)
        }
    }

    /// The URI.
    var description: String {
        switch self {
        case .none: ""
        case .scxml: XMLTreeReader.scxmlNamespace
        case .statecraft: SCXMLVocabulary.statecraftNamespace
        case .other(let uri): uri
        }
    }
}

/// One element of an XML document, as the SCXML decoder reads it: its namespace, local name,
/// line, attributes and children. Comments, processing instructions and blank text are left out.
struct XMLElement: Sendable {
    /// An attribute: namespace, local name and value (entities and character references replaced).
    struct Attribute: Sendable {
        var namespace: XMLNamespace
        var name: String
        var value: String
    }

    var namespace: XMLNamespace
    /// The name without its prefix.
    var name: String
    /// The line of its start tag.
    var line: Int
    var attributes: [Attribute] = []
    /// Indexes of the child elements in ``XMLTree/elements``, in document order.
    var children: [Int] = []
    /// Its text content that is not only blanks (text and CDATA joined), or `nil`.
    var text: String?

    /// Its line, without a column: libxml2 reports an element's line only.
    var position: SourcePosition { SourcePosition(line: line, column: 0) }

    func attribute(_ name: String, namespace: XMLNamespace = .none) -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }
}

/// The elements of a document, the root first; children refer to their index.
struct XMLTree: Sendable {
    var elements: [XMLElement]
    subscript(index: Int) -> XMLElement { elements[index] }
}
