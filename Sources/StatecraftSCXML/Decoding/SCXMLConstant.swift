import Statecraft

/// The constant a `<data>` starts as: an int, a finite double, `true`, `false`, `null`, a
/// string literal in double quotes (JSON's escapes) or single quotes, as ``Value/description``
/// writes one, or a list of such constants (not null) in brackets, `[1, 2, 3]`.
enum SCXMLConstant {
    /// Why a list's text is not a list of constants, for a message that follows "the list".
    struct ListProblem: Error {
        var message: String
    }

    /// `[a, b, c]`: constants of one type separated by commas (a comma inside a quoted string
    /// is the string's).
    static func list(of text: String) -> Result<Value, ListProblem> {
        let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        guard trimmed.first == "[", trimmed.last == "]" else { return .failure(ListProblem(message: "is not closed by ']'")) }
        let inner = Array(trimmed.dropFirst().dropLast())
        var itemTexts: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for character in inner {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                itemTexts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        if !itemTexts.isEmpty || current.contains(where: { !$0.isWhitespace }) { itemTexts.append(current) }
        var items: [Value] = []
        for (position, itemText) in itemTexts.enumerated() {
            guard let item = value(of: itemText) else {
                let shown = itemText.trimmingBlanks
                return .failure(ListProblem(
                    message: "has '\(shown)' at index \(position), which is not a constant: an int, a finite double, true, false or a quoted string"))
            }
            items.append(item)
        }
        return Value.list(checking: items).mapError { ListProblem(message: "at index \($0.index): \($0.message)") }
    }

    static func value(of text: String) -> Value? {
        let trimmed = text.trimmingBlanks
        switch trimmed {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let first = trimmed.first, first == "\"" || first == "'" { return string(trimmed) }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
        if let int = Int(trimmed) { return .int(int) }
        if let double = Double(trimmed), double.isFinite { return .double(double) }
        return nil
    }

    private static func string(_ literal: String) -> Value? {
        var scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.last == scalars.first else { return nil }
        let quote = scalars.removeFirst()
        scalars.removeLast()
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == quote { return nil }
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard index < scalars.count else { return nil }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "b": out.append("\u{08}")
            case "f": out.append("\u{0C}")
            case "\\", "\"", "'", "/": out.append(escaped)
            case "u":
                guard index + 4 <= scalars.count, let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16)
                else { return nil }
                index += 4
                var value = code
                // A surrogate pair, as JSON writes a character outside the basic plane.
                if (0xD800..<0xDC00).contains(code), index + 6 <= scalars.count, scalars[index] == "\\", scalars[index + 1] == "u",
                    let low = UInt32(String(String.UnicodeScalarView(scalars[index + 2..<index + 6])), radix: 16), (0xDC00..<0xE000).contains(low)
                {
                    value = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let decoded = Unicode.Scalar(value) else { return nil }
                out.append(decoded)
            default: return nil
            }
        }
        return .string(String(out))
    }
}

extension String {
    /// The text without blanks (and line breaks) at either end.
    fileprivate var trimmingBlanks: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
