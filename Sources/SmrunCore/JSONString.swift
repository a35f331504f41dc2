/// Decoding of JSON string literals given in input scripts (`driveToLocation "The Witches Brew"`).
enum JSONString {
    /// Decodes a complete JSON string literal (quotes included) into UTF-8 `out`; false when
    /// `bytes` is not exactly one valid literal.
    static func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\""),
            isValidUTF8(bytes)
        else { return false }
        var index = 1
        let end = bytes.count - 1
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") || byte < 0x20 { return false }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < end else { return false }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, at: index, end: end) else { return false }
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                        let low = hex4(bytes, at: index + 2, end: end), (0xDC00..<0xE000).contains(low)
                    else { return false }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { return false }
                out.append(contentsOf: UTF8.encode(unicode)!)
            default:
                return false
            }
        }
        return true
    }

    private static func hex4(_ bytes: UnsafeRawBufferPointer, at index: Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexDigit(bytes[index + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Whether `bytes` is valid UTF-8 (checked quickly for the all-ASCII common case).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
