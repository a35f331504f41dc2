import Statecraft

/// One element's start tag, as ``XMLStreamReader`` hands it to the SCXML decoder: its namespace,
/// local name, line and attributes. Its children follow in the stream
/// (``XMLStreamReader/nextChild(of:)``), and its text once they are read
/// (``XMLStreamReader/text(of:)``).
struct XMLElement {
    /// An attribute: namespace, local name and value (entities and character references replaced).
    struct Attribute {
        var namespace: XMLNamespace
        var name: String
        var value: String
    }

    var namespace: XMLNamespace
    /// The name without its prefix.
    var name: String
    /// The line of its start tag.
    var line: Int
    var attributes: [Attribute]
    /// How many elements enclose it (the root's is 0).
    var depth: Int
    /// Its number in document order (the root's is 0): tells its text from another's.
    var serial: Int

    /// Its line, without a column: libxml2 reports an element's line only.
    var position: SourcePosition { SourcePosition(line: line, column: 0) }

    func attribute(_ name: String, namespace: XMLNamespace = .none) -> String? {
        for attribute in attributes where attribute.name == name && attribute.namespace == namespace {
            return attribute.value
        }
        return nil
    }
}
