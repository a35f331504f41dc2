import Statecraft

/// How a scenario's values meet the machine's types.
enum ScenarioValues {
    /// `value` as a value of `type` (an int is taken for a double), or `nil` when it does not fit.
    static func converted(_ value: Value, to type: ExpressionType) -> Value? {
        guard type.accepts(ExpressionType(of: value)) else { return nil }
        if type.base == .double, case .int(let number) = value { return .double(Double(number)) }
        return value
    }

    /// `an int`, `a string or null`, for messages.
    static func describe(_ type: ExpressionType) -> String {
        let base = type.base == .int ? "an int" : "a \(type.base)"
        return type.base == .null ? "null" : type.isNullable ? base + " or null" : base
    }

    /// `a string "x"`, `an int 3`, `null`, for messages.
    static func describe(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .int: "an int \(value)"
        default: "a \(value.type) \(value)"
        }
    }
}
