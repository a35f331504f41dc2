/// The argument values worth trying for each input when searching for paths: plain defaults
/// (0 and 1, 0.0 and 1.0, ""; both booleans; a 1 moves a counter that another input's guard
/// reads), the constants that the guards of the input's transitions compare
/// against, each number also ±1, and the values of the context variables those guards read
/// (taken from the context when the input is tried).
///
/// Constants are read from the guards' text, so the search needs no knowledge of the
/// expression language's shape: a number, a JSON string, `true` or `false`.
struct ArgumentCandidates {
    /// Per input, the constant values to try (empty for an input without an argument).
    let constants: [[Value]]
    /// Per input, the slots of the context variables its guards name.
    let variables: [[Int]]

    /// At most this many constants per input, so that the search stays linear in transitions.
    static let maximumConstants = 32

    init(_ machine: CompiledMachine) {
        var guardTexts = [[String]](repeating: [], count: machine.inputCount)
        for transition in machine.transitions {
            // An eventless transition (input -1) takes no argument.
            if transition.input >= 0, let text = transition.guardText { guardTexts[transition.input].append(text) }
        }
        let slots = Dictionary(machine.variableNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var constants: [[Value]] = []
        var variables: [[Int]] = []
        for input in 0..<machine.inputCount {
            guard let type = machine.argumentTypes[input] else {
                constants.append([])
                variables.append([])
                continue
            }
            var values = Self.defaultValues(type)
            var read: [Int] = []
            for text in guardTexts[input] {
                let (literals, words) = Self.scan(text)
                for literal in literals { values += Self.around(literal, as: type) }
                for word in words { if let slot = slots[word], !read.contains(slot) { read.append(slot) } }
            }
            var seen: Set<Value> = []
            constants.append(Array(values.filter { seen.insert($0).inserted }.prefix(Self.maximumConstants)))
            variables.append(read)
        }
        self.constants = constants
        self.variables = variables
    }

    /// The values to try for `input` in a machine whose context is `context`.
    func values(for input: Int, type: ValueType?, context: [Value]) -> [Value] {
        guard let type else { return [.null] }
        var values = constants[input]
        for slot in variables[input] {
            for value in Self.around(context[slot], as: type) where !values.contains(value) { values.append(value) }
        }
        return values
    }

    private static func defaultValues(_ type: ValueType) -> [Value] {
        switch type {
        case .int: [.int(0), .int(1)]
        case .double: [.double(0), .double(1)]
        case .bool: [.bool(false), .bool(true)]
        case .string: [.string("")]
        case .null, .list, .record: [.null]
        }
    }

    /// `value` as a value of `type`, with its neighbours ±1 for a number.
    private static func around(_ value: Value, as type: ValueType) -> [Value] {
        switch (type, value) {
        case (.int, .int(let n)): [.int(n), .int(n &- 1), .int(n &+ 1)]
        case (.int, .double(let d)) where d.isFinite && abs(d) < 1e15:
            [.int(Int(d.rounded(.down))), .int(Int(d.rounded(.down)) &+ 1), .int(Int(d.rounded(.down)) &- 1)]
        case (.double, .int(let n)): [.double(Double(n)), .double(Double(n) - 1), .double(Double(n) + 1)]
        case (.double, .double(let d)): [.double(d), .double(d - 1), .double(d + 1)]
        case (.bool, .bool): [.bool(true), .bool(false)]
        case (.string, .string): [value]
        default: []
        }
    }

    /// The literals of an expression's text (numbers, JSON strings, true, false) and its other words.
    static func scan(_ text: String) -> (literals: [Value], words: [String]) {
        var literals: [Value] = []
        var words: [String] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func isWord(_ s: Unicode.Scalar) -> Bool { s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s) }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                var end = index + 1
                while end < scalars.count && scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
                let literal = String(String.UnicodeScalarView(scalars[index..<min(end + 1, scalars.count)]))
                if case .literal(let value, _)? = try? ExpressionParser.parse(literal) { literals.append(value) }
                index = end + 1
            } else if ("0"..."9").contains(scalar) {
                var end = index
                while end < scalars.count && (("0"..."9").contains(scalars[end]) || scalars[end] == ".") { end += 1 }
                let digits = String(String.UnicodeScalarView(scalars[index..<end]))
                if let n = Int(digits) { literals.append(.int(n)) } else if let d = Double(digits) { literals.append(.double(d)) }
                index = end
            } else if isWord(scalar) {
                var end = index
                while end < scalars.count && isWord(scalars[end]) { end += 1 }
                let word = String(String.UnicodeScalarView(scalars[index..<end]))
                if word == "true" || word == "false" { literals.append(.bool(word == "true")) } else { words.append(word) }
                index = end
            } else {
                index += 1
            }
        }
        return (literals, words)
    }
}
