import Statecraft

/// A node of a YAML document, with where it starts in the file. Aliases are already expanded.
public enum YAMLNode: Sendable {
    case scalar(YAMLScalar)
    case sequence(YAMLSequence)
    case mapping(YAMLMapping)

    public var position: SourcePosition {
        switch self {
        case .scalar(let scalar): scalar.position
        case .sequence(let sequence): sequence.position
        case .mapping(let mapping): mapping.position
        }
    }

    /// "a scalar", "a list" or "a mapping", for messages.
    public var kindDescription: String {
        switch self {
        case .scalar(let scalar): scalar.isNull ? "null" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }
}
