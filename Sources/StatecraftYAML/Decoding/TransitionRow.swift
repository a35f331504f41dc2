import Statecraft

/// The row form of a transition, as in the seeds' DSL: `INPUT | FROM => TO | EFFECT, EFFECT`,
/// where `=> TO` and the effects are optional and FROM is names separated by commas, or `*`.
enum TransitionRow {
    /// Parses a scalar's text `row`, written at `position` (`contentOffset` columns before its
    /// text: 1 when quoted), as a row; problems are returned as diagnostics with the column of
    /// the part. Names are interned in `spellings`.
    static func parse(
        _ row: UnsafeRawBufferPointer, at position: SourcePosition, contentOffset: Int, spellings: inout TextInterner
    ) -> Result<TransitionDefinition, Diagnostic> {
        // Separators are ASCII, so the row is split as UTF-8 bytes; offsets are byte offsets,
        // turned into columns (Unicode scalars) only for positions.
        parse(Text(row.assumingMemoryBound(to: UInt8.self), position: position, contentOffset: contentOffset), spellings: &spellings)
    }

    private static let form = "write a row as 'INPUT | FROM => TO | EFFECTS' (=> TO and EFFECTS are optional)"

    private static func parse(_ text: Text, spellings: inout TextInterner) -> Result<TransitionDefinition, Diagnostic> {
        func fail(_ message: String, at offset: Int) -> Result<TransitionDefinition, Diagnostic> {
            .failure(.error(.invalidRow, message, at: text.position(offset)))
        }

        // Fields are separated by '|': the input, FROM => TO, and the effects if any.
        let count = text.bytes.count
        var bars = 0
        var firstBar = 0
        var secondBar = 0
        for index in 0..<count where text.bytes[index] == UInt8(ascii: "|") {
            if bars == 0 { firstBar = index } else if bars == 1 { secondBar = index }
            bars += 1
        }
        guard bars == 1 || bars == 2 else {
            return fail("a row has two or three fields separated by '|', found \(bars + 1); \(form)", at: 0)
        }
        let inputField = 0..<firstBar
        let middleField = (firstBar + 1)..<(bars == 2 ? secondBar : count)
        let effectsField = bars == 2 ? (secondBar + 1)..<count : nil

        guard let input = text.singleName(in: inputField, &spellings) else {
            return fail("a row starts with one input name; \(form)", at: inputField.lowerBound)
        }

        // FROM => TO
        var sourceField = middleField
        var target: Named?
        if let arrow = text.arrowIndex(in: middleField) {
            sourceField = middleField.lowerBound..<arrow
            guard let name = text.singleName(in: (arrow + 2)..<middleField.upperBound, &spellings) else {
                return fail("'=>' is followed by one target state; \(form)", at: arrow)
            }
            target = name
        }
        guard let sources = text.names(in: sourceField, &spellings), !sources.isEmpty else {
            return fail("a row needs its source states between the first '|' and '=>' (or '*'); \(form)", at: middleField.lowerBound)
        }
        let source: TransitionDefinition.Source
        if sources.contains(where: { $0.name == "*" }) {
            guard sources.count == 1 else {
                return .failure(
                    .error(.invalidRow, "'*' stands for every non-final state and cannot be listed with others", at: sources[0].position))
            }
            source = .anyNonFinal(sources[0].position)
        } else {
            source = .states(sources)
        }

        var effects: [Named] = []
        if let effectsField {
            guard let listed = text.names(in: effectsField, &spellings), !listed.isEmpty else {
                return fail("the third field lists effects separated by commas; \(form)", at: effectsField.lowerBound)
            }
            effects = listed
        }
        return .success(TransitionDefinition(input, from: source, to: target, effects: effects, at: text.scalarPosition))
    }

    /// A row's UTF-8 bytes, and how an offset into them maps onto the file.
    private struct Text {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where the scalar is written, and the columns before its text.
        let scalarPosition: SourcePosition
        let contentOffset: Int
        /// Columns map onto the file only for a single-line scalar.
        let isSingleLine: Bool
        /// In ASCII text a byte offset is a column offset.
        let isASCII: Bool

        init(_ bytes: UnsafeBufferPointer<UInt8>, position: SourcePosition, contentOffset: Int) {
            self.bytes = bytes
            scalarPosition = position
            self.contentOffset = contentOffset
            var hasNewline = false
            var allBits: UInt8 = 0
            for byte in bytes {
                hasNewline = hasNewline || byte == UInt8(ascii: "\n")
                allBits |= byte
            }
            isSingleLine = !hasNewline
            isASCII = allBits < 0x80
        }

        func position(_ offset: Int) -> SourcePosition {
            guard isSingleLine else { return scalarPosition }
            let column = isASCII ? offset : bytes[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return scalarPosition.advanced(by: contentOffset + column)
        }

        func arrowIndex(in field: Range<Int>) -> Int? {
            var index = field.lowerBound
            while index + 1 < field.upperBound {
                if bytes[index] == UInt8(ascii: "=") && bytes[index + 1] == UInt8(ascii: ">") { return index }
                index += 1
            }
            return nil
        }

        /// The one name of `field`; `nil` when it has none or several.
        func singleName(in field: Range<Int>, _ spellings: inout TextInterner) -> Named? {
            guard !bytes[field].contains(UInt8(ascii: ",")) else { return nil }
            return name(in: field, &spellings)
        }

        /// Comma-separated names; `nil` when one is empty (`a,,b`, or a blank field).
        func names(in field: Range<Int>, _ spellings: inout TextInterner) -> [Named]? {
            var result: [Named] = []
            var start = field.lowerBound
            for index in field where bytes[index] == UInt8(ascii: ",") {
                guard let name = name(in: start..<index, &spellings) else { return nil }
                result.append(name)
                start = index + 1
            }
            guard let last = name(in: start..<field.upperBound, &spellings) else { return result.isEmpty ? [] : nil }
            result.append(last)
            return result
        }

        /// The name in `part`, blanks around it trimmed; `nil` when it is blank.
        private func name(in part: Range<Int>, _ spellings: inout TextInterner) -> Named? {
            var first = part.lowerBound
            var end = part.upperBound
            while first < end, Self.isBlank(bytes[first]) { first += 1 }
            while end > first, Self.isBlank(bytes[end - 1]) { end -= 1 }
            guard first < end else { return nil }
            return Named(spellings.string(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[first..<end]))), at: position(first))
        }

        /// YAML folds a plain scalar's line breaks; what is left between names is spaces and tabs.
        private static func isBlank(_ c: UInt8) -> Bool {
            c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
        }
    }
}
