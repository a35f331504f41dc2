import Statecraft

/// A mapping with scalar keys, in file order. The parser has already refused duplicate keys.
public struct YAMLMapping: Sendable {
    public struct Entry: Sendable {
        public var key: YAMLScalar
        public var value: YAMLNode
    }

    public var entries: [Entry]
    public var position: SourcePosition

    public init(_ entries: [Entry], position: SourcePosition) {
        self.entries = entries
        self.position = position
    }

    /// The entry whose key is `key`, if any.
    public subscript(key: String) -> Entry? {
        entries.first { $0.key.value == key }
    }
}
