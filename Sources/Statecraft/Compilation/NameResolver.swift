/// Resolves names to ids with a ``NameTable``, remembering each answer by the name's spelling
/// (``Named/spelling``): a large file writes a few thousand names hundreds of thousands of
/// times, and the decoder gave each distinct spelling an id, so each is hashed once.
///
/// A remembered answer is used only for the very name it was found for (the same `String`, so
/// the check is one compare of its storage), so a spelling from another file, or a name changed
/// after decoding, is looked up afresh.
struct NameResolver {
    private let table: NameTable
    /// By spelling: the name last resolved with it, and its id.
    private var known: [(name: String, id: Int?)?] = []

    init(_ names: [String]) {
        table = NameTable(names)
    }

    mutating func id(of named: Named) -> Int? {
        let spelling = named.spelling
        guard spelling >= 0 else { return table.id(of: named.name) }
        if spelling < known.count, let entry = known[spelling], entry.name == named.name { return entry.id }
        let id = table.id(of: named.name)
        if spelling >= known.count { known += repeatElement(nil, count: spelling + 1 - known.count) }
        known[spelling] = (named.name, id)
        return id
    }
}
