/// XML's whitespace: space, tab, carriage return and line feed, and nothing else (Unicode's
/// other blanks are ordinary characters in an id or an event name). Checked on UTF-8 bytes,
/// as a document's many short attribute values would make Unicode property lookups its cost.
enum XMLWhitespace {
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// Whether a list attribute's value is one token: not empty, no whitespace.
    static func isOneToken(_ text: String) -> Bool {
        // A plain loop over the bytes: a document asks this of some 300,000 values.
        let isOneToken = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty else { return false }
            for byte in bytes where byte <= 0x20 && contains(byte) { return false }
            return true
        }
        return isOneToken ?? (!text.isEmpty && !text.utf8.contains(where: contains))
    }

    /// The whitespace-separated tokens of a list attribute (`target`, `event`, `initial`).
    static func tokens(_ text: String) -> [String] {
        // Most such attributes hold one name: kept whole, without making new strings.
        if isOneToken(text) { return [text] }
        return text.utf8.split(whereSeparator: contains).map { String(Substring($0)) }
    }

    static func isBlank(_ text: String) -> Bool {
        text.utf8.allSatisfy(contains)
    }
}
