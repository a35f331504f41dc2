/// Maps names given as UTF-8 bytes to dense ids without building a `String`: an open-addressing
/// hash table over the bytes, built once per machine.
public struct NameTable: Sendable {
    /// Names laid end to end, and per slot of the table the name's id + 1 (0: empty), offset
    /// and length. Raw memory, immutable after init, so a lookup costs no reference counting.
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let slots: UnsafeMutablePointer<(id: Int32, length: Int32, start: Int)>
        let mask: Int

        init(_ names: [String]) {
            let total = names.reduce(0) { $0 + $1.utf8.count }
            bytes = .allocate(capacity: max(total, 1))
            var size = 8
            while size < names.count * 2 { size *= 2 }
            slots = .allocate(capacity: size)
            slots.initialize(repeating: (0, 0, 0), count: size)
            mask = size - 1
            var offset = 0
            for (id, name) in names.enumerated() {
                let utf8 = Array(name.utf8)
                for (index, byte) in utf8.enumerated() { bytes[offset + index] = byte }
                var slot = utf8.withUnsafeBytes { NameTable.hash($0) } & mask
                while slots[slot].id != 0 { slot = (slot + 1) & mask }
                slots[slot] = (Int32(id + 1), Int32(utf8.count), offset)
                offset += utf8.count
            }
        }

        deinit {
            bytes.deallocate()
            slots.deallocate()
        }
    }

    private let storage: Storage

    public init(_ names: [String]) {
        storage = Storage(names)
    }

    /// The id of the name spelt by `name`, or `nil`.
    @inline(__always)
    public func id(of name: UnsafeRawBufferPointer) -> Int? {
        let storage = self.storage
        var slot = Self.hash(name) & storage.mask
        while true {
            let entry = storage.slots[slot]
            if entry.id == 0 { return nil }
            if Int(entry.length) == name.count, Self.equal(storage.bytes + entry.start, name) {
                return Int(entry.id) - 1
            }
            slot = (slot + 1) & storage.mask
        }
    }

    /// The id of `name`, or `nil`.
    public func id(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { id(of: UnsafeRawBufferPointer($0)) }
    }

    /// A hash of the length and of the first and last eight bytes: a few instructions for any
    /// name, and names that share both ends still end up apart after the full comparison.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        let count = bytes.count
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count >= 8 {
            let base = bytes.baseAddress!
            h ^= base.loadUnaligned(as: UInt64.self)
            h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
            h ^= base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else {
            for index in 0..<count { h = (h ^ UInt64(bytes[index])) &* 0x100_0000_01b3 }
        }
        h = (h ^ (h >> 29)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }

    @inline(__always)
    private static func equal(_ stored: UnsafePointer<UInt8>, _ name: UnsafeRawBufferPointer) -> Bool {
        let count = name.count
        guard let base = name.baseAddress else { return true }
        var index = 0
        while index &+ 8 <= count {
            if UnsafeRawPointer(stored).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                return false
            }
            index &+= 8
        }
        while index < count {
            if stored[index] != base.load(fromByteOffset: index, as: UInt8.self) { return false }
            index &+= 1
        }
        return true
    }
}
