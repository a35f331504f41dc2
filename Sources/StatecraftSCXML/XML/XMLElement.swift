import Statecraft

/// One element of an XML document, as the SCXML decoder reads it: its namespace, local name,
/// line, attributes and children. Comments, processing instructions and blank text are left out.
struct XMLElement: Sendable {
    /// An attribute: namespace, local name and value (entities and character references replaced).
    struct Attribute: Sendable {
        var namespace: String
        var name: String
        var value: String
    }

    /// The namespace URI; empty for an element without one.
    var namespace: String
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

    func attribute(_ name: String, namespace: String = "") -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }
}

/// The elements of a document, the root first; children refer to their index.
struct XMLTree: Sendable {
    var elements: [XMLElement]
    subscript(index: Int) -> XMLElement { elements[index] }
}
