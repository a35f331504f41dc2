import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The row form of a transition, as in the seeds' DSL: `INPUT | FROM => TO [GUARD] | EFFECT, EFFECT`,
/// where `=> TO`, the guard and the effects are optional and FROM is names separated by commas,
/// or `*`. `=> TO (internal)` makes the transition internal (`type: internal`). The guard, an expression in brackets, ends the FROM => TO part; a `|` inside it
/// (`[a || b]`) does not split the row.
enum RowFormParser {
    /// A row: a scalar's text, where the scalar is written and how its text lies on the line.
    struct Scalar {
        var text: UnsafeRawBufferPointer
        var position: SourcePosition
        /// Columns between the scalar's position and its text: 1 when quoted.
        var contentOffset: Int
        var isASCII: Bool
    }

    /// Parses `row` and appends its transition to `transitions`, or returns why it is not a row
    /// (with the column of the part). Names are interned in `spellings`, whose table of
    /// spellings the transition keeps them in.
    static func parse(
        _ row: Scalar, into transitions: inout [TransitionDefinition], spellings: inout TextInterner
    ) -> Diagnostic? {
        // Separators are ASCII, so the row is split as UTF-8 bytes; offsets are byte offsets,
        // turned into columns (Unicode scalars) only for positions.
        let text = Text(row)
        func fail(_ message: String, at offset: Int) -> Diagnostic {
            .error(.invalidRow, message, at: text.position(offset))
        }

        // The guard, `[...]`, is found first: a '|' inside it does not separate fields.
        let count = text.bytes.count
        var guardBrackets: Range<Int>?
        if let open = text.firstIndex(of: "[", in: 0..<count) {
            guard let close = text.closingBracket(of: open) else {
                return fail("'[' opens a guard that no ']' closes; \(form)", at: open)
            }
            if let second = text.firstIndex(of: "[", in: (close + 1)..<count) {
                return fail("a row has at most one guard; \(form)", at: second)
            }
            guardBrackets = open..<(close + 1)
        }

        // Fields are separated by '|': the input, FROM => TO [GUARD], and the effects if any.
        var bars = 0
        var firstBar = 0
        var secondBar = 0
        var searched = 0
        while let bar = text.firstIndex(of: "|", in: searched..<count) {
            if let guardBrackets, guardBrackets.contains(bar) {
                searched = guardBrackets.upperBound
                continue
            }
            if bars == 0 { firstBar = bar } else if bars == 1 { secondBar = bar }
            bars += 1
            searched = bar + 1
        }
        guard bars == 1 || bars == 2 else {
            return fail("a row has two or three fields separated by '|', found \(bars + 1); \(form)", at: 0)
        }
        let inputField = 0..<firstBar
        var middleField = (firstBar + 1)..<(bars == 2 ? secondBar : count)
        let effectsField = bars == 2 ? (secondBar + 1)..<count : nil

        var guardExpression: ExpressionSource?
        if let guardBrackets {
            guard middleField.contains(guardBrackets.lowerBound) else {
                return fail("a guard [...] goes after FROM => TO, before the effects; \(form)", at: guardBrackets.lowerBound)
            }
            if let extra = text.firstNonBlank(in: guardBrackets.upperBound..<middleField.upperBound) {
                return fail("a guard [...] ends the FROM => TO part; \(form)", at: extra)
            }
            middleField = middleField.lowerBound..<guardBrackets.lowerBound
            guardExpression = text.expression(in: (guardBrackets.lowerBound + 1)..<(guardBrackets.upperBound - 1), &spellings)
        }

        guard let input = text.singleName(in: inputField, &spellings) else {
            return fail("a row starts with one input name; \(form)", at: inputField.lowerBound)
        }

        // FROM => TO
        var sourceField = middleField
        var target: Name?
        var isInternal = false
        if let arrow = text.arrowIndex(in: middleField) {
            sourceField = middleField.lowerBound..<arrow
            var targetField = (arrow + 2)..<middleField.upperBound
            // `=> TO (internal)`: `type: internal` in the mapping form.
            if let marker = text.internalMarker(in: targetField) {
                targetField = targetField.lowerBound..<marker
                isInternal = true
            }
            guard let name = text.singleName(in: targetField, &spellings) else {
                return fail("'=>' is followed by one target state; \(form)", at: arrow)
            }
            target = name
        }
        guard let sources = text.names(in: sourceField, &spellings), !sources.isEmpty else {
            return fail("a row needs its source states between the first '|' and '=>' (or '*'); \(form)", at: middleField.lowerBound)
        }
        // A field without a '*' names no '*' (most rows): its names need no comparing.
        let mentionsStar = text.firstIndex(of: "*", in: sourceField) != nil
        if mentionsStar {
            let listed = sources.all.map { $0.named(in: spellings) }
            if let quoted = listed.first(where: { $0.name == "\"*\"" || $0.name == "'*'" }) {
                return .error(
                    .invalidRow, "a quoted \(quoted.name) is not the '*' that stands for every non-final state: write * without quotes in a row",
                    at: quoted.position)
            }
            if listed.contains(where: { $0.name == "*" }) && listed.count != 1 {
                return .error(.invalidRow, "'*' stands for every non-final state and cannot be listed with others", at: listed[0].position)
            }
        }

        var effects = Names.many([])
        if let effectsField {
            guard let listed = text.names(in: effectsField, &spellings), !listed.isEmpty else {
                return fail("the third field lists effects separated by commas; \(form)", at: effectsField.lowerBound)
            }
            effects = listed
        }
        // A lone `*`: every non-final state.
        var anyState: Name?
        if mentionsStar, case .one(let name) = sources, spellings.strings[name.spelling] == "*" { anyState = name }
        let table = spellings.sharedSpellings()
        // Every row but `*`: kept as spellings, without making a `Named` (and retaining its
        // string) for any of its names; the sources and effects after the first go to the table.
        let moreAllowed = TransitionDefinition.maximumMoreNames
        if let source = sources.first, anyState == nil, sources.count <= moreAllowed + 1, effects.count <= moreAllowed + 1 {
            transitions.append(
                TransitionDefinition(
                    compactInput: input.compact, source: source.compact, moreSources: sources.rest.lazy.map(\.compact),
                    target: target?.compact ?? .none, effect: effects.first?.compact ?? .none,
                    moreEffects: effects.rest.lazy.map(\.compact), when: consume guardExpression, at: row.position, spellings: table))
            if isInternal { transitions[transitions.count - 1].isInternal = true }
            return nil
        }
        // What is left: a lone `*`, or lists longer than a compact transition keeps.
        let source: TransitionDefinition.StoredSource
        switch sources {
        case .one(let name) where anyState != nil: source = .other(.anyNonFinal(name.position))
        case .one(let name): source = .state(name.named(in: spellings))
        case .many(let names): source = .other(.states(names.map { $0.named(in: spellings) }))
        }
        let effectList: NameList =
            switch effects {
            case .one(let name): .one(name.named(in: spellings))
            case .many(let names): .many(names.map { $0.named(in: spellings) })
            }
        // Each part handed over, not copied: a copy costs a retain and a release of its names.
        transitions.append(
            TransitionDefinition(
                input.named(in: spellings), from: consume source, to: target?.named(in: spellings), when: consume guardExpression,
                effects: effectList, at: row.position, spellings: table))
        if isInternal { transitions[transitions.count - 1].isInternal = true }
        return nil
    }

    /// A name of a row: its spelling in the interner and where it is written. Most rows keep
    /// their names as spellings, and never make a `Named` of them.
    private struct Name {
        var spelling: Int
        var position: SourcePosition

        var compact: TransitionDefinition.CompactName {
            TransitionDefinition.CompactName(spelling: Int32(truncatingIfNeeded: spelling), position: position)
        }

        func named(in spellings: TextInterner) -> Named {
            Named(spellings.strings[spelling], at: position, spelling: spelling)
        }
    }

    /// The names of a field: one (most fields), or a list.
    private enum Names {
        case one(Name)
        case many([Name])

        var all: [Name] {
            switch self {
            case .one(let name): [name]
            case .many(let names): names
            }
        }

        var count: Int {
            switch self {
            case .one: 1
            case .many(let names): names.count
            }
        }

        var first: Name? {
            switch self {
            case .one(let name): name
            case .many(let names): names.first
            }
        }

        var isEmpty: Bool { count == 0 }

        /// The names after the first, as a transition keeps them.
        var rest: ArraySlice<Name> {
            switch self {
            case .one: []
            case .many(let names): names.dropFirst()
            }
        }
    }

    private static let form = "write a row as 'INPUT | FROM => TO [GUARD] | EFFECTS' (=> TO, [GUARD] and EFFECTS are optional)"

    /// A row's UTF-8 bytes, and how an offset into them maps onto the file.
    private struct Text {
        let bytes: UnsafeBufferPointer<UInt8>
        let scalar: Scalar
        /// Columns map onto the file only for a single-line scalar.
        let isSingleLine: Bool

        init(_ scalar: Scalar) {
            bytes = scalar.text.assumingMemoryBound(to: UInt8.self)
            self.scalar = scalar
            isSingleLine = bytes.isEmpty || memchr(bytes.baseAddress!, Int32(UInt8(ascii: "\n")), bytes.count) == nil
        }

        func position(_ offset: Int) -> SourcePosition {
            guard isSingleLine else { return scalar.position }
            // In ASCII text a byte offset is a column offset.
            let column = scalar.isASCII ? offset : bytes[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return scalar.position.advanced(by: scalar.contentOffset + column)
        }

        /// The offset of the first `byte` in `range`, if any (memchr: most of a row is names).
        func firstIndex(of byte: Unicode.Scalar, in range: Range<Int>) -> Int? {
            guard !range.isEmpty, let base = bytes.baseAddress,
                let found = memchr(base + range.lowerBound, Int32(byte.value), range.count)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }

        /// The offset of the `]` that closes the guard opened at `open`, skipping quoted strings
        /// (`[name == "]"]`), whose quotes and escapes are the expression language's.
        func closingBracket(of open: Int) -> Int? {
            var index = open + 1
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let openingQuote = quote {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == openingQuote {
                        quote = nil
                    }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "]") {
                    return index
                }
                index += 1
            }
            return nil
        }

        /// The offset of the first byte in `range` that is not blank, if any.
        func firstNonBlank(in range: Range<Int>) -> Int? {
            range.first { !Self.isBlank(bytes[$0]) }
        }

        /// The guard between brackets, blanks around it trimmed, positioned where its text starts.
        func expression(in part: Range<Int>, _ spellings: inout TextInterner) -> ExpressionSource {
            var first = part.lowerBound
            var end = part.upperBound
            while first < end, Self.isBlank(bytes[first]) { first += 1 }
            while end > first, Self.isBlank(bytes[end - 1]) { end -= 1 }
            return ExpressionSource(spellings.string(UnsafeRawBufferPointer(rebasing: scalar.text[first..<end])), at: position(first))
        }

        func arrowIndex(in field: Range<Int>) -> Int? {
            var searched = field.lowerBound
            while let equals = firstIndex(of: "=", in: searched..<field.upperBound) {
                if equals + 1 < field.upperBound && bytes[equals + 1] == UInt8(ascii: ">") { return equals }
                searched = equals + 1
            }
            return nil
        }

        /// Where ` (internal)` starts when `field` ends with it (blanks after it aside), after a
        /// blank: the target of an internal transition, `=> home (internal)`.
        func internalMarker(in field: Range<Int>) -> Int? {
            let marker = Array("(internal)".utf8)
            var end = field.upperBound
            while end > field.lowerBound, Self.isBlank(bytes[end - 1]) { end -= 1 }
            let start = end - marker.count
            guard start > field.lowerBound, Self.isBlank(bytes[start - 1]) else { return nil }
            for (offset, byte) in marker.enumerated() where bytes[start + offset] != byte { return nil }
            return start
        }

        /// The one name of `field`; `nil` when it has none or several.
        func singleName(in field: Range<Int>, _ spellings: inout TextInterner) -> Name? {
            guard firstIndex(of: ",", in: field) == nil else { return nil }
            return name(in: field, &spellings)
        }

        /// Comma-separated names; `nil` when one is empty (`a,,b`), none for a blank field.
        func names(in field: Range<Int>, _ spellings: inout TextInterner) -> Names? {
            guard var comma = firstIndex(of: ",", in: field) else {
                // One name (most fields): kept without an array.
                return name(in: field, &spellings).map { .one($0) } ?? .many([])
            }
            var result: [Name] = []
            var start = field.lowerBound
            while true {
                guard let name = name(in: start..<comma, &spellings) else { return nil }
                result.append(name)
                start = comma + 1
                guard let next = firstIndex(of: ",", in: start..<field.upperBound) else { break }
                comma = next
            }
            guard let last = name(in: start..<field.upperBound, &spellings) else { return nil }
            result.append(last)
            return .many(result)
        }

        /// The name in `part`, blanks around it trimmed; `nil` when it is blank.
        private func name(in part: Range<Int>, _ spellings: inout TextInterner) -> Name? {
            var first = part.lowerBound
            var end = part.upperBound
            while first < end, Self.isBlank(bytes[first]) { first += 1 }
            while end > first, Self.isBlank(bytes[end - 1]) { end -= 1 }
            guard first < end else { return nil }
            return Name(spelling: spellings.id(of: UnsafeRawBufferPointer(rebasing: scalar.text[first..<end])), position: position(first))
        }

        /// YAML folds a plain scalar's line breaks; what is left between names is spaces and tabs.
        private static func isBlank(_ c: UInt8) -> Bool {
            c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
        }
    }
}
