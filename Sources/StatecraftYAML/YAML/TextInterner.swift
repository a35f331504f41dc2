@_spi(Engine) import Statecraft

/// Gives each distinct spelling (UTF-8 bytes) one id and one `String`, so that a name written
/// many times in a file is decoded and allocated once, and its later uses only share it.
///
/// An open-addressing hash table keyed like ``NameTable`` (the spelling's length and end
/// words, hashed with random multipliers, so that a file cannot choose names that collide), but
/// one that grows as spellings are added.
package struct TextInterner {
    private struct Slot {
        var head: UInt64
        var tail: UInt64
        /// The spelling's id + 1; 0 marks an empty slot.
        var idPlusOne: Int
        var length: Int
        /// Where the spelling starts in ``spellings``.
        var start: Int
    }

    private var slots = [Slot](repeating: Slot(head: 0, tail: 0, idPlusOne: 0, length: 0, start: 0), count: 64)
    /// 64 minus the table's size in bits: a hash's top bits pick the first slot.
    private var shift: UInt64 = 58
    private let seed = NameTable.Seed()
    /// The spellings' bytes end to end (a `String` made from invalid UTF-8 would not keep them).
    private var spellings: [UInt8] = []
    /// The spellings as strings, by id.
    package private(set) var strings: [String] = []

    package init() {}

    /// The id of `text`, added if it is new.
    package mutating func id(of text: UnsafeRawBufferPointer) -> Int {
        let key = NameTable.key(text)
        let mask = slots.count - 1
        var slot = Int(NameTable.hash(key, of: text, seed: seed) >> shift)
        while true {
            let entry = slots[slot]
            if entry.idPlusOne == 0 { break }
            if entry.head == key.head && entry.tail == key.tail && entry.length == text.count
                && (text.count <= 16 || spellings.withUnsafeBufferPointer { NameTable.middleEqual($0.baseAddress! + entry.start, text) })
            {
                return entry.idPlusOne - 1
            }
            slot = (slot + 1) & mask
        }
        let id = strings.count
        strings.append(String(decoding: text, as: UTF8.self))
        slots[slot] = Slot(head: key.head, tail: key.tail, idPlusOne: id + 1, length: text.count, start: spellings.count)
        spellings.append(contentsOf: text)
        // At most half full, so that probe runs stay short.
        if strings.count * 2 > slots.count { grow() }
        return id
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
        let old = slots
        slots = [Slot](repeating: Slot(head: 0, tail: 0, idPlusOne: 0, length: 0, start: 0), count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for entry in old where entry.idPlusOne != 0 {
            let hash = spellings.withUnsafeBytes { bytes in
                let text = UnsafeRawBufferPointer(rebasing: bytes[entry.start..<(entry.start + entry.length)])
                return NameTable.hash((entry.head, entry.tail), of: text, seed: seed)
            }
            var slot = Int(hash >> shift)
            while slots[slot].idPlusOne != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
