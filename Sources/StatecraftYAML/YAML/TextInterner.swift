import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives each distinct spelling (UTF-8 bytes) one id and one `String`, so that a name written
/// many times in a file is decoded and allocated once, and its later uses only share it.
///
/// An open-addressing hash table of 8-byte slots, hashed like ``NameTable`` (the spelling's
/// length and end words with random multipliers, so that a file cannot choose names that
/// collide), that grows as spellings are added. A slot holds where the spelling is and 32 more
/// bits of the hash, so that a probe compares bytes only when those agree: a large file's
/// 10,000 names take a 256 KB table that stays in the cache, where slots holding the key words
/// took 1.3 MB and most lookups missed it. A spelling's length and id are stored just before
/// its bytes, so that a lookup that finds it reads one place after the slot, not two.
package struct TextInterner {
    private struct Slot {
        /// Bits of the hash that did not pick the slot.
        var tag: UInt32
        /// Where the spelling's header is in ``spellings``, + 1; 0 marks an empty slot.
        var offsetPlusOne: UInt32
    }

    /// Before each spelling's bytes in ``spellings``: its length and its id.
    private struct Header {
        var count: UInt32
        var id: UInt32

        static var size: Int { MemoryLayout<Header>.size }
    }

    private var slots = [Slot](repeating: Slot(tag: 0, offsetPlusOne: 0), count: 64)
    /// 64 minus the table's size in bits: a hash's top bits pick the first slot.
    private var shift: UInt64 = 58
    private let seed = NameTable.Seed()
    /// Each spelling's header and bytes, end to end (a `String` made from invalid UTF-8 would
    /// not keep the bytes).
    private var spellings: [UInt8] = []
    /// The spellings as strings, by id.
    package private(set) var strings: [String] = []
    /// The same, shared with the transitions decoded from them (``TransitionDefinition``), once
    /// ``sharedSpellings()`` made it.
    private var table: SpellingTable?

    package init() {}

    /// The id of `text`, added if it is new.
    package mutating func id(of text: UnsafeRawBufferPointer) -> Int {
        let hash = NameTable.hash(NameTable.key(text), of: text, seed: seed)
        let tag = Self.tag(hash)
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash >> shift)
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            spellings.withUnsafeBytes { spellings in
                while true {
                    let entry = slots[slot]
                    if entry.offsetPlusOne == 0 { return nil }
                    if entry.tag == tag {
                        let offset = Int(entry.offsetPlusOne) &- 1
                        let header = spellings.loadUnaligned(fromByteOffset: offset, as: Header.self)
                        if Int(header.count) == text.count
                            && (text.count == 0
                                || memcmp(spellings.baseAddress! + offset + Header.size, text.baseAddress!, text.count) == 0)
                        {
                            return Int(header.id)
                        }
                    }
                    slot = (slot &+ 1) & mask
                }
            }
        }
        if let found { return found }
        return add(text, tag: tag, at: slot)
    }

    /// Adds a new spelling at the empty `slot` its probe ended on.
    private mutating func add(_ text: UnsafeRawBufferPointer, tag: UInt32, at slot: Int) -> Int {
        let id = strings.count
        // A transition definition keeps a spelling in 32 bits, with negative values of its own.
        precondition(id < Int(Int32.max), "more distinct spellings than a text interner holds")
        // A copy of this interner that added spellings to the shared table first gave their ids
        // to other spellings: this one makes a table of its own, so that every name it gives is
        // its table's spelling.
        let diverged = table.map { $0.strings.count != id } ?? false
        if diverged { table = nil }
        strings.append(String(decoding: text, as: UTF8.self))
        if diverged { _ = sharedSpellings() } else { table?.append(strings[id]) }
        let offset = spellings.count
        precondition(offset + Header.size + text.count < Int(UInt32.max), "more spelling bytes than a text interner holds")
        withUnsafeBytes(of: Header(count: UInt32(text.count), id: UInt32(id))) { spellings.append(contentsOf: $0) }
        spellings.append(contentsOf: text)
        slots[slot] = Slot(tag: tag, offsetPlusOne: UInt32(offset + 1))
        // At most half full, so that probe runs stay short.
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    /// The slot's check bits: the hash's upper half, whose bits depend on every byte the hash
    /// reads (a product's low bits depend only on its factors' low bits). Spellings of one
    /// probe run share the bits that picked their first slot, and differ in the rest.
    private static func tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash >> 32)
    }

    /// The table of the spellings, which the transitions a decoder builds keep the names this
    /// interner gave in; the spellings added from now on are added to it too. Ask for it when
    /// building each transition: an interner whose copy added spellings to it first makes
    /// a table of its own.
    package mutating func sharedSpellings() -> SpellingTable {
        if let table { return table }
        let table = SpellingTable()
        for string in strings { table.append(string) }
        self.table = table
        return table
    }

    /// The one `String` for `text`.
    mutating func string(_ text: UnsafeRawBufferPointer) -> String {
        strings[id(of: text)]
    }

    /// `text` as a name written at `position`: its one `String`, and its id as the spelling
    /// that lets the compiler resolve it once (``Named/spelling``).
    mutating func named(_ text: UnsafeRawBufferPointer, at position: SourcePosition) -> Named {
        let id = id(of: text)
        return Named(strings[id], at: position, spelling: id)
    }

    /// Doubles the table, placing every spelling again.
    private mutating func grow() {
        slots = [Slot](repeating: Slot(tag: 0, offsetPlusOne: 0), count: slots.count * 2)
        shift -= 1
        let mask = slots.count - 1
        spellings.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Int(bytes.loadUnaligned(fromByteOffset: offset, as: Header.self).count)
                let text = UnsafeRawBufferPointer(rebasing: bytes[(offset + Header.size)..<(offset + Header.size + count)])
                let hash = NameTable.hash(NameTable.key(text), of: text, seed: seed)
                var slot = Int(truncatingIfNeeded: hash >> shift)
                while slots[slot].offsetPlusOne != 0 { slot = (slot + 1) & mask }
                slots[slot] = Slot(tag: Self.tag(hash), offsetPlusOne: UInt32(offset + 1))
                offset += Header.size + count
            }
        }
    }
}
