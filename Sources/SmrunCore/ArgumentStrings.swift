@_spi(Engine) import Statecraft

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
    private struct Slot {
        var bytes: [UInt8]
        var value: Value
    }

    private static let slotBits = 6
    private var slots = [Slot?](repeating: nil, count: 1 << slotBits)

    /// The `.string` value of `bytes`, which are valid UTF-8 (a plain argument's, between its
    /// quotes).
    mutating func value(of bytes: UnsafeRawBufferPointer) -> Value {
        let slot = Self.slot(of: bytes)
        if let cached = slots[slot], Self.equal(cached.bytes, bytes) { return cached.value }
        let value = Value.string(String(decoding: bytes, as: UTF8.self))
        slots[slot] = Slot(bytes: Array(bytes), value: value)
        return value
    }

    @inline(__always)
    private static func equal(_ kept: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        kept.count == bytes.count
            && kept.withUnsafeBytes { kept in bytes.count == 0 || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
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
