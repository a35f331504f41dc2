import Statecraft

/// A JSON value as a request body or a JSON Lines input carries it, read by ``JSONValue/parse(_:maximumDepth:)``:
/// numbers keep their text, so that `5` and `5.0` stay apart (an `int` argument takes the first
/// only), and an object keeps its members in order.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, as written (`-1.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in the order written; a name appears once (a repeated name is refused).
    case object([(name: String, value: JSONValue)])

    /// Why a text is not one JSON value: the problem and the byte offset where it was found.
    package struct SyntaxError: Error, Sendable, Equatable {
        package let message: String
        package let offset: Int

        package init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    /// How deeply arrays and objects may nest before a document is refused.
    package static let defaultMaximumDepth = 32

    /// Parses exactly one JSON value (surrounding white space allowed) from UTF-8 `bytes`.
    package static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: Array(bytes), maximumDepth: maximumDepth)
        reader.skipBlanks()
        let value = try reader.value(depth: 1)
        reader.skipBlanks()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    package static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        // Members compare by name, in any order: `{"a":1,"b":2}` equals `{"b":2,"a":1}`.
        case (.object(let a), .object(let b)):
            a.count == b.count && a.allSatisfy { member in b.contains { $0.name == member.name && $0.value == member.value } }
        default: false
        }
    }

    /// The member `name` of an object, or `nil`.
    package subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// What kind of value this is, as a message names it (`a string`, `an object`).
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as compact JSON text.
    package var text: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as compact JSON.
    package func append(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array((value ? "true" : "false").utf8)
        case .number(let text): bytes += Array(text.utf8)
        case .string(let text): JSONText.appendQuoted(text.utf8, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.name.utf8, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0

        func error(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }

        mutating func skipBlanks() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error("expected a JSON value, found the end of the text") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("expected a JSON value")
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("expected a JSON value")
            }
            index += expected.count
            return value
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = index
            func digits(_ reader: inout Reader) -> Int {
                let from = reader.index
                while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                    reader.index += 1
                }
                return reader.index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw error("expected digits in a number") }
            if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw SyntaxError(message: "a number may not start with 0", offset: integerStart) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error("expected digits after the decimal point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func string() throws(SyntaxError) -> String {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    var decoded: [UInt8] = []
                    let ok = bytes[start..<index].withUnsafeBytes { JSONString.decode($0, into: &decoded) }
                    guard ok else { throw SyntaxError(message: "invalid string (a bad escape, a control character or invalid UTF-8)", offset: start) }
                    return String(decoding: decoded, as: UTF8.self)
                }
                if byte < 0x20 { throw error("a control character inside a string must be escaped") }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            throw SyntaxError(message: "unterminated string", offset: start)
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("JSON nested deeper than \(maximumDepth) levels") }
            index += 1
            var values: [JSONValue] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            }
            while true {
                skipBlanks()
                values.append(try value(depth: depth + 1))
                skipBlanks()
                guard index < bytes.count else { throw error("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(values)
                } else {
                    throw error("expected ',' or ']' in an array")
                }
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= maximumDepth else { throw error("JSON nested deeper than \(maximumDepth) levels") }
            index += 1
            var members: [(name: String, value: JSONValue)] = []
            skipBlanks()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let nameOffset = index
                let name = try string()
                if members.contains(where: { $0.name == name }) {
                    throw SyntaxError(message: "member '\(JSONText.escapingControls(name))' appears twice", offset: nameOffset)
                }
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
                index += 1
                skipBlanks()
                members.append((name, try value(depth: depth + 1)))
                skipBlanks()
                guard index < bytes.count else { throw error("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw error("expected ',' or '}' in an object")
                }
            }
        }
    }
}
