#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SCXML's way of writing a state test, `In(id)` (the null datamodel's form) or `In('id')` (the
/// ECMAScript datamodel's), turned into the expression language's `in(id)`, and the event's
/// data, `_event.data`, into `arg` (a field of it, `_event.data.NAME`, into `arg.NAME`), and its name, `_event.name`, into `input()`. Everything
/// else is the expression language already; string literals are left as they are.
enum SCXMLExpression {
    /// The event's data, as SCXML's datamodels name it.
    static let eventData = "_event.data"
    /// The event's name, as SCXML's datamodels name it.
    static let eventName = "_event.name"

    static func statecraftText(of text: String) -> String {
        guard mentionsIn(text) || contains("_event.", in: text) else { return text }
        let scalars = Array(text.unicodeScalars)
        // `_event.data.NAME` is a field of the event's data, `arg.NAME`; `_event.name` has none.
        let fields = [(Array(eventData.unicodeScalars), "arg", true), (Array(eventName.unicodeScalars), "input()", false)]
        var out = String.UnicodeScalarView()
        var index = 0
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" || scalar == "'" {
                // Copy a string literal whole, escapes included.
                out.append(scalar)
                index += 1
                while index < scalars.count && scalars[index] != scalar {
                    if scalars[index] == "\\" && index + 1 < scalars.count {
                        out.append(scalars[index])
                        index += 1
                    }
                    out.append(scalars[index])
                    index += 1
                }
                if index < scalars.count { out.append(scalars[index]) }
                index += 1
                continue
            }
            if scalar == "I", index + 1 < scalars.count, scalars[index + 1] == "n",
                index == 0 || !isIdentifier(scalars[index - 1]),
                let rewritten = stateTest(scalars, from: index + 2)
            {
                out.append(contentsOf: "in(\(rewritten.name))".unicodeScalars)
                index = rewritten.end
                continue
            }
            if scalar == "_", index == 0 || !isIdentifier(scalars[index - 1]),
                let (field, replacement, _) = fields.first(where: { field, _, hasFields in
                    scalars[index...].starts(with: field)
                        && (index + field.count == scalars.count
                            || !isIdentifier(scalars[index + field.count]) && (hasFields || scalars[index + field.count] != "."))
                })
            {
                out.append(contentsOf: replacement.unicodeScalars)
                index += field.count
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }

    /// Whether `In` occurs in the text at all: most conditions are left as they are.
    /// Whether `text` names `_event` outside its string literals.
    static func mentionsEventVariable(_ text: String) -> Bool {
        guard contains("_event", in: text) else { return false }
        let scalars = Array(text.unicodeScalars)
        let name = Array("_event".unicodeScalars)
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        var index = 0
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == "\\" { index += 1 } else if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "_", index == 0 || !isIdentifier(scalars[index - 1]), scalars[index...].starts(with: name),
                index + name.count == scalars.count || !isIdentifier(scalars[index + name.count])
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether `text` holds `word`, compared as UTF-8 bytes: most conditions and values hold no
    /// `_` at all, and String's own search costs more than the rest of reading them.
    private static func contains(_ word: StaticString, in text: String) -> Bool {
        let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= word.count else { return false }
            var start = 0
            while let underscore = bytes[start...].firstIndex(of: word[0]) {
                if bytes.count - underscore < word.count { return false }
                if memcmp(bytes.baseAddress! + underscore, word.baseAddress!, word.count) == 0 { return true }
                start = underscore + 1
            }
            return false
        }
    }

    private static func mentionsIn(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "I") && byte == UInt8(ascii: "n") { return true }
            previous = byte
        }
        return false
    }

    /// After `In`: blanks, `(`, blanks, an id bare or quoted, blanks, `)`. Returns the id and
    /// where the call ends, or `nil` when the text is something else.
    private static func stateTest(_ scalars: [Unicode.Scalar], from start: Int) -> (name: String, end: Int)? {
        var index = start
        func skipBlanks() { while index < scalars.count && scalars[index].properties.isWhitespace { index += 1 } }
        skipBlanks()
        guard index < scalars.count, scalars[index] == "(" else { return nil }
        index += 1
        skipBlanks()
        var quote: Unicode.Scalar?
        if index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" {
            quote = scalars[index]
            index += 1
        }
        var name = String.UnicodeScalarView()
        while index < scalars.count, scalars[index] != ")", scalars[index] != quote, !scalars[index].properties.isWhitespace {
            name.append(scalars[index])
            index += 1
        }
        if let quote {
            guard index < scalars.count, scalars[index] == quote else { return nil }
            index += 1
        }
        skipBlanks()
        guard !name.isEmpty, index < scalars.count, scalars[index] == ")" else { return nil }
        return (String(name), index + 1)
    }
}
