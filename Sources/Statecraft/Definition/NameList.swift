/// Names a definition lists where most lists hold one name (a transition's source states, its
/// effects): one name is kept in place, so that a large machine's rows allocate no array each.
@usableFromInline
package enum NameList: Sendable {
    case one(Named)
    /// None, or several.
    case many([Named])

    /// The list holding `names`.
    @inlinable
    package init(_ names: [Named]) {
        self = names.count == 1 ? .one(names[0]) : .many(names)
    }

    /// The names as an array (allocated for one name).
    package var array: [Named] {
        switch self {
        case .one(let name): [name]
        case .many(let names): names
        }
    }

    package var count: Int {
        switch self {
        case .one: 1
        case .many(let names): names.count
        }
    }

    package var isEmpty: Bool { count == 0 }

    /// The first name, if any.
    package var first: Named? {
        switch self {
        case .one(let name): name
        case .many(let names): names.first
        }
    }

    /// Calls `body` with each name in order, without making an array.
    package func forEach(_ body: (Named) throws -> Void) rethrows {
        switch self {
        case .one(let name): try body(name)
        case .many(let names): for name in names { try body(name) }
        }
    }
}
