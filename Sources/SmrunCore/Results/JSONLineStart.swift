/// The start of a JSON result line, `{"line":` and the script line's decimal digits, kept from
/// one result to the next: lines mostly advance by one, and counting up in place is cheaper
/// than formatting anew. The text is two words, `{"line":` and the digits, so that the output
/// takes it with one 16-byte store (``OutputBuffer/append(_:_:count:)``).
@usableFromInline package struct JSONLineStart {
    /// `{"line":` as a little-endian word: the text's first eight bytes.
    @inlinable package static var opening: UInt64 { 0x3A22_656E_696C_227B }

    /// The digits of ``line``, the first in the lowest byte: the text's second word.
    @usableFromInline package var digits = UInt64(UInt8(ascii: "0"))
    /// How many bytes of the two words the text is: eight and the digits'.
    @usableFromInline package var count = 9
    /// Where the last digit is in ``digits``: its bit offset.
    @usableFromInline package var lastDigit: UInt64 = 0
    /// The line the digits spell (line 0 before the first, so that line 1 counts up from it).
    @usableFromInline package var line = 0

    /// Makes the text spell `line` (not negative). False, with the text unchanged, for a line of
    /// more than eight digits: ``with(_:_:)`` spells that one.
    @inline(__always)
    @inlinable package mutating func advance(to line: Int) -> Bool {
        // Most often the next line, whose last digit alone changes.
        if line == self.line &+ 1 && (digits &>> lastDigit) & 0xFF != UInt64(UInt8(ascii: "9")) {
            digits &+= 1 &<< lastDigit
            self.line = line
            return true
        }
        return line == self.line || spell(line)
    }

    @inline(never)
    @inlinable package mutating func spell(_ next: Int) -> Bool {
        if next == line &+ 1 {
            // Counting up past a 9: nines become zeros, up to the digit that goes up by one.
            var digit = (count &- 9) &* 8
            var word = digits
            while digit >= 0 {
                if (word &>> UInt64(digit)) & 0xFF != UInt64(UInt8(ascii: "9")) {
                    digits = word &+ (1 &<< UInt64(digit))
                    line = next
                    return true
                }
                word &-= 9 &<< UInt64(digit)
                digit &-= 8
            }
            // All nines: one digit more, spelled anew.
        }
        guard next < 100_000_000 else { return false }
        DecimalDigits.with(next) { spelled in
            var word: UInt64 = 0
            for index in spelled.indices { word |= UInt64(spelled[index]) &<< UInt64(index &* 8) }
            digits = word
            count = 8 &+ spelled.count
            lastDigit = UInt64(truncatingIfNeeded: (spelled.count &- 1) &* 8)
        }
        line = next
        return true
    }

    /// Calls `body` with `{"line":` and the digits of `line`, a line number (not negative).
    /// Out of line: its buffer on the stack would cost the plain path's frame a stack check.
    @inline(never)
    @inlinable package mutating func with<Result>(_ line: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // `{"line":` and up to 19 digits.
        var text: (UInt64, UInt64, UInt64, UInt64) = (Self.opening.littleEndian, 0, 0, 0)
        return withUnsafeMutableBytes(of: &text) { bytes in
            if advance(to: line) {
                bytes.storeBytes(of: digits.littleEndian, toByteOffset: 8, as: UInt64.self)
                return body(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            }
            return DecimalDigits.with(line) { spelled in
                UnsafeMutableRawBufferPointer(rebasing: bytes[8..<(8 + spelled.count)]).copyMemory(from: spelled)
                return body(UnsafeRawBufferPointer(rebasing: bytes[..<(8 + spelled.count)]))
            }
        }
    }
}
