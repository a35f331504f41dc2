/// Resolves names to ids with a ``NameTable``, each spelling once (``SpellingMemo``).
struct NameResolver {
    private let table: NameTable
    private var memo = SpellingMemo<Int?>()
    /// The table of the spellings below, and by spelling the id found (-1: none; -2: not looked up).
    private var spellings: ObjectIdentifier?
    private var idBySpelling: [Int32] = []

    init(_ names: [String]) {
        table = NameTable(names)
    }

    mutating func id(of named: Named) -> Int? {
        if let id = memo.remembered(named) { return id }
        let id = table.id(of: named.name)
        memo.remember(id, for: named)
        return id
    }

    /// The id of the name `spelling` of `spellings` (a compactly kept transition's name, see
    /// ``TransitionDefinition``): looked up once per spelling, without making the name.
    @inline(__always)
    mutating func id(ofSpelling spelling: Int32, in spellings: SpellingTable) -> Int? {
        if ObjectIdentifier(spellings) != self.spellings {
            self.spellings = ObjectIdentifier(spellings)
            idBySpelling = [Int32](repeating: -2, count: spellings.strings.count)
        }
        let index = Int(spelling)
        if index >= idBySpelling.count { idBySpelling += repeatElement(-2, count: spellings.strings.count - idBySpelling.count) }
        var id = idBySpelling[index]
        if id == -2 {
            id = table.id(of: spellings.strings[index]).map(Int32.init) ?? -1
            idBySpelling[index] = id
        }
        return id >= 0 ? Int(id) : nil
    }
}
