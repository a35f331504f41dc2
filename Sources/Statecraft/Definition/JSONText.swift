/// JSON string quoting, shared by value descriptions, diagnostics and output writers.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        appendQuoted(s.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes` (UTF-8, possibly invalid) as a JSON string literal. Invalid UTF-8 becomes
    /// U+FFFD, so the output is always valid JSON.
    public static func appendQuoted<C: Collection<UInt8>>(_ bytes: C, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: bytes)
        } else {
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                appendEscaped(scalar, to: &out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        switch scalar {
        case "\"": out.append(contentsOf: [0x5C, 0x22])
        case "\\": out.append(contentsOf: [0x5C, 0x5C])
        case "\n": out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case "\r": out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case "\t": out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(hex[Int(scalar.value >> 4)])
            out.append(hex[Int(scalar.value & 0xF)])
        default:
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
    }
}
