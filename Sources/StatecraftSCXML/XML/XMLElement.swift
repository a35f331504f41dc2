import Statecraft

/// One element's start tag, as ``XMLStreamReader`` hands it to the SCXML decoder: its namespace,
/// local name, line and attributes. Its children follow in the stream
/// (``XMLStreamReader/nextChild(of:)``), and its text once they are read
/// (``XMLStreamReader/text(of:)``).
struct XMLElement {
    /// An attribute: namespace, local name and value (entities and character references
    /// replaced), the value kept as its spelling, whose `String` the reader holds: an element's
    /// attributes so cost no reference counting to make or to drop, and a value is retained only
    /// when the decoder reads it.
    struct Attribute {
        var namespace: XMLNamespace
        var name: String
        /// The value's id, the same for every attribute of the document with the same value.
        var spelling: Int
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
    /// The attributes it takes: Statecraft's element's when it is in Statecraft's namespace,
    /// else SCXML's element's of its name.
    // Unowned and unretained, as every element is read and dropped while its reader (which
    // holds the rules, by element name) reads the document.
    unowned(unsafe) var attributeRules: SCXMLVocabulary.AttributeRules
    /// The reader, which holds the attribute values.
    unowned(unsafe) var reader: XMLStreamReader

    /// Its line, without a column: libxml2 reports an element's line only.
    var position: SourcePosition { SourcePosition(line: line, column: 0) }

    /// The attribute's value as a name written here, with its spelling, so that the compiler
    /// looks each distinct name up once (``Named/spelling``).
    func named(_ name: String, namespace: XMLNamespace = .none) -> Named? {
        for attribute in attributes where Self.isSame(attribute.name, name) && attribute.namespace == namespace {
            return Named(reader.value(attribute.spelling), at: position, spelling: attribute.spelling)
        }
        return nil
    }

    func attribute(_ name: String, namespace: XMLNamespace = .none) -> String? {
        for attribute in attributes where Self.isSame(attribute.name, name) && attribute.namespace == namespace {
            return reader.value(attribute.spelling)
        }
        return nil
    }

    // MARK: - Names

    /// Whether two names are the same, their lengths compared first: an element's few attribute
    /// names (`event`, `target`, `cond`) differ in length, and comparing lengths is a load where
    /// comparing two different strings is a call.
    static func isSame(_ name: String, _ other: String) -> Bool {
        name.utf8.count == other.utf8.count && name == other
    }

    /// Whether `names` holds `name`.
    static func contains(_ names: [String], _ name: String) -> Bool {
        for candidate in names where isSame(candidate, name) { return true }
        return false
    }
}
