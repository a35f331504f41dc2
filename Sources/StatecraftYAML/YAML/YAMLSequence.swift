import Statecraft

/// A sequence (list) of nodes.
package struct YAMLSequence: Sendable {
    package var items: [YAMLNode]
    package var position: SourcePosition

    package init(_ items: [YAMLNode], position: SourcePosition) {
        self.items = items
        self.position = position
    }
}
