#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun repl`'s prompt on a terminal: the current state, in colour when the terminal allows.
struct ReplPrompt {
    let coloured: Bool

    /// `STATE> `; the colour escapes are wrapped in `\u{1}` so libedit does not count them.
    func text(state: String) -> String {
        coloured ? "\u{1}\u{1B}[1;36m\u{1}\(state)\u{1}\u{1B}[0m\u{1}> " : "\(state)> "
    }

    /// Colour unless `NO_COLOR` is set (https://no-color.org) or the terminal is `dumb`.
    static var terminalAllowsColour: Bool {
        if let noColour = getenv("NO_COLOR"), noColour.pointee != 0 { return false }
        guard let term = getenv("TERM") else { return false }
        return String(cString: term) != "dumb"
    }

    /// `~/.smrun_history`, or `nil` without a home directory.
    static var historyPath: String? {
        guard let home = getenv("HOME"), home.pointee != 0 else { return nil }
        return String(cString: home) + "/.smrun_history"
    }
}
