import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun repl`'s session over one machine: inputs go through the machine's session
/// (``RunSession``: the runner and `run`'s result printer, so they print exactly as `run`
/// prints them), `:` commands ask it, and every input can be undone. Nothing here decides what
/// the machine does.
struct ReplSession<Session: InteractiveSession & ~Copyable>: ~Copyable {
    private var session: Session
    private let definition: MachineDefinition?
    /// The machine file as given, for the scenario files `:save` writes.
    private let machinePath: String
    /// The state file the session was loaded from (`--state`), which it never writes.
    private let stateFile: String?
    /// Before each input still in the session: what to go back to.
    private var undoStack: [Session.Saved] = []
    /// The session's inputs, as typed (script lines), for `:save`.
    private var inputs: [String] = []
    /// Each of ``inputs`` as a scenario step (an input or a wait), or `nil` for a line that is
    /// neither (an unknown input, a bad argument, a bad wait), left out of a scenario.
    private var steps: [SessionScenario.Step?] = []
    /// The number of the line being handled, counting every line read (JSON results' `line`).
    private var lineNumber = 0

    init(_ session: consuming Session, definition: MachineDefinition?, machinePath: String, stateFile: String? = nil) {
        self.session = session
        self.definition = definition
        self.machinePath = machinePath
        self.stateFile = stateFile
        self.session.flush()
    }

    /// The current state (or configuration), for the prompt.
    var stateName: String { session.stateDescription }

    /// What TAB offers for an input: every input name, those with a transition from the current
    /// state first, and whether each takes an argument.
    var inputNamesForCompletion: [(name: String, takesArgument: Bool)] {
        let machine = session.machine
        return session.inputsForCompletion.map { input in (machine.inputNames[input], machine.argumentTypes[input] != nil) }
    }

    /// Handles one line; returns `false` when the session ends (`:quit`).
    mutating func handle(_ text: String) -> Bool {
        lineNumber += 1
        switch SessionLine(text) {
        case .empty:
            break
        case .input(let line):
            send(line)
        case .invalid(let message):
            fail(message)
        case .command(let command, let argument):
            if command == .quit { return false }
            perform(command, argument: argument)
        }
        session.flush()
        return true
    }

    // MARK: - Inputs

    /// Sends one script line, remembering how to undo it. Blank and comment lines are skipped.
    private mutating func send(_ line: String) {
        var text = line
        let sent = text.withUTF8 { bytes in
            let bytes = UnsafeRawBufferPointer(bytes)
            if session.isSkipped(line: bytes) { return false }
            undoStack.append(session.saved)
            let action = session.scenarioAction(of: bytes)
            session.run(line: bytes, number: lineNumber)
            steps.append(action.map { SessionScenario.Step(action: $0, statesAfter: session.activeStates) })
            return true
        }
        if sent { inputs.append(line) }
    }

    // MARK: - Commands

    private mutating func perform(_ command: SessionCommand, argument: String?) {
        let machine = session.machine
        switch command {
        case .state:
            say(session.stateDescription)
        case .context:
            if machine.variableNames.isEmpty {
                say("the machine has no context")
            } else {
                say(zip(machine.variableNames, session.contextValues).map { "\($0) = \($1)" }.joined(separator: "\n"))
            }
        case .inputs:
            say(session.availableInputs, newline: false)
        case .timers:
            say(session.pendingTimers)
        case .undo:
            guard let previous = undoStack.popLast() else { return fail("nothing to undo") }
            let undone = inputs.removeLast()
            steps.removeLast()
            session.restore(previous)
            say("undid '\(undone.trimmingBlanks)': back in \(session.stateDescription)")
        case .reset:
            undoStack.removeAll()
            inputs.removeAll()
            steps.removeAll()
            session.restart()
            say("reset: back in \(session.stateDescription)")
        case .graph:
            let format: Diagram.Format
            switch argument {
            case nil, "dot": format = .dot
            case "mermaid": format = .mermaid
            case let other?: return fail(":graph draws dot or mermaid, not '\(other)'")
            }
            say(session.diagram(format, definition: definition), newline: false)
        case .wait:
            // The script line it stands for: undone, saved and reported as one.
            send("@wait " + (argument ?? ""))
        case .save:
            save(to: argument ?? "")
        case .saveState:
            saveState(to: argument ?? "")
        case .load:
            load(from: argument ?? "")
        case .help:
            say(SessionCommand.helpText, newline: false)
        case .quit:
            break
        }
    }

    /// Writes the session's inputs to `path`: a script, or a scenario file when `path` ends in
    /// `.test.yaml`.
    private mutating func save(to path: String) {
        guard SessionScenario.isScenarioFile(path) else {
            let text = inputs.map { $0 + "\n" }.joined()
            if let problem = SessionFile.write(text, to: path) { return fail("cannot save to '\(path)': \(problem)") }
            return say("saved \(inputs.count) input\(inputs.count == 1 ? "" : "s") to \(path)")
        }
        let kept = steps.compactMap { $0 }
        let text = SessionScenario(machine: session.machine, machinePath: machinePath).text(kept, savedAs: path)
        if let problem = SessionFile.write(text, to: path) { return fail("cannot save to '\(path)': \(problem)") }
        let left = steps.count - kept.count
        let note = left == 0 ? "" : " (left out \(left) line\(left == 1 ? "" : "s") that \(left == 1 ? "is" : "are") no input of the machine)"
        say("saved \(kept.count) input\(kept.count == 1 ? "" : "s") to \(path) as a scenario\(note)")
    }

    /// Writes a snapshot of the machine to `path`, which `smrun MACHINE --state FILE` resumes;
    /// never the state file the session was loaded from.
    private mutating func saveState(to path: String) {
        if let stateFile, SessionFile.sameFile(path, stateFile) {
            return fail(
                "\(SessionCommand.saveState.spelling) does not write '\(path)', the state file this session was loaded from (--state); save to another file, and resume that one")
        }
        let text = String(decoding: session.snapshotDocument, as: UTF8.self)
        if let problem = SessionFile.write(text, to: path) { return fail("cannot save the state to '\(path)': \(problem)") }
        say("saved state '\(session.stateDescription)' to \(path)")
    }

    private mutating func load(from path: String) {
        switch SessionFile.read(path) {
        case .failure(let problem):
            fail("cannot load '\(path)': \(problem.message)")
        case .success(let text):
            // Split as bytes: as a String, "\r\n" is one Character.
            var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            for line in lines { send(String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)) }
        }
    }

    // MARK: - Output

    /// Prints a command's answer on standard output, after the results printed before it.
    private mutating func say(_ text: String, newline: Bool = true) {
        session.flush()
        SessionFile.writeAll(text + (newline ? "\n" : ""), to: 1)
    }

    /// Prints what went wrong on standard error; the session goes on.
    private mutating func fail(_ message: String) {
        session.flush()
        SessionFile.writeAll("error: \(message)\n", to: 2)
    }
}
