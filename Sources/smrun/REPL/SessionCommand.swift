/// A `:` command of `smrun repl`: its name, what it takes and what it does, for parsing,
/// completion and `:help`.
enum SessionCommand: String, CaseIterable {
    case state, context, inputs, timers, undo, reset, wait, graph, save
    case saveState = "save-state"
    case load, help, quit

    /// The argument it takes, for `:help`, or `nil` for none.
    var argument: String? {
        switch self {
        case .graph: "[dot|mermaid]"
        case .save, .saveState, .load: "FILE"
        case .wait: "DURATION"
        default: nil
        }
    }

    /// Whether the argument must be given.
    var requiresArgument: Bool { self == .save || self == .saveState || self == .load || self == .wait }

    var summary: String {
        switch self {
        case .state: "print the current state"
        case .context: "print the context's variables and values"
        case .inputs: "list what can be sent now and where each input leads"
        case .timers: "list the pending timers, each with the time left until it is due"
        case .undo: "go back one input (repeat to go further)"
        case .reset: "start over from the initial state"
        case .wait: "move the machine's clock forward, firing the timers that fall due (as `@wait` in a script)"
        case .graph: "print the machine as DOT (default) or Mermaid, the current state highlighted"
        case .save: "write the session's inputs to FILE, a script for `smrun MACHINE < FILE`"
        case .saveState: "write the machine's state, context and timers to FILE, a snapshot for `smrun MACHINE --state FILE`"
        case .load: "send every input of the script FILE"
        case .help: "list the commands"
        case .quit: "leave (so does Ctrl-D)"
        }
    }

    /// `:name`, as typed.
    var spelling: String { ":" + rawValue }

    /// The `:help` text.
    static var helpText: String {
        let usages = allCases.map { command in command.spelling + (command.argument.map { " " + $0 } ?? "") }
        let width = usages.map(\.count).max() ?? 0
        var text = "Type an input (INPUT or INPUT ARG, as in a script) to send it, or a command:\n"
        for (command, usage) in zip(allCases, usages) {
            text += "  " + usage + String(repeating: " ", count: width - usage.count + 2) + command.summary + "\n"
        }
        text += "TAB completes input names (those with a transition from the current state first) and commands.\n"
        return text
    }
}
