import Statecraft

/// A sequence (list) of nodes.
public struct YAMLSequence: Sendable {
    public var items: [YAMLNode]
    public var location: SourceLocation

    public init(_ items: [YAMLNode], location: SourceLocation) {
        self.items = items
        self.location = location
    }
}
