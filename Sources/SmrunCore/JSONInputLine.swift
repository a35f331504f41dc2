import Statecraft

/// One line of JSON Lines input (`smrun run --input-format jsonl`, docs/cli.md): an object
/// `{"input": NAME, "arg": VALUE}`, where `arg` may be left out (`null` is no argument either),
/// or `{"wait": DURATION}`; a blank line is skipped. Keys may come in any order.
package enum JSONInputLine {
    case blank
    /// An input: its name, decoded, and its argument's JSON text as the line writes it (a
    /// string with its quotes, a number, `true` or `false`); `nil` without one.
    case input(name: [UInt8], argument: UnsafeRawBufferPointer?)
    /// `{"wait": DURATION}`: the duration, decoded.
    case wait([UInt8])
    /// Not such a line. `name` is what its result shows as the input: the `input` when the
    /// line gives one that could be read, the line as written (shortened) otherwise.
    case bad(name: [UInt8], problem: String)

    /// Reads `line`, without its `\n` (a final `\r` is dropped).
    package init(_ line: UnsafeRawBufferPointer) {
        var reader = Reader(line)
        self = reader.read()
    }

    /// What a line is, for a message about one that is something else.
    static let shape = #"write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#

    /// A problem with the line, at a column (1-based, in bytes).
    private struct Problem: Error {
        var message: String
    }

    private struct Reader {
        let line: UnsafeRawBufferPointer
        let end: Int
        var index = 0
        /// The `input` read so far, which a bad line's result shows.
        var name: [UInt8]?

        init(_ line: UnsafeRawBufferPointer) {
            self.line = line
            end = line.last == UInt8(ascii: "\r") ? line.count - 1 : line.count
        }

        mutating func read() -> JSONInputLine {
            skipBlanks()
            if index == end { return .blank }
            do {
                return try object()
            } catch {
                return .bad(name: name ?? shownLine, problem: error.message)
            }
        }

        /// The line as a bad line's result shows it, when no input name could be read: its
        /// first 40 bytes (cut on a character's start).
        private var shownLine: [UInt8] {
            guard end > 40 else { return Array(line[..<end]) }
            var cut = 40
            while cut > 0 && line[cut] & 0xC0 == 0x80 { cut -= 1 }
            return Array(line[..<cut]) + Array("...".utf8)
        }

        private mutating func object() throws(Problem) -> JSONInputLine {
            guard line[index] == UInt8(ascii: "{") else { throw syntax("expected a JSON object, found \(found)") }
            index += 1
            var argument: UnsafeRawBufferPointer?
            var seen: Set<String> = []
            var wait: [UInt8]?
            skipBlanks()
            if index < end && line[index] == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    skipBlanks()
                    let keyColumn = index + 1
                    guard index < end && line[index] == UInt8(ascii: "\"") else { throw syntax("expected a key in double quotes, found \(found)") }
                    let key = String(decoding: try string(), as: UTF8.self)
                    let shownKey = JSONText.escapingControls(key)
                    guard seen.insert(key).inserted else { throw Problem(message: "key '\(shownKey)' is given twice (column \(keyColumn))") }
                    skipBlanks()
                    guard index < end && line[index] == UInt8(ascii: ":") else { throw syntax("expected ':' after the key '\(shownKey)', found \(found)") }
                    index += 1
                    skipBlanks()
                    let valueColumn = index + 1
                    switch key {
                    case "input":
                        guard index < end && line[index] == UInt8(ascii: "\"") else {
                            throw Problem(message: "'input' must be a JSON string, the input's name, not \(found) (column \(valueColumn))")
                        }
                        name = try string()
                    case "arg":
                        argument = try scalar(of: key)
                    case "wait":
                        guard index < end && line[index] == UInt8(ascii: "\"") else {
                            throw Problem(message: "'wait' must be a JSON string, a duration such as \"30s\", not \(found) (column \(valueColumn))")
                        }
                        wait = try string()
                    default:
                        let known = ["input", "arg", "wait"]
                        throw Problem(
                            message: "unknown key '\(shownKey)'\(Suggestion.didYouMean(key, in: known)) (column \(keyColumn)); \(JSONInputLine.shape)")
                    }
                    skipBlanks()
                    guard index < end else { throw syntax("the object is not closed: expected ',' or '}' at the end of the line") }
                    if line[index] == UInt8(ascii: "}") {
                        index += 1
                        break
                    }
                    guard line[index] == UInt8(ascii: ",") else { throw syntax("expected ',' or '}', found \(found)") }
                    index += 1
                }
            }
            skipBlanks()
            guard index == end else { throw syntax("expected the end of the line after the object, found \(found)") }
            if let wait {
                guard name == nil && !seen.contains("arg") else {
                    throw Problem(message: "a line gives either 'input' (with 'arg') or 'wait', not both")
                }
                return .wait(wait)
            }
            guard let name else {
                throw Problem(message: seen.contains("arg") ? "'arg' without 'input'; \(JSONInputLine.shape)" : "no 'input'; \(JSONInputLine.shape)")
            }
            return .input(name: name, argument: argument)
        }

        /// The JSON string at `index`, decoded; `index` moves past it.
        private mutating func string() throws(Problem) -> [UInt8] {
            let start = index
            let stringEnd = ScriptLineParser.quotedEnd(line, from: start, end: end)
            guard stringEnd > start + 1, line[stringEnd - 1] == UInt8(ascii: "\"") else {
                throw syntax("the string that starts here is not closed")
            }
            var decoded: [UInt8] = []
            guard JSONString.decode(UnsafeRawBufferPointer(rebasing: line[start..<stringEnd]), into: &decoded) else {
                throw syntax("the string that starts here is not valid JSON (an escape, a control character or invalid UTF-8)")
            }
            index = stringEnd
            return decoded
        }

        /// The scalar JSON value at `index` as written (a string with its quotes, a number,
        /// `true`, `false`), or `nil` for `null`; `index` moves past it.
        private mutating func scalar(of key: String) throws(Problem) -> UnsafeRawBufferPointer? {
            let start = index
            guard index < end else { throw syntax("expected a value for '\(key)' at the end of the line") }
            switch line[index] {
            case UInt8(ascii: "\""):
                _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                throw Problem(message: "'\(key)' must be a string, a number, true or false, not \(line[index] == UInt8(ascii: "{") ? "an object" : "a list") (column \(index + 1))")
            default:
                while index < end && !Self.endsValue(line[index]) { index += 1 }
                let token = UnsafeRawBufferPointer(rebasing: line[start..<index])
                if token.elementsEqual("null".utf8) { return nil }
                guard token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8) || Self.isNumber(token) else {
                    index = start
                    throw syntax("expected a JSON value for '\(key)', found \(found)")
                }
            }
            return UnsafeRawBufferPointer(rebasing: line[start..<index])
        }

        private static func endsValue(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
        }

        /// A JSON number: `-`?, `0` or digits not starting with `0`, then an optional fraction
        /// and exponent.
        static func isNumber(_ token: UnsafeRawBufferPointer) -> Bool {
            var index = 0
            func digits() -> Int {
                let start = index
                while index < token.count && token[index] >= UInt8(ascii: "0") && token[index] <= UInt8(ascii: "9") { index += 1 }
                return index - start
            }
            if index < token.count && token[index] == UInt8(ascii: "-") { index += 1 }
            let whole = index
            let wholeDigits = digits()
            guard wholeDigits > 0, wholeDigits == 1 || token[whole] != UInt8(ascii: "0") else { return false }
            if index < token.count && token[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < token.count && (token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E")) {
                index += 1
                if index < token.count && (token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-")) { index += 1 }
                guard digits() > 0 else { return false }
            }
            return index == token.count
        }

        private mutating func skipBlanks() {
            while index < end && (line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t")) { index += 1 }
        }

        /// What is at `index`, for a message: a word (up to a blank or JSON's punctuation, at
        /// most 20 bytes, cut on a character's start) or one punctuation character, quoted, or
        /// the end of the line.
        private var found: String {
            guard index < end else { return "the end of the line" }
            var stop = index + 1
            if !Self.isPunctuation(line[index]) {
                while stop < end && stop - index < 20 && !Self.isPunctuation(line[stop]) && !Self.endsValue(line[stop]) { stop += 1 }
            }
            while stop < end && line[stop] & 0xC0 == 0x80 { stop += 1 }
            return "'\(JSONText.escapingControls(String(decoding: line[index..<stop], as: UTF8.self)))'"
        }

        private static func isPunctuation(_ byte: UInt8) -> Bool {
            "{}[]:,\"".utf8.contains(byte)
        }

        /// A syntax problem at `index`: the message, its column and the line's shape.
        private func syntax(_ message: String) -> Problem {
            Problem(message: "not a JSON input line: \(message) (column \(index + 1)); \(JSONInputLine.shape)")
        }
    }
}
