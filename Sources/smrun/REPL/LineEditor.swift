import CLibEdit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a terminal through the system's libedit: line editing (emacs keys, or
/// what `~/.editrc` sets), history kept in a file, TAB completion, Ctrl-C cancelling the line
/// instead of ending the program, and the line redrawn after Ctrl-Z and `fg`.
final class LineEditor {
    /// What one read gave.
    enum Read {
        case line(String)
        /// Ctrl-C: the line was given up.
        case cancelled
        /// Ctrl-D on an empty line, or the terminal went away.
        case end
    }

    /// libedit's functions.
    private let libedit: smrun_libedit
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyPath: String?
    private var promptText: UnsafeMutablePointer<CChar>
    /// Completes the text before the cursor.
    private let complete: (String) -> SessionCompletion
    /// Set by ``readCharacter`` when SIGINT interrupted the read.
    private var interrupted = false

    /// `nil` when libedit cannot start (no terminal description, out of memory).
    init?(_ library: LibEdit, historyPath: String?, complete: @escaping (String) -> SessionCompletion) {
        let libedit = library.functions
        guard let input = fdopen(0, "r"), let output = fdopen(1, "w"), let errors = fdopen(2, "w"),
            let editLine = smrun_el_init(libedit, "smrun", input, output, errors)
        else { return nil }
        guard let history = smrun_history_open(libedit, 1000) else {
            smrun_el_end(libedit, editLine)
            return nil
        }
        self.libedit = libedit
        self.editLine = editLine
        self.history = history
        self.historyPath = historyPath
        self.complete = complete
        promptText = strdup("> ")
        if let historyPath { _ = smrun_history_load(libedit, history, historyPath) }

        smrun_el_set_client_data(libedit, editLine, Unmanaged.passUnretained(self).toOpaque())
        smrun_el_set_editor(libedit, editLine, "emacs")
        smrun_el_set_history(libedit, editLine, history)
        smrun_el_set_prompt(libedit, editLine, { editLine in LineEditor.owner(of: editLine).promptText }, 1)
        smrun_el_set_getc(libedit, editLine, { editLine, character in LineEditor.owner(of: editLine).readCharacter(into: character) })
        smrun_el_bind_function(
            libedit, editLine, "smrun-complete", "Complete an input name or a command",
            { editLine, _ in LineEditor.owner(of: editLine).completeAtCursor() }, "^I")
        smrun_el_source_user_settings(libedit, editLine)
    }

    deinit {
        smrun_el_end(libedit, editLine)
        smrun_history_close(libedit, history)
        free(promptText)
    }

    /// The prompt; text between two `\u{1}` (colour escapes) takes no room on the line.
    func setPrompt(_ prompt: String) {
        free(promptText)
        promptText = strdup(prompt)
    }

    /// Reads one line, without its line end, and adds it to the history.
    func readLine() -> Read {
        interrupted = false
        var count: Int32 = 0
        guard let text = smrun_el_gets(libedit, editLine, &count), count > 0 else {
            if interrupted {
                SessionFile.writeAll("^C\n", to: 1)
                return .cancelled
            }
            SessionFile.writeAll("\n", to: 1)
            return .end
        }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        if !line.trimmingBlanks.isEmpty {
            _ = smrun_history_enter(libedit, history, line)
            if let historyPath { _ = smrun_history_save(libedit, history, historyPath) }
        }
        return .line(line)
    }

    private static func owner(of editLine: OpaquePointer?) -> LineEditor {
        // Called back by libedit, which is loaded by then, with the line editor smrun made.
        guard case .success(let library) = LibEdit.loaded, let editor = smrun_el_client_data(library.functions, editLine) else {
            preconditionFailure("libedit called back without smrun's line editor")
        }
        return Unmanaged<LineEditor>.fromOpaque(editor).takeUnretainedValue()
    }

    /// libedit's read function: one character from the terminal, UTF-8 decoded. 1 when read, 0
    /// at the end of input, -1 on an error or when Ctrl-C interrupted the read.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        var bytes: [UInt8] = []
        var expected = 1
        while bytes.count < expected {
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count < 0 {
                if errno == EINTR {
                    if TerminalSignals.takeInterrupt() {
                        interrupted = true
                        return -1
                    }
                    if TerminalSignals.takeContinue() {
                        // Back from Ctrl-Z: the shell left the terminal in its own mode.
                        smrun_el_reset_terminal(libedit, editLine)
                    }
                    continue
                }
                return -1
            }
            if count == 0 { return 0 }
            if bytes.isEmpty {
                expected = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            } else if byte & 0xC0 != 0x80 {
                break  // not a continuation byte: the sequence was invalid
            }
            bytes.append(byte)
        }
        let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        character?.pointee = wchar_t(bitPattern: scalar.value)
        return 1
    }

    /// TAB: inserts what completes the word before the cursor; when that adds nothing and
    /// several words fit, lists them under the line.
    private func completeAtCursor() -> UInt8 {
        guard let info = smrun_el_line(libedit, editLine)?.pointee, let start = info.buffer, let cursor = info.cursor else { return UInt8(CC_ERROR) }
        let typed = String(decoding: UnsafeRawBufferPointer(start: start, count: cursor - start), as: UTF8.self)
        let completion = complete(typed)
        let insertion = completion.insertion
        if !insertion.isEmpty {
            return smrun_el_insertstr(libedit, editLine, insertion) == 0 ? UInt8(CC_REFRESH) : UInt8(CC_ERROR)
        }
        guard completion.candidates.count > 1 else { return UInt8(CC_ERROR) }
        SessionFile.writeAll("\n" + completion.candidates.map(\.word).joined(separator: "  ") + "\n", to: 1)
        return UInt8(CC_REDISPLAY)
    }
}
