import Testing

@testable import Statecraft

struct JSONTextTests {
    /// The word-at-a-time check agrees with the byte-by-byte definition for every byte value,
    /// at every position of strings of every length up to 24 (the short, overlapping and
    /// long paths), among plain neighbours of every kind.
    @Test func plainStringsAreToldByteForByte() {
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x41, 0x5B, 0x5D, 0x7E]
        var mismatches: [String] = []
        for length in 1...24 {
            for position in 0..<length {
                for neighbour in neighbours {
                    for byte in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: neighbour, count: length)
                        bytes[position] = byte
                        let plain = bytes.withUnsafeBytes { JSONText.isPlain($0) }
                        if plain != JSONText.isPlain(byte) { mismatches.append("byte \(byte) at \(position) of \(length)") }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect([UInt8]().withUnsafeBytes { JSONText.isPlain($0) })
    }

    /// A byte that fails is found whatever follows it, including bytes whose borrows or
    /// carries could hide it (0x00, 0xFF, 0x7F next to each other).
    @Test func failingBytesAreFoundBesideOthers() {
        let tricky: [UInt8] = [0x00, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xFF]
        var missed: [[UInt8]] = []
        for length in 2...17 {
            for first in tricky {
                for second in tricky + [0x41] {
                    for position in 0..<(length - 1) {
                        var bytes = [UInt8](repeating: 0x41, count: length)
                        bytes[position] = first
                        bytes[position + 1] = second
                        if bytes.withUnsafeBytes({ JSONText.isPlain($0) }) { missed.append(bytes) }
                    }
                }
            }
        }
        #expect(missed.isEmpty, "\(missed.prefix(5))")
    }

    /// DEL is escaped like the other control characters, whatever else the string holds.
    @Test func deleteIsEscapedAlone() {
        #expect(JSONText.quoted("a\u{7F}") == #""a\u007f""#)
        #expect(JSONText.quoted("a\u{7F}\n") == #""a\u007f\n""#)
        #expect(JSONText.quoted("plain ASCII ~") == #""plain ASCII ~""#)
    }
}
