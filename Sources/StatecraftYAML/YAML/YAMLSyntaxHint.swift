/// What a person needs after libyaml's own words for the syntax errors a machine file's author
/// makes most (issue 35): a key with no space after its colon (`initial:cart`), an unquoted
/// `*` (`from: *`, an alias to libyaml), a row without its `- ` and a line indented off the
/// levels around it.
enum YAMLSyntaxHint {
    /// A hint to follow libyaml's message (starting with "; "), or "" when none applies.
    ///
    /// - Parameters:
    ///   - problem: libyaml's problem, e.g. "could not find expected ':'".
    ///   - context: libyaml's context, e.g. "while scanning a simple key", if any.
    ///   - problemLine: the line of the problem, from 0, as libyaml counts.
    ///   - contextLine: the line of the context, from 0, when there is a context.
    ///   - contextColumn: the column of the context, from 0, when there is a context.
    ///   - bytes: the file's text.
    static func hint(
        problem: String, context: String?, problemLine: Int, contextLine: Int?, contextColumn: Int?, in bytes: [UInt8]
    ) -> String {
        let lines = Self.lines(bytes)
        func line(_ index: Int?) -> String? {
            guard let index, index >= 0, index < lines.count else { return nil }
            return lines[index]
        }
        if context == "while scanning an alias", let text = line(contextLine), let column = contextColumn {
            return aliasHint(text, column: column)
        }
        if context == "while scanning a simple key", let text = line(contextLine) {
            return rowHint(text) ?? colonHint(text) ?? ""
        }
        if problem == "did not find expected key", context == "while parsing a block mapping", let text = line(problemLine),
            let contextColumn
        {
            return indentationHint(text, line: problemLine, mappingLine: contextLine ?? 0, mappingColumn: contextColumn)
        }
        if problem == "mapping values are not allowed in this context" {
            // A plain scalar runs on over the lines after `initial:cart` until a `:` ends it.
            var index = problemLine - 1
            while let text = line(index), text.allSatisfy({ $0 == " " }) { index -= 1 }
            return line(index).flatMap(colonHint) ?? ""
        }
        return ""
    }

    /// The file's lines, as libyaml counts them (a `\r\n` ends one line).
    private static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
    }

    /// `from: *`: the `*` an unquoted value starts with begins an alias; quoted, it is text.
    private static func aliasHint(_ line: String, column: Int) -> String {
        let scalars = Array(line.unicodeScalars)
        guard column < scalars.count, scalars[column] == "*" else { return "" }
        var before = String(String.UnicodeScalarView(scalars[..<column]))
        while before.hasSuffix(" ") { before.removeLast() }
        var key = ""
        if before.hasSuffix(":") {
            key = String(before.dropLast().reversed().prefix { !" {,-".contains($0) }.reversed())
        }
        let quoted = key.isEmpty ? #""*""# : #"\#(key): "*""#
        return "; an unquoted '*' starts a YAML alias (*name): quote it, \(quoted)"
    }

    /// A row written without its `- `: the line is taken as a key with no `:`.
    private static func rowHint(_ line: String) -> String? {
        let text = line.drop { $0 == " " }
        guard !text.hasPrefix("- "), !text.hasPrefix("#"), text.contains("=>") || text.contains("|") else { return nil }
        let indent = String(repeating: " ", count: line.count - text.count)
        return "; each row is a list item: write '\(indent)- \(text)'"
    }

    /// A line indented to no level of the mapping it ends (`   packing:` with three spaces where
    /// the states around it have two): neither one of its keys nor inside one.
    private static func indentationHint(_ line: String, line number: Int, mappingLine: Int, mappingColumn: Int) -> String {
        let indent = line.prefix { $0 == " " }.count
        guard indent != mappingColumn, indent < line.count else { return "" }
        return "; line \(number + 1) is indented \(indent == 1 ? "1 space" : "\(indent) spaces"), where the keys of the mapping from line \(mappingLine + 1) are indented \(mappingColumn): indent it as the lines it belongs with"
    }

    /// `initial:cart`: a key whose `:` has no space after it is no key to YAML.
    private static func colonHint(_ line: String) -> String? {
        var text = Substring(line).drop { $0 == " " }
        if text.hasPrefix("- ") { text = text.dropFirst(2).drop { $0 == " " } }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = text[..<colon]
        let value = text[text.index(after: colon)...]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }),
            let first = value.first, first != " ", first != ":"
        else { return nil }
        return "; a key needs a space after its colon: '\(key): \(value)'"
    }
}
