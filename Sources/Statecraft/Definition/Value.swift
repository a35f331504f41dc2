/// A value of the machine's extended state (context), an input's argument, or an expression.
public enum Value: Hashable, Sendable {
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A string.
    case string(String)
    /// No value.
    case null

    /// The value's type; `null` has the type ``ValueType/null``.
    public var type: ValueType {
        switch self {
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .string: .string
        case .null: .null
        }
    }
}

extension Value: CustomStringConvertible {
    /// The value as it is written in an expression or an input script: strings in JSON quotes.
    public var description: String {
        switch self {
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): JSONText.quoted(s)
        case .null: "null"
        }
    }
}

/// The type of a ``Value``.
public enum ValueType: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// An integer.
    case int
    /// A floating-point number.
    case double
    /// A boolean.
    case bool
    /// A string.
    case string
    /// The type of `null`, before a variable that starts as `null` is assigned a value.
    case null

    /// Types an input argument may have.
    package static let argumentTypes: [ValueType] = [.int, .double, .bool, .string]

    package var isNumber: Bool { self == .int || self == .double }

    /// The type's name as written in a machine file.
    public var description: String { rawValue }
}
