/// Maps names given as UTF-8 bytes to dense ids without building a `String`: an open-addressing
/// hash table over the bytes, built once per machine.
public struct NameTable: Sendable {
    private let bytes: [UInt8]
    /// Per name: start offset and length in `bytes`.
    private let spans: [(start: Int, count: Int)]
    /// Slots hold id + 1; 0 is empty. The size is a power of two, at least twice the name count.
    private let slots: [Int32]
    private let mask: Int

    public init(_ names: [String]) {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for name in names {
            spans.append((bytes.count, name.utf8.count))
            bytes.append(contentsOf: name.utf8)
        }
        var size = 8
        while size < names.count * 2 { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (id, name) in names.enumerated() {
            var slot = name.utf8.withContiguousStorageIfAvailable { Self.hash(UnsafeRawBufferPointer($0)) } ?? Self.hash(Array(name.utf8))
            slot &= size - 1
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(id + 1)
        }
        self.bytes = bytes
        self.spans = spans
        self.slots = slots
        self.mask = size - 1
    }

    /// The id of the name spelt by `name`, or `nil`.
    @inline(__always)
    public func id(of name: UnsafeRawBufferPointer) -> Int? {
        var slot = Self.hash(name) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let span = spans[entry - 1]
            if span.count == name.count
                && bytes.withUnsafeBufferPointer({ stored in
                    name.count == 0 || memcmpEqual(stored.baseAddress! + span.start, name.baseAddress!, name.count)
                })
            {
                return entry - 1
            }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `name`, or `nil`.
    public func id(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { id(of: UnsafeRawBufferPointer($0)) }
    }

    /// FNV-1a over the bytes.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    private static func hash(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { hash($0) }
    }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    let b = b.assumingMemoryBound(to: UInt8.self)
    for i in 0..<count where a[i] != b[i] { return false }
    return true
}
