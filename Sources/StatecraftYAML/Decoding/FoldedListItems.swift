import Statecraft

/// List items folded into one: an item's `- ` indented more than the item's before it makes its
/// line a continuation of that item's plain scalar, which YAML folds into one line (`checkout |
/// cart => paying - paid | paying => packing`), and the result reads as one row, or one state,
/// with odd names. Told apart by the file's lines: a line of the scalar after its first starts
/// with `- `, and each part the scalar splits into there reads as an item (the decoder checks).
enum FoldedListItems {
    /// An item found inside a folded one: its text, and where its text starts in the file.
    struct Part {
        var text: String
        var position: SourcePosition
    }

    /// The items that `item`, a plain scalar at `position` that spans lines of `source`, holds;
    /// `nil` unless it holds more than one.
    static func parts(of item: String, at position: SourcePosition, in source: [UInt8]) -> [Part]? {
        guard item.contains(" - ") else { return nil }
        var parts = [Part(text: "", position: position)]
        var rest = Substring(item)
        // The lines after the row's first, each trimmed, with its line number and the column
        // of the text after a leading `- `.
        var lines = Self.lines(of: source, after: position.line).makeIterator()
        while let separator = rest.firstRange(of: " - ") {
            let after = rest[separator.upperBound...]
            // The next line that starts with `- ` and what follows it begins the next part.
            var found: (line: Int, column: Int)?
            while let (number, text) = lines.next() {
                let trimmed = text.drop { $0 == " " }
                guard trimmed.hasPrefix("- ") else { continue }
                let content = trimmed.dropFirst(2).drop { $0 == " " }
                guard !content.isEmpty, after.hasPrefix(content.trimmingTrailingBlanks) else { return nil }
                found = (number, text.count - content.count + 1)
                break
            }
            guard let found else { return nil }
            parts[parts.count - 1].text = String(rest[..<separator.lowerBound])
            parts.append(Part(text: "", position: SourcePosition(line: found.line, column: found.column)))
            rest = after
        }
        parts[parts.count - 1].text = String(rest)
        return parts
    }

    /// What to say about `folded`, a list item (`kind`: "row", "item") that holds `parts`.
    static func message(_ parts: [Part], folded: String, kind: String) -> String {
        let lines = parts.dropFirst().map { String($0.position.line) }
        let held =
            lines.count == 1
            ? "the \(kind) of line \(lines[0]) too, '\(parts[1].text)': its '- ' is"
            : "the \(kind)s of lines \(lines.dropLast().joined(separator: ", ")) and \(lines.last!) too: their '- ' is"
        return "this \(kind) holds \(held) indented more than this \(kind)'s, so YAML continues this \(kind) there ('\(folded)'); indent each \(kind)'s '- ' alike"
    }

    /// The lines of `source` after line `line` (counted from 1), each with its number, up to 100
    /// of them (a folded row spans a few).
    private static func lines(of source: [UInt8], after line: Int) -> [(Int, String)] {
        var number = 1
        var start = 0
        var lines: [(Int, String)] = []
        for index in source.indices where source[index] == UInt8(ascii: "\n") {
            if number > line {
                var end = index
                if end > start && source[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                lines.append((number, String(decoding: source[start..<end], as: UTF8.self)))
                if lines.count == 100 { return lines }
            }
            number += 1
            start = index + 1
        }
        if number > line && start < source.count { lines.append((number, String(decoding: source[start...], as: UTF8.self))) }
        return lines
    }
}

extension Substring {
    /// Without the blanks at its end.
    fileprivate var trimmingTrailingBlanks: Substring {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
