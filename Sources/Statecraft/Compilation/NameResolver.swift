/// Resolves names to ids with a ``NameTable``, each spelling once (``SpellingMemo``).
struct NameResolver {
    private let table: NameTable
    private var memo = SpellingMemo<Int?>()

    init(_ names: [String]) {
        table = NameTable(names)
    }

    mutating func id(of named: Named) -> Int? {
        if let id = memo.remembered(named) { return id }
        let id = table.id(of: named.name)
        memo.remember(id, for: named)
        return id
    }
}
