/// A JSON value, read by a strict reader (RFC 8259): snapshots, and the requests of the
/// instances API (the engine has no Foundation, and these need little). Numbers keep their
/// text, so that `3` and `3.0` stay different; a member name appears once; nesting is bounded,
/// so a hostile document is an error, not a stack overflow.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// What kind of JSON value this is, for messages.
    package var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Why a text is not one JSON value, and where (a byte offset).
    package struct SyntaxError: Error {
        package var offset: Int
        package var message: String

        package init(offset: Int, message: String) {
            self.offset = offset
            self.message = message
        }
    }

    /// How deeply a snapshot's arrays and objects may nest.
    package static let maximumDepth = 64

    /// Reads exactly one JSON value (white space around it allowed) from `bytes`, refusing
    /// arrays and objects nested deeper than `maximumDepth`.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int = maximumDepth) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth)
        try reader.checkUTF8()
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.index < bytes.count { throw reader.error("unexpected \(reader.describeNext()) after the JSON value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0

        func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
            SyntaxError(offset: offset ?? index, message: message)
        }

        func describeNext() -> String {
            guard index < bytes.count else { return "end of file" }
            let byte = bytes[index]
            return byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        }

        func checkUTF8() throws(SyntaxError) {
            if bytes.allSatisfy({ $0 < 0x80 }) { return }
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            var offset = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return
                case .error: throw error("not valid UTF-8", at: offset)
                }
            }
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected \(describeNext()), expected a value")
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - index >= text.count, bytes[index..<index + text.count].elementsEqual(text) else {
                throw error("unexpected \(describeNext()), expected a value")
            }
            index += text.count
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected \(describeNext()), expected \(what)") }
            index += 1
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > maximumDepth { throw error("nested deeper than \(maximumDepth)") }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                let keyOffset = index
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeNext()), expected a member name in quotes")
                }
                let key = try string()
                if members.contains(where: { $0.key == key }) { throw error("duplicate member \(JSONText.quoted(key))", at: keyOffset) }
                try expect(UInt8(ascii: ":"), "':'")
                skipSpace()
                members.append((key, try value(depth: depth)))
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                try expect(UInt8(ascii: ","), "',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            if depth > maximumDepth { throw error("nested deeper than \(maximumDepth)") }
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth))
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                try expect(UInt8(ascii: ","), "',' or ']'")
            }
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            func digits(_ reader: inout Reader) -> Int {
                let first = reader.index
                while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                    reader.index += 1
                }
                return reader.index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits(&self)
            if integerDigits == 0 { throw error("a number needs digits", at: start) }
            if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw error("a number may not start with 0", at: start) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                if digits(&self) == 0 { throw error("a number needs digits after '.'", at: start) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                if digits(&self) == 0 { throw error("a number needs digits in its exponent", at: start) }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(SyntaxError) -> String {
            let start = index
            index += 1
            // Most strings hold no escape and no control character: one taken straight from
            // the bytes is copied once, not byte by byte.
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end + 1
                return text
            }
            var out = Array(bytes[index..<end])
            index = end
            while true {
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case 0..<0x20:
                    throw error("a control character in a string must be escaped", at: index - 1)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("unterminated string", at: start) }
                    index -= 1
                    let failure = bytes.withUnsafeBytes { raw -> JSONText.EscapeError? in
                        do throws(JSONText.EscapeError) {
                            try JSONText.decodeEscape(raw, at: &index, end: raw.count, into: &out)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    if let failure {
                        switch failure.kind {
                        case .unknownEscape:
                            let escape = bytes[failure.offset + 1]
                            throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))'", at: failure.offset)
                        case .badHexDigits: throw error("a \\u escape needs 4 hexadecimal digits", at: failure.offset)
                        case .loneSurrogate: throw error("a lone surrogate \\u escape", at: failure.offset)
                        }
                    }
                default:
                    out.append(byte)
                }
            }
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text (numbers as they were written).
    var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let text): text
        case .string(let s): JSONText.quoted(s)
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONText.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }
}
