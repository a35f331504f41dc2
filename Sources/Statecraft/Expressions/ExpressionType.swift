/// The static type of an expression: a value type, and whether it may be `null`.
package struct ExpressionType: Hashable, Sendable, CustomStringConvertible {
    package var base: ValueType
    package var isNullable: Bool

    package init(_ base: ValueType, nullable: Bool = false) {
        self.base = base
        self.isNullable = nullable || base == .null
    }

    package static let int = ExpressionType(.int)
    package static let double = ExpressionType(.double)
    package static let bool = ExpressionType(.bool)
    package static let string = ExpressionType(.string)
    package static let null = ExpressionType(.null)

    /// Whether a value of type `other` may be stored where this type is expected.
    package func accepts(_ other: ExpressionType) -> Bool {
        if other.base == .null { return isNullable }
        if other.isNullable && !isNullable { return false }
        return other.base == base || (base == .double && other.base == .int)
    }

    package var description: String {
        base == .null ? "null" : isNullable ? "\(base)?" : "\(base)"
    }
}
