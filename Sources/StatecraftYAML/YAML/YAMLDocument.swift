import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A YAML document in flat form, as ``YAMLParser`` reads it: nodes in one array, each scalar's
/// text a byte range of the source or of one buffer, each collection's children a range of one
/// index array. A large file so costs no `String` per scalar and no array per collection, and
/// its plain one-line scalars (most of a machine file) no copy; ``YAMLNode``s are built from it
/// only on request.
///
/// A node's children come before it (nodes are stored as they end). An alias is its anchor's
/// node again, so subtrees may be shared.
package struct YAMLDocument {
    enum Kind: UInt8 {
        case scalar, sequence, mapping
    }

    struct Node {
        var kind: Kind
        var style: YAMLScalar.Style
        /// Whether a scalar's text is all ASCII.
        var isASCII: Bool
        /// Whether a scalar has an explicit tag, in ``YAMLDocument/tags``.
        var hasTag: Bool
        /// Whether a scalar's text is in ``YAMLDocument/source`` rather than in ``YAMLDocument/text``.
        var isInSource: Bool
        /// Whether a collection is written in flow style, `{...}` or `[...]`.
        var isFlow: Bool
        var position: SourcePosition
        /// A scalar's text is `source[start ..< start + count]` or `text[start ..< start + count]`
        /// (``isInSource``); a sequence's items are
        /// `children[start ..< start + count]`; a mapping's keys and values alternate in
        /// `children[start ..< start + 2 * count]`.
        var start: Int
        var count: Int
    }

    /// A mapping entry: the indices of its key and its value.
    struct Entry {
        var key: Int
        var value: Int
    }

    var nodes: [Node] = []
    var children: [Int] = []
    /// The bytes libyaml read, where a scalar whose text is as written (``Node/isInSource``) lies.
    let source: [UInt8]
    /// The text of the other scalars (quoted, escaped, folded), end to end.
    var text: [UInt8] = []
    /// The explicit tags of the scalars that have one, by node.
    var tags: [Int: String] = [:]
    /// The root node; `nil` for a document with no content.
    package var root: Int?
    /// The spellings of the keys of large mappings, interned to find duplicates; the decoder
    /// goes on interning names with it.
    var spellings = TextInterner()

    /// A document read from `source`, with room for its nodes and copied text: scalars' text
    /// is at most about as long as the file, and a machine file has a node every few dozen
    /// bytes. Reserving spares a large file the copies of doubling; room a file does not use is
    /// never touched, so it costs no memory.
    init(source: [UInt8]) {
        self.source = source
        text.reserveCapacity(source.count)
        nodes.reserveCapacity(source.count / 32)
    }

    // MARK: - Reading nodes

    subscript(index: Int) -> Node { nodes[index] }

    /// The buffer that holds a scalar's text (the array shared, not copied).
    func buffer(of node: Node) -> [UInt8] {
        node.isInSource ? source : text
    }

    /// Calls `body` with a scalar's text.
    func withText<R>(of index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let node = nodes[index]
        // Each buffer read in place: taking it as a value (``buffer(of:)``) retains and releases
        // it, which costs more than comparing a short key.
        let range = node.start..<(node.start + node.count)
        if node.isInSource { return try source.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) } }
        return try text.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A scalar's text as a string.
    func string(_ index: Int) -> String {
        withText(of: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a scalar's text is `literal` (ASCII).
    func text(of index: Int, is literal: StaticString) -> Bool {
        withText(of: index) { text in
            text.count == literal.utf8CodeUnitCount && (text.isEmpty || memcmp(text.baseAddress!, literal.utf8Start, text.count) == 0)
        }
    }

    /// The scalar at `index` as a ``YAMLScalar``.
    func scalar(_ index: Int) -> YAMLScalar {
        let node = nodes[index]
        return YAMLScalar(string(index), style: node.style, tag: node.hasTag ? tags[index] : nil, position: node.position)
    }

    /// Whether the node is a plain `null`, `~` or empty scalar (``YAMLScalar/isNull``).
    func isNull(_ index: Int) -> Bool {
        let node = nodes[index]
        guard node.kind == .scalar, node.style == .plain, !node.hasTag, node.count <= 4 else { return false }
        return node.count == 0 || text(of: index, is: "~") || text(of: index, is: "null") || text(of: index, is: "Null")
            || text(of: index, is: "NULL")
    }

    /// "a scalar", "a list", "a mapping" or "null", for messages (``YAMLNode/kindDescription``).
    /// Where a scalar was expected: a hint when the value is a flow collection, which an
    /// unquoted value starting with `{` or `[` is, though it was probably meant as text.
    func quoteHint(_ index: Int) -> String {
        guard nodes[index].isFlow else { return "" }
        let brackets = nodes[index].kind == .mapping ? "{...}" : "[...]"
        return " (an unquoted value in \(brackets) is a flow \(nodes[index].kind == .mapping ? "mapping" : "list"); quote the value to write text)"
    }

    func kindDescription(_ index: Int) -> String {
        switch nodes[index].kind {
        case .scalar: isNull(index) ? "null" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// A sequence's items.
    func items(_ index: Int) -> ArraySlice<Int> {
        let node = nodes[index]
        return children[node.start..<(node.start + node.count)]
    }

    /// A mapping's entries, in file order.
    func entries(_ index: Int) -> LazyMapSequence<Range<Int>, Entry> {
        let node = nodes[index]
        return (0..<node.count).lazy.map { [children] entry in
            Entry(key: children[node.start + 2 * entry], value: children[node.start + 2 * entry + 1])
        }
    }

    /// The entry of a mapping whose key is `key`, if any.
    func entry(_ index: Int, _ key: StaticString) -> Entry? {
        entries(index).first { text(of: $0.key, is: key) }
    }

    // MARK: - Nodes

    /// The tree of ``YAMLNode``s under `index`, aliases expanded (shared subtrees are built once).
    func node(_ index: Int) -> YAMLNode {
        // Children come before their parents, so one pass in order builds each from built nodes.
        var built: [YAMLNode] = []
        built.reserveCapacity(index + 1)
        for (index, node) in nodes[...index].enumerated() {
            switch node.kind {
            case .scalar:
                built.append(.scalar(scalar(index)))
            case .sequence:
                built.append(.sequence(YAMLSequence(items(index).map { built[$0] }, position: node.position)))
            case .mapping:
                var entries: [YAMLMapping.Entry] = []
                entries.reserveCapacity(node.count)
                for entry in self.entries(index) {
                    guard case .scalar(let key) = built[entry.key] else { preconditionFailure("a mapping key is a scalar") }
                    entries.append(YAMLMapping.Entry(key: key, value: built[entry.value]))
                }
                built.append(.mapping(YAMLMapping(entries, position: node.position)))
            }
        }
        return built[index]
    }
}
