import Statecraft

/// The row form of a transition, as in the seeds' DSL: `INPUT | FROM => TO | EFFECT, EFFECT`,
/// where `=> TO` and the effects are optional and FROM is names separated by commas, or `*`.
enum TransitionRow {
    /// Parses `scalar` as a row; problems are returned as diagnostics with the column of the part.
    static func parse(_ scalar: YAMLScalar) -> Result<TransitionDefinition, Diagnostic> {
        // Separators are ASCII, so the row is split as UTF-8 bytes; offsets are byte offsets,
        // turned into columns (Unicode scalars) only for a diagnostic's position.
        let text = Array(scalar.value.utf8)
        // Columns map onto the file only for a single-line scalar.
        let singleLine = !text.contains(UInt8(ascii: "\n"))
        func position(_ offset: Int) -> SourcePosition {
            guard singleLine else { return scalar.position }
            let column = text[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return scalar.position.advanced(by: scalar.contentOffset + column)
        }
        func fail(_ message: String, at offset: Int) -> Result<TransitionDefinition, Diagnostic> {
            .failure(.error(.invalidRow, message, at: position(offset)))
        }
        let form = "write a row as 'INPUT | FROM => TO | EFFECTS' (=> TO and EFFECTS are optional)"

        // Split into fields on '|', keeping each field's offset.
        var fields: [(text: ArraySlice<UInt8>, offset: Int)] = []
        var start = 0
        for (index, c) in text.enumerated() where c == UInt8(ascii: "|") {
            fields.append((text[start..<index], start))
            start = index + 1
        }
        fields.append((text[start...], start))
        guard fields.count == 2 || fields.count == 3 else {
            return fail("a row has two or three fields separated by '|', found \(fields.count); \(form)", at: 0)
        }

        guard let inputs = names(fields[0].text), inputs.count == 1 else {
            return fail("a row starts with one input name; \(form)", at: fields[0].offset)
        }
        let input = Named(inputs[0].name, at: position(inputs[0].offset))

        // FROM => TO
        var sourceField = fields[1].text
        var target: Named?
        if let arrow = arrowIndex(in: fields[1].text) {
            sourceField = fields[1].text[fields[1].text.startIndex..<arrow]
            let targetField = fields[1].text[(arrow + 2)...]
            guard let targets = names(targetField), targets.count == 1 else {
                return fail("'=>' is followed by one target state; \(form)", at: arrow)
            }
            target = Named(targets[0].name, at: position(targets[0].offset))
        }
        guard let sources = names(sourceField), !sources.isEmpty else {
            return fail("a row needs its source states between the first '|' and '=>' (or '*'); \(form)", at: fields[1].offset)
        }
        let source: TransitionDefinition.Source
        if sources.contains(where: { $0.name == "*" }) {
            guard sources.count == 1 else {
                return fail("'*' stands for every non-final state and cannot be listed with others", at: sources[0].offset)
            }
            source = .anyNonFinal(position(sources[0].offset))
        } else {
            source = .states(sources.map { Named($0.name, at: position($0.offset)) })
        }

        var effects: [Named] = []
        if fields.count == 3 {
            guard let listed = names(fields[2].text), !listed.isEmpty else {
                return fail("the third field lists effects separated by commas; \(form)", at: fields[2].offset)
            }
            effects = listed.map { Named($0.name, at: position($0.offset)) }
        }
        return .success(TransitionDefinition(input, from: source, to: target, effects: effects, at: scalar.position))
    }

    /// YAML folds a plain scalar's line breaks; what is left between names is spaces and tabs.
    private static func isBlank(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
    }

    private static func arrowIndex(in field: ArraySlice<UInt8>) -> Int? {
        var index = field.startIndex
        while index + 1 < field.endIndex {
            if field[index] == UInt8(ascii: "=") && field[index + 1] == UInt8(ascii: ">") { return index }
            index += 1
        }
        return nil
    }

    /// Comma-separated names with their offsets into the row; `nil` when one is empty (`a,,b`, or a blank field).
    private static func names(_ field: ArraySlice<UInt8>) -> [(name: String, offset: Int)]? {
        var result: [(name: String, offset: Int)] = []
        var start = field.startIndex
        for index in field.indices where field[index] == UInt8(ascii: ",") {
            guard let name = trimmed(field[start..<index]) else { return nil }
            result.append(name)
            start = index + 1
        }
        guard let last = trimmed(field[start...]) else { return result.isEmpty ? [] : nil }
        result.append(last)
        return result
    }

    private static func trimmed(_ part: ArraySlice<UInt8>) -> (name: String, offset: Int)? {
        guard let first = part.firstIndex(where: { !isBlank($0) }), let last = part.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return (String(decoding: part[first...last], as: UTF8.self), first)
    }
}
