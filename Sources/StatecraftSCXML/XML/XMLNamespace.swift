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
        case XMLStreamReader.scxmlNamespace: self = .scxml
        case SCXMLVocabulary.statecraftNamespace: self = .statecraft
        default: self = .other(uri)
        }
    }

    /// The URI.
    var description: String {
        switch self {
        case .none: ""
        case .scxml: XMLStreamReader.scxmlNamespace
        case .statecraft: SCXMLVocabulary.statecraftNamespace
        case .other(let uri): uri
        }
    }
}
