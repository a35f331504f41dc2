import Statecraft

/// One line typed in `smrun repl`: nothing, an input for the machine (a script line), or a
/// `:` command with its argument.
enum SessionLine: Equatable {
    case empty
    /// A script line, `INPUT` or `INPUT ARG` (or a comment), sent as `run` reads it.
    case input(String)
    case command(SessionCommand, argument: String?)
    /// A line starting with `:` that is not a command, or a command given a wrong argument:
    /// what to tell the user.
    case invalid(String)

    init(_ text: String) {
        let trimmed = text.trimmingBlanks
        guard trimmed.hasPrefix(":") else {
            self = trimmed.isEmpty ? .empty : .input(text)
            return
        }
        let words = trimmed.dropFirst().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let name = words.first.map(String.init) ?? ""
        let argument = words.count > 1 ? String(words[1]).trimmingBlanks : nil
        guard let command = SessionCommand(rawValue: name) else {
            let closest = Suggestion.closest(to: name, in: SessionCommand.allCases.map(\.rawValue))
            self = .invalid(
                "unknown command ':\(name)'" + (closest.map { " (did you mean ':\($0)'?)" } ?? "") + "; :help lists the commands")
            return
        }
        if command.requiresArgument, argument == nil {
            self = .invalid("\(command.spelling) needs a file name: \(command.spelling) FILE")
        } else if command.argument == nil, let argument {
            self = .invalid("\(command.spelling) takes no argument, not '\(argument)'")
        } else {
            self = .command(command, argument: argument)
        }
    }
}
