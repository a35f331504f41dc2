import ArgumentParser
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `smrun repl` reads its lines: a terminal through libedit, or standard input as it is.
enum ReplLoop {
    /// At a terminal when standard input and output are both one; otherwise from standard input.
    static func run<Session: InteractiveSession & ~Copyable>(_ session: inout ReplSession<Session>, _ machine: CompiledMachine) throws {
        if isatty(0) == 1 && isatty(1) == 1 {
            try runAtTerminal(&session, machine)
        } else {
            runFromStandardInput(&session)
        }
    }

    /// At a terminal: a banner, a prompt showing the state, line editing, history, completion;
    /// Ctrl-C gives up the line, Ctrl-D leaves.
    static func runAtTerminal<Session: InteractiveSession & ~Copyable>(_ session: inout ReplSession<Session>, _ machine: CompiledMachine) throws {
        let libedit: LibEdit
        switch LibEdit.loaded {
        case .success(let library): libedit = library
        case .failure(let failure):
            FileHandleOutput.standardError(
                "smrun: line editing at a terminal needs the system's libedit (Debian: libedit2), which could not be loaded: \(failure.message)\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        let completions = ReplCompletionSource()
        guard let editor = LineEditor(libedit, historyPath: ReplPrompt.historyPath, complete: { completions.complete($0) }) else {
            FileHandleOutput.standardError("smrun: cannot start line editing on this terminal\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        TerminalSignals.install()
        let prompt = ReplPrompt(coloured: ReplPrompt.terminalAllowsColour)
        SessionFile.writeAll(banner(machine), to: 1)
        while true {
            completions.inputs = session.inputNamesForCompletion
            editor.setPrompt(prompt.text(state: session.stateName))
            switch editor.readLine() {
            case .line(let line):
                _ = TerminalSignals.takeInterrupt()  // a Ctrl-C between two reads cancels nothing
                if !session.handle(line) { return }
            case .cancelled:
                continue
            case .end:
                return
            }
        }
    }

    /// The first line at a terminal: the machine's states and the inputs a user sends, without
    /// the internal ones (`after` timers', inputs declared `internal`) and the done events
    /// (`done.state.NAME`) that the machine raises itself.
    static func banner(_ machine: CompiledMachine) -> String {
        let inputs = machine.externalInputs.count
        return "\(machine.name): \(machine.stateCount) states, \(inputs) \(inputs == 1 ? "input" : "inputs"). :help lists the commands, Ctrl-D leaves.\n"
    }

    /// Without a terminal: one command or input per line of standard input, no prompt.
    static func runFromStandardInput<Session: InteractiveSession & ~Copyable>(_ session: inout ReplSession<Session>) {
        var reader = LineReader(fd: 0, maximumLineBytes: 64 << 20)
        reader.skipByteOrderMark(willBlock: { -1 })
        while let line = reader.next(willBlock: { -1 }) {
            guard case .text(let bytes) = line else {
                FileHandleOutput.standardError("error: line longer than 64 MiB skipped\n")
                continue
            }
            if !session.handle(String(decoding: bytes, as: UTF8.self)) { return }
        }
    }
}
