/// A typed machine's input ids, by the interning serial of each input's ``InputKey``: finding
/// an input's id on a send is one array load, with no hashing and no name compared.
@usableFromInline
struct InputTable: Sendable {
    /// Per serial, the id; ``unmapped`` for inputs interned but not the machine's.
    @usableFromInline let ids: [Int]
    /// The id of inputs the table does not hold.
    @usableFromInline let unmapped: Int

    init(_ ids: [InputKey: Int], unmapped: Int) {
        var table = [Int](repeating: unmapped, count: (ids.keys.map(\.serial).max() ?? -1) + 1)
        for (key, id) in ids { table[key.serial] = id }
        self.ids = table
        self.unmapped = unmapped
    }

    /// The id of `input`, or ``unmapped``.
    @inlinable
    func id<Argument>(of input: Input<Argument>) -> Int {
        id(of: input.key)
    }

    /// The id of the input `key` identifies, or ``unmapped``.
    @inlinable
    func id(of key: InputKey) -> Int {
        let serial = key.serial
        return serial < ids.count ? ids[serial] : unmapped
    }
}
