import Statecraft

/// A mapping with scalar keys, in file order. The parser has already refused duplicate keys.
package struct YAMLMapping: Sendable {
    package struct Entry: Sendable {
        package var key: YAMLScalar
        package var value: YAMLNode
    }

    package var entries: [Entry]
    package var position: SourcePosition

    package init(_ entries: [Entry], position: SourcePosition) {
        self.entries = entries
        self.position = position
    }

    /// The entry whose key is `key`, if any.
    package subscript(key: String) -> Entry? {
        entries.first { $0.key.value == key }
    }
}
