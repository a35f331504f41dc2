import Statecraft

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
            index -= 1
            do { try JSONText.decodeEscape(bytes, at: &index, end: end, into: &out) } catch { return false }
        }
        return true
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
