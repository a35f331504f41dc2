import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The string values of a script's plain string arguments, kept by their bytes: a script names
/// the same few values over and over (places, user names), and a value found here costs a
/// compare and a retain where a new one costs UTF-8 validation and, past 15 bytes, an
/// allocation.
///
/// A fixed number of slots, each holding the last value whose bytes hashed to it, so that its
/// memory stays the same however many distinct values a script has.
struct ArgumentStrings {
    private static let slotBits = 6
    /// Per slot, the bytes of the value kept there and the value (`.null` while there is none).
    private var keys = [[UInt8]](repeating: [], count: 1 << slotBits)
    private var values = [Value](repeating: .null, count: 1 << slotBits)

    /// The `.string` value of `bytes`, which are valid UTF-8 (a plain argument's, between its
    /// quotes).
    mutating func value(of bytes: UnsafeRawBufferPointer) -> Value {
        let slot = Self.slot(of: bytes)
        // The kept bytes are read in place: no copy of the slot, no reference counting but the
        // value's own.
        if case .string = values[slot], keys[slot].withUnsafeBytes({ Self.equal($0, bytes) }) { return values[slot] }
        let value = Value.string(String(decoding: bytes, as: UTF8.self))
        keys[slot] = Array(bytes)
        values[slot] = value
        return value
    }

    @inline(__always)
    private static func equal(_ kept: UnsafeRawBufferPointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard kept.count == count else { return false }
        guard count > 0, let a = kept.baseAddress, let b = bytes.baseAddress else { return true }
        if count >= 8 && count <= 16 {
            // Two words that overlap in the middle.
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        return memcmp(a, b, count) == 0
    }

    /// A hash of the length and the first and last eight bytes (or the bytes, when fewer).
    @inline(__always)
    private static func slot(of bytes: UnsafeRawBufferPointer) -> Int {
        var first: UInt64 = 0
        var last: UInt64 = 0
        if bytes.count >= 8 {
            first = bytes.loadUnaligned(as: UInt64.self)
            last = bytes.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self)
        } else {
            for byte in bytes { first = first << 8 | UInt64(byte) }
        }
        let mixed = (first ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9 &+ last &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
    }
}
