/// The static type of an expression: a value type, and whether it may be `null`.
public struct ExpressionType: Hashable, Sendable, CustomStringConvertible {
    public var base: ValueType
    public var isNullable: Bool

    public init(_ base: ValueType, nullable: Bool = false) {
        self.base = base
        self.isNullable = nullable || base == .null
    }

    public static let int = ExpressionType(.int)
    public static let double = ExpressionType(.double)
    public static let bool = ExpressionType(.bool)
    public static let string = ExpressionType(.string)
    public static let null = ExpressionType(.null)

    /// Whether a value of type `other` may be stored where this type is expected.
    public func accepts(_ other: ExpressionType) -> Bool {
        if other.base == .null { return isNullable }
        if other.isNullable && !isNullable { return false }
        return other.base == base || (base == .double && other.base == .int)
    }

    public var description: String {
        base == .null ? "null" : isNullable ? "\(base)?" : "\(base)"
    }
}
