/// The static type of an expression: a value type, whether it may be `null`, and for a list
/// the type of its items.
package struct ExpressionType: Hashable, Sendable, CustomStringConvertible {
    package var base: ValueType
    package var isNullable: Bool
    /// A list's items' type (`.null` for the empty list `[]`, whose items could be any); `nil`
    /// for every other type.
    package var element: ValueType?

    package init(_ base: ValueType, nullable: Bool = false, element: ValueType? = nil) {
        self.base = base
        self.isNullable = nullable || base == .null
        self.element = base == .list ? element ?? .null : nil
    }

    /// The type of `value`: a list's from its items.
    package init(of value: Value) {
        if case .list(let items) = value {
            self.init(.list, element: Value.elementType(of: items))
        } else {
            self.init(value.type)
        }
    }

    /// A list of `element`s.
    package static func list(of element: ValueType) -> ExpressionType { ExpressionType(.list, element: element) }

    package static let int = ExpressionType(.int)
    package static let double = ExpressionType(.double)
    package static let bool = ExpressionType(.bool)
    package static let string = ExpressionType(.string)
    package static let null = ExpressionType(.null)

    /// Whether a value of type `other` may be stored where this type is expected. A list takes
    /// a list of the same items, or the empty list.
    package func accepts(_ other: ExpressionType) -> Bool {
        if other.base == .null { return isNullable }
        if other.isNullable && !isNullable { return false }
        if base == .list && other.base == .list { return other.element == element || other.element == .null }
        return other.base == base || (base == .double && other.base == .int)
    }

    package var description: String {
        let name = base == .list ? (element == .null ? "[]" : "[\(element!)]") : "\(base)"
        return base == .null ? "null" : isNullable ? "\(name)?" : name
    }
}
