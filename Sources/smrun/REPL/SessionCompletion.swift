/// What TAB completes in `smrun repl`: the first word as an input name (those with a
/// transition from the current state first) or a `:` command, `:graph`'s format, and the
/// file of `:load`, `:save` and `:save-state`.
struct SessionCompletion: Equatable {
    /// A word that completes the one being typed, and whether a space should follow it (the
    /// word takes an argument).
    struct Candidate: Equatable {
        let word: String
        let addsSpace: Bool
    }

    /// The word being completed (the text after the last blank before the cursor).
    let prefix: String
    /// The words starting with ``prefix``, in the order offered.
    let candidates: [Candidate]

    /// - Parameters:
    ///   - line: the line's text up to the cursor.
    ///   - inputs: the input names, in the order to offer them, and whether each takes an argument.
    ///   - files: the paths that complete a typed one (after `:load`, `:save` and `:save-state`).
    init(
        line: String, inputs: [(name: String, takesArgument: Bool)],
        files: (String) -> [Candidate] = FileNameCompletion.candidates(for:)
    ) {
        let leading = line.drop(while: { $0 == " " || $0 == "\t" })
        guard let blank = leading.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            prefix = String(leading)
            if leading.hasPrefix(":") {
                candidates = SessionCommand.allCases.filter { $0.spelling.hasPrefix(leading) }.map {
                    Candidate(word: $0.spelling, addsSpace: $0.argument != nil)
                }
            } else {
                candidates = inputs.filter { $0.name.hasPrefix(leading) }.map { Candidate(word: $0.name, addsSpace: $0.takesArgument) }
            }
            return
        }
        let rest = leading[blank...].drop(while: { $0 == " " || $0 == "\t" })
        prefix = String(rest)
        switch leading[..<blank] {
        case SessionCommand.graph.spelling where !rest.contains(" "):
            candidates = ["dot", "mermaid"].filter { $0.hasPrefix(rest) }.map { Candidate(word: $0, addsSpace: false) }
        case SessionCommand.load.spelling, SessionCommand.save.spelling, SessionCommand.saveState.spelling:
            candidates = files(prefix)
        default:
            candidates = []
        }
    }

    /// What to insert at the cursor: the rest of the only candidate (and a space when it takes
    /// an argument), or the longest prefix the candidates share; empty when TAB adds nothing.
    var insertion: String {
        guard let first = candidates.first else { return "" }
        if candidates.count == 1 {
            return String(first.word.dropFirst(prefix.count)) + (first.addsSpace ? " " : "")
        }
        var shared = Array(first.word)
        for candidate in candidates.dropFirst() {
            let word = Array(candidate.word)
            var count = 0
            while count < shared.count, count < word.count, shared[count] == word[count] { count += 1 }
            shared.removeSubrange(count...)
        }
        return String(shared.dropFirst(prefix.count))
    }
}
