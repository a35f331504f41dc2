import Statecraft

/// A node of a YAML document, with where it starts in the file. Aliases are already expanded.
package enum YAMLNode: Sendable {
    case scalar(YAMLScalar)
    case sequence(YAMLSequence)
    case mapping(YAMLMapping)

    package var position: SourcePosition {
        switch self {
        case .scalar(let scalar): scalar.position
        case .sequence(let sequence): sequence.position
        case .mapping(let mapping): mapping.position
        }
    }

    /// "a scalar", "a list" or "a mapping", for messages.
    package var kindDescription: String {
        switch self {
        case .scalar(let scalar): scalar.isNull ? "null" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }
}
