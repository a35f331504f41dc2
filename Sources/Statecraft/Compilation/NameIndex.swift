/// Ids of names, found by a hash of their UTF-8 bytes: the compiler looks up every name each
/// transition mentions, and a `[String: Int]` (SipHash, Unicode-aware comparison) cost more
/// than the rest of compilation.
///
/// Open addressing over one buffer of bytes. The hash is seeded per index, so that a file
/// cannot be written to make its names collide.
struct NameIndex {
    private var bytes: [UInt8] = []
    /// Per name: where its bytes start, how many, and its id.
    private var entries: [(start: Int, count: Int, id: Int)] = []
    /// Per slot, the entry's index + 1; 0 for an empty slot.
    private var slots: [Int32]
    private let seed = UInt64.random(in: .min ... .max)

    /// An index of `ids`.
    init(_ ids: [String: Int]) {
        var size = 16
        while size < ids.count * 2 { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        entries.reserveCapacity(ids.count)
        for (name, id) in ids {
            var name = name
            name.withUTF8 { insert($0, id: id) }
        }
    }

    /// The id of `name`, or `nil`.
    subscript(name: String) -> Int? {
        var name = name
        return name.withUTF8 { utf8 in
            let mask = slots.count - 1
            var slot = hash(utf8) & mask
            while slots[slot] != 0 {
                let entry = entries[Int(slots[slot]) - 1]
                if entry.count == utf8.count, bytes.withUnsafeBufferPointer({ Self.equal($0, entry.start, utf8) }) {
                    return entry.id
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    private mutating func insert(_ utf8: UnsafeBufferPointer<UInt8>, id: Int) {
        let mask = slots.count - 1
        var slot = hash(utf8) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        entries.append((bytes.count, utf8.count, id))
        slots[slot] = Int32(entries.count)
        bytes.append(contentsOf: utf8)
    }

    private static func equal(_ stored: UnsafeBufferPointer<UInt8>, _ start: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let stored = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: stored[start..<(start + name.count)]))
        let name = UnsafeRawBufferPointer(name)
        var offset = 0
        while offset + 8 <= name.count {
            if stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != name.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < name.count {
            if stored[offset] != name[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Mixes the bytes eight at a time (multiply and shift), the last eight again, and the length.
    private func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(utf8)
        let count = raw.count
        var h = seed ^ UInt64(truncatingIfNeeded: count)
        var offset = 0
        while offset + 8 <= count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        if count >= 8 {
            tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for index in 0..<count { tail = tail << 8 | UInt64(raw[index]) }
        }
        h = (h ^ tail) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }
}
