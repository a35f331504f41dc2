/// A typed machine's input ids by input, found on each send from the hash an ``Input`` keeps
/// of its name: no hashing, and the names compared only when the hashes match (equal names
/// made from one string compare by their storage).
@usableFromInline
struct InputTable: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let nameHash: Int
        @usableFromInline let key: InputKey
        @usableFromInline let id: Int
    }

    /// Open addressing, linear probing; at most half full, so a probe ends at an empty slot.
    @usableFromInline let slots: [Entry?]
    @usableFromInline let mask: Int
    /// The id of inputs the table does not hold.
    @usableFromInline let unmapped: Int

    init(_ ids: [InputKey: Int], unmapped: Int) {
        var capacity = 2
        while capacity < 2 * ids.count { capacity *= 2 }
        var slots = [Entry?](repeating: nil, count: capacity)
        for (key, id) in ids {
            let nameHash = InputKey.hash(of: key.name)
            var slot = nameHash & (capacity - 1)
            while slots[slot] != nil { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Entry(nameHash: nameHash, key: key, id: id)
        }
        self.slots = slots
        mask = capacity - 1
        self.unmapped = unmapped
    }

    /// The id of `input`, or ``unmapped``.
    @inlinable
    func id<Argument>(of input: Input<Argument>) -> Int {
        var slot = input.nameHash & mask
        while let entry = slots[slot] {
            if entry.nameHash == input.nameHash, entry.key.argumentType == ObjectIdentifier(Argument.self), entry.key.name == input.name {
                return entry.id
            }
            slot = (slot &+ 1) & mask
        }
        return unmapped
    }
}
