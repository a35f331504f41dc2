/// Maps names given as UTF-8 bytes to dense ids without building a `String`: an open-addressing
/// hash table, built once per machine (for the compiler's look-ups and for input scripts).
///
/// A name is keyed by its length and two words loaded from its ends (its first and last eight
/// bytes, or four, or three single bytes for a name shorter than four). For a name of at most
/// sixteen bytes the key is the name, so a lookup is two loads, two multiplies that run side
/// by side, and one compare; a longer name also hashes and compares its middle bytes.
///
/// `@usableFromInline` with `@inlinable package` members, not `@_spi` public: smrun inlines
/// this on its per-line path, and Swift 6.3 inlines a `package` member into another module
/// only when its type is `@usableFromInline` (a plain `package` type cost 19% more
/// instructions per script line, callgrind; see README, Source layout).
@usableFromInline package struct NameTable: Sendable {
    @usableFromInline
    struct Slot {
        @usableFromInline var head: UInt64
        @usableFromInline var tail: UInt64
        /// The name's id + 1; 0 marks an empty slot.
        @usableFromInline var idPlusOne: Int32
        @usableFromInline var length: Int32
        /// Where the name's bytes start in ``Storage/bytes``.
        @usableFromInline var start: Int32
        /// The caller's tag for the name (``NameTable/init(_:tags:)``).
        @usableFromInline var tag: Int32
    }

    /// The random multipliers of ``hash(_:of:seed:)``, drawn anew for every table: without
    /// them, a file could choose names that collide.
    @usableFromInline
    package struct Seed: Sendable {
        @usableFromInline let head: UInt64
        @usableFromInline let tail: UInt64
        @usableFromInline let middle: UInt64
        /// Where the fold of a long name's middle words starts.
        @usableFromInline let fold: UInt64

        package init() {
            head = UInt64.random(in: .min ... .max) | 1
            tail = UInt64.random(in: .min ... .max) | 1
            middle = UInt64.random(in: .min ... .max) | 1
            fold = UInt64.random(in: .min ... .max)
        }
    }

    /// Raw memory, immutable after init, so a lookup costs no reference counting.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
        @usableFromInline let slots: UnsafeMutablePointer<Slot>
        /// 64 minus the table's size in bits: a hash's top bits pick the first slot.
        @usableFromInline let shift: UInt64
        @usableFromInline let mask: Int
        @usableFromInline let seed = Seed()
        /// The length in bytes of the longest name.
        @usableFromInline let longest: Int

        init(_ names: [String], tags: [Int32]) {
            let total = names.reduce(0) { $0 + $1.utf8.count }
            precondition(total < Int32.max && (tags.isEmpty || tags.count == names.count))
            bytes = .allocate(capacity: max(total, 1))
            var bits: UInt64 = 3
            while 1 << bits < names.count * 2 { bits += 1 }
            shift = 64 - bits
            mask = 1 << bits - 1
            slots = .allocate(capacity: mask + 1)
            slots.initialize(repeating: Slot(head: 0, tail: 0, idPlusOne: 0, length: 0, start: 0, tag: 0), count: mask + 1)
            longest = names.reduce(0) { max($0, $1.utf8.count) }
            var offset = 0
            for (id, name) in names.enumerated() {
                var name = name
                let (key, hash, count) = name.withUTF8 { utf8 in
                    if let base = utf8.baseAddress { (bytes + offset).initialize(from: base, count: utf8.count) }
                    let name = UnsafeRawBufferPointer(utf8)
                    let key = NameTable.key(name)
                    return (key, NameTable.hash(key, of: name, seed: seed), utf8.count)
                }
                var slot = Int(hash >> shift)
                while slots[slot].idPlusOne != 0 { slot = (slot + 1) & mask }
                slots[slot] = Slot(
                    head: key.head, tail: key.tail, idPlusOne: Int32(id + 1), length: Int32(count), start: Int32(offset),
                    tag: tags.isEmpty ? 0 : tags[id])
                offset += count
            }
        }

        deinit {
            bytes.deallocate()
            slots.deallocate()
        }
    }

    @usableFromInline let storage: Storage

    /// A table of `names`, each with its tag (by default 0), which a lookup also returns: what
    /// the caller would otherwise look up by the id, read with the name.
    package init(_ names: [String], tags: [Int32] = []) {
        storage = Storage(names, tags: tags)
    }

    /// The length in bytes of the longest name: a longer spelling names nothing.
    @inlinable
    package var longestName: Int { storage.longest }

    /// The id of the name spelt by `name`, or `nil`.
    @inlinable @inline(__always)
    package func id(of name: UnsafeRawBufferPointer) -> Int? {
        entry(of: name)?.id
    }

    /// The id and tag of the name spelt by `name`, or `nil`.
    @inlinable @inline(__always)
    package func entry(of name: UnsafeRawBufferPointer) -> (id: Int, tag: Int32)? {
        let storage = self.storage
        let key = Self.key(name)
        let count = name.count
        // `shift` is below 64 and leaves fewer than 63 bits: a plain shift, and a slot that is
        // never negative.
        var slot = Int(truncatingIfNeeded: Self.hash(key, of: name, seed: storage.seed) &>> storage.shift)
        while true {
            let entry = storage.slots[slot]
            if entry.idPlusOne == 0 { return nil }
            if entry.head == key.head && entry.tail == key.tail && Int(entry.length) == count
                && (count <= 16 || Self.middleEqual(storage.bytes + Int(entry.start), name))
            {
                return (Int(entry.idPlusOne) - 1, entry.tag)
            }
            slot = (slot + 1) & storage.mask
        }
    }

    /// The id of `name`, or `nil`.
    package func id(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { id(of: UnsafeRawBufferPointer($0)) }
    }

    /// The longest run of occupied slots, which bounds the probes of a lookup.
    var longestRun: Int {
        var longest = 0
        var run = 0
        for slot in 0..<(2 * (storage.mask + 1)) {
            run = storage.slots[slot & storage.mask].idPlusOne == 0 ? 0 : run + 1
            longest = max(longest, run)
        }
        return min(longest, storage.mask + 1)
    }

    /// Two words that, with the length, spell a name of up to sixteen bytes: overlapping loads
    /// from both ends.
    @inlinable @inline(__always)
    package static func key(_ bytes: UnsafeRawBufferPointer) -> (head: UInt64, tail: UInt64) {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return (0, 0) }
        if count >= 8 {
            return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        if count >= 4 {
            return (
                UInt64(base.loadUnaligned(as: UInt32.self)),
                UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            )
        }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count >> 1, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self))
        return (first | middle << 8 | last << 16, 0)
    }

    /// Multiply-add-shift over the key, the length and, for a name longer than sixteen bytes,
    /// its middle bytes, with the seed's random odd multipliers (a universal family: without
    /// the seed, names cannot be chosen to collide). Use the top bits. The multiplies are
    /// independent, so the hash is ready a few cycles after the key.
    @inlinable @inline(__always)
    package static func hash(_ key: (head: UInt64, tail: UInt64), of name: UnsafeRawBufferPointer, seed: Seed) -> UInt64 {
        let count = name.count
        // The length goes where a short name's key has no bytes (a longer name's equal head
        // and tail with another length are few: the lengths from 8 to 16).
        var h = (key.head ^ UInt64(truncatingIfNeeded: count) &<< 56) &* seed.head &+ key.tail &* seed.tail
        if count > 16 {
            // Up to 24 bytes, the middle is one word (overlapping the tail).
            let middle = count <= 24 ? name.baseAddress!.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : foldMiddle(name, seed.fold)
            h &+= middle &* seed.middle
        }
        return h
    }

    /// Folds the bytes between the first and the last eight of a name longer than 24 bytes,
    /// eight at a time (the last word overlapping the tail), starting from the seed's `fold`:
    /// each step is a bijection of the word, so names cannot be chosen to fold alike.
    @usableFromInline
    package static func foldMiddle(_ name: UnsafeRawBufferPointer, _ start: UInt64) -> UInt64 {
        var h = start
        var index = 8
        while index < name.count &- 8 {
            let word = name.baseAddress!.loadUnaligned(fromByteOffset: min(index, name.count &- 16), as: UInt64.self)
            h = (h ^ (h >> 32) ^ word) &* 0xBF58_476D_1CE4_E5B9
            index &+= 8
        }
        return h
    }

    /// Whether the bytes between the first and the last eight are equal (for names longer than
    /// sixteen bytes, of equal length): up to 24 bytes one word, in line.
    @inlinable @inline(__always)
    package static func middleEqual(_ stored: UnsafePointer<UInt8>, _ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count <= 24 else { return longMiddleEqual(stored, name) }
        return UnsafeRawPointer(stored).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            == name.baseAddress!.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    /// ``middleEqual(_:_:)`` for names longer than 24 bytes.
    @usableFromInline
    package static func longMiddleEqual(_ stored: UnsafePointer<UInt8>, _ name: UnsafeRawBufferPointer) -> Bool {
        let base = name.baseAddress!
        var index = 8
        let end = name.count &- 8
        while index &+ 8 <= end {
            if UnsafeRawPointer(stored).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                return false
            }
            index &+= 8
        }
        // The rest, by the one word that ends where the middle does (overlapping bytes compared).
        return index == end
            || UnsafeRawPointer(stored).loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self)
                == base.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self)
    }
}
