/// JSON string quoting, shared by value descriptions, diagnostics and output writers.
///
/// `@usableFromInline` with `@inlinable package` members, not `@_spi` public: smrun inlines
/// this on its per-line path, and Swift 6.3 inlines a `package` member into another module
/// only when its type is `@usableFromInline` (a plain `package` type cost 19% more
/// instructions per script line, callgrind; see README, Source layout).
@usableFromInline package enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    package static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        appendQuoted(s.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal: ``appendQuoted(_:to:)`` on its UTF-8, specialized
    /// here, for callers in other modules.
    package static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: &out) }
    }

    /// Appends `bytes` (UTF-8, possibly invalid) as a JSON string literal. Invalid UTF-8 becomes
    /// U+FFFD, so the output is always valid JSON.
    package static func appendQuoted<C: Collection<UInt8>>(_ bytes: C, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if bytes.allSatisfy(isPlain) {
            out.append(contentsOf: bytes)
        } else {
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                appendEscaped(scalar, to: &out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `s` with its control and invisible characters (``isControl(_:)``) escaped the way a JSON
    /// string escapes them (`\n`, `\u007f`, `\ufeff`), and nothing else changed: text that
    /// shows a name or a value read from a user safely, in the one escape style that smrun's
    /// output and diagnostics use.
    package static func escapingControls(_ s: String) -> String {
        guard mayHoldControls(s) else { return s }
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out: [UInt8] = []
        for scalar in s.unicodeScalars {
            if isControl(scalar) { appendEscaped(scalar, to: &out) } else { out.append(contentsOf: String(scalar).utf8) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `s` may hold a control or invisible character: its UTF-8 has a byte below 0x20,
    /// DEL, or one that starts a character beyond U+007F (from 0xC2: the C1 controls, the soft
    /// hyphen, the format characters). One pass over the bytes, where decoding every scalar of
    /// every message cost `smrun validate` of a large file more than building the messages.
    private static func mayHoldControls(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            // Most messages are plain ASCII, which ``isPlain(_:)`` tells eight bytes at a time.
            !isPlain(UnsafeRawBufferPointer(bytes)) && bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 >= 0xC2 }
        }
    }

    /// The characters a terminal would act on, or show as nothing, rather than show: C0
    /// controls, DEL and C1 controls, and the invisible ones: format characters (a byte order
    /// mark U+FEFF, zero-width spaces and joiners, direction marks and overrides, the soft
    /// hyphen) and the line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        guard scalar.value >= 0xAD else { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Whether `byte` stands for itself inside a JSON string as Statecraft writes one: printable
    /// ASCII other than `"` and `\` (DEL and control characters are escaped).
    @inlinable
    package static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Whether every byte of `bytes` is ``isPlain(_:)``, tested eight bytes at a time: the check
    /// that lets printers copy a string's bytes between quotes as they are.
    @inlinable
    package static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 4 else { return bytes.allSatisfy(isPlain) }
        if bytes.count < 8 {
            // Two four-byte halves that overlap in the middle.
            let low = UInt64(base.loadUnaligned(as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: bytes.count &- 4, as: UInt32.self))
            return !hasNonPlainByte(low | high << 32)
        }
        var offset = 0
        while offset &+ 8 <= bytes.count {
            if hasNonPlainByte(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset &+= 8
        }
        // The last eight bytes, overlapping some already tested.
        return offset == bytes.count || !hasNonPlainByte(base.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self))
    }

    /// Whether some byte of `word` is not ``isPlain(_:)``. Each term is exact as a whole: a
    /// borrow or carry only disturbs the bytes after one that already fails.
    @inlinable @inline(__always)
    static func hasNonPlainByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let delOrHigh = (word &+ ones) | word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | delOrHigh | quote | backslash) & (ones &* 0x80) != 0
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        switch scalar {
        case "\"": out.append(contentsOf: [0x5C, 0x22])
        case "\\": out.append(contentsOf: [0x5C, 0x5C])
        case "\n": out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case "\r": out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case "\t": out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case _ where isControl(scalar):
            // Beyond U+FFFF (the tag characters) as a surrogate pair, as JSON writes it.
            for unit in UTF16.encode(scalar)! {
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
            }
        default:
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    /// Why a backslash escape in a JSON string could not be decoded, and the byte offset to
    /// report it at.
    package struct EscapeError: Error, Sendable {
        package enum Kind: Sendable {
            /// A backslash before a character that is not an escape.
            case unknownEscape
            /// A `\u` without four hexadecimal digits; the offset is the first missing or bad one.
            case badHexDigits
            /// A `\u` escape of half a surrogate pair without the other half.
            case loneSurrogate
        }

        package let kind: Kind
        package let offset: Int
    }

    /// Decodes the escape whose backslash is at `index` of `bytes`, of which the string may use
    /// the bytes before `end`; at least one must follow the backslash. Appends what the escape
    /// stands for as UTF-8 to `out` and moves `index` past it. A surrogate pair, two `\u`
    /// escapes, is one character. Shared by input scripts and snapshot files.
    package static func decodeEscape(
        _ bytes: UnsafeRawBufferPointer, at index: inout Int, end: Int, into out: inout [UInt8]
    ) throws(EscapeError) {
        let backslash = index
        let escape = bytes[index + 1]
        index += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(bytes, at: &index, end: end)
            if (0xD800..<0xDC00).contains(scalar) {
                guard end - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw EscapeError(kind: .loneSurrogate, offset: backslash)
                }
                index += 2
                let low = try hex4(bytes, at: &index, end: end)
                guard (0xDC00..<0xE000).contains(low) else { throw EscapeError(kind: .loneSurrogate, offset: backslash) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw EscapeError(kind: .loneSurrogate, offset: backslash) }
            out.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw EscapeError(kind: .unknownEscape, offset: backslash)
        }
    }

    /// Four hexadecimal digits at `index`, which moves past them.
    private static func hex4(_ bytes: UnsafeRawBufferPointer, at index: inout Int, end: Int) throws(EscapeError) -> UInt32 {
        guard end - index >= 4 else { throw EscapeError(kind: .badHexDigits, offset: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw EscapeError(kind: .badHexDigits, offset: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
