extension CompiledMachine {
    /// Each false guard of `input`'s candidates in `state`, with the values it read:
    /// `'passengers > 0' (passengers = 0); 'arg == mode' (arg = "b", mode = "a")`. Built only
    /// for a `guard-rejected` message; `nil` when no candidate's guard is written as an
    /// expression (the guards of machines built in Swift are closures).
    ///
    /// - Parameters:
    ///   - context: the context the guards read (a rejection changes nothing, so the context
    ///     after the result); `nil` to list the guards without values.
    ///   - argument: the input's argument.
    func falseGuards(input: Int, state: Int, context: [Value]?, argument: Value) -> String? {
        falseGuards(of: candidates(state: state, input: input).map { Int($0) }, context: context, argument: argument)
    }

    /// ``falseGuards(input:state:context:argument:)`` for a list of candidate transitions (a
    /// statechart's, gathered from its active states).
    func falseGuards(of candidates: [Int], context: [Value]?, argument: Value) -> String? {
        var parts: [String] = []
        for transition in candidates {
            guard let text = transitions[transition].guardText, let expression = transitions[transition].guardExpression
            else { continue }
            if case .host = expression { continue }
            var part = "'\(Self.excerpt(text))'"
            if let context, let parsed = try? ExpressionParser.parse(text) {
                let (variables, readsArgument) = parsed.valuesRead
                var values: [String] = []
                for name in variables {
                    if let slot = variableNames.firstIndex(of: name), slot < context.count {
                        values.append("\(name) = \(Self.shown(context[slot]))")
                    }
                }
                if readsArgument { values.insert("arg = \(Self.shown(argument))", at: 0) }
                if !values.isEmpty { part += " (\(values.joined(separator: ", ")))" }
            }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// A guard as quoted in a message: a long one is cut.
    private static func excerpt(_ text: String) -> String {
        text.count > 80 ? text.prefix(77) + "..." : text
    }

    /// A value as an expression writes it (strings JSON-quoted), a long string cut.
    private static func shown(_ value: Value) -> String {
        if case .string(let text) = value, text.count > 60 { return JSONText.quoted(String(text.prefix(57))) + "..." }
        return value.description
    }
}
