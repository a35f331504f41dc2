import Statecraft

/// A sequence (list) of nodes.
public struct YAMLSequence: Sendable {
    public var items: [YAMLNode]
    public var position: SourcePosition

    public init(_ items: [YAMLNode], position: SourcePosition) {
        self.items = items
        self.position = position
    }
}
