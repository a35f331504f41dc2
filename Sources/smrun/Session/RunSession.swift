import ArgumentParser
import SmrunCore
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of a machine over inputs (`smrun run`, `smrun repl`): the runner its compiler chose,
/// the script parser, the printer and the state file, with the loop that feeds them.
struct RunSession<Runner: MachineRunner>: ~Copyable {
    private var runner: Runner
    private var parser: ScriptLineParser
    private var printer: ResultPrinter<Runner>
    private let state: StateFile?
    private let isJSON: Bool
    private let clock: ClockOption
    /// Whether the machine has timers and runs on the wall clock (`--clock real`).
    let firesOnWallClock: Bool
    /// Whether the steps that follow a start that printed no line (no entry effect ran) start
    /// at the margin, not indented under a line that is not there (`smrun repl`).
    private let startsAtMargin: Bool

    /// Resumes from the state file's snapshot (configuration, history records, context and
    /// timers), or from `snapshot` when there is no state file (`smrun repl --state`, which
    /// never saves), firing on the wall clock what fell due since it was saved, or starts the
    /// machine (printing a start result when its initial configuration's entry effects ran).
    /// With `starts` false, the machine is not started (``KeyedRunSession`` starts each of its
    /// instances itself), and results go to `output`.
    init(
        machine: CompiledMachine, format: OutputFormat, stepLimit: Int, timerLimit: Int = RunLimits.defaultTimerLimit, state: StateFile?,
        snapshot: MachineSnapshot? = nil, clock: ClockOption = .virtual, startsAtMargin: Bool = false,
        output: consuming OutputBuffer = OutputBuffer(fd: 1), starts: Bool = true
    ) {
        runner = Runner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
        runner.logHandler = FileHandleOutput.logLine
        parser = ScriptLineParser(machine: machine)
        printer = ResultPrinter(machine: machine, format: format, stepLimit: stepLimit, output: output)
        self.state = state
        isJSON = format == .json
        self.clock = clock
        firesOnWallClock = clock == .real && machine.hasTimers
        self.startsAtMargin = startsAtMargin
        if let snapshot = state?.snapshot ?? snapshot {
            runner.restore(snapshot)
            if firesOnWallClock { catchUp() }
        } else if starts {
            if firesOnWallClock { runner.restoreTimers(time: WallClock.now(), pending: []) }
            start()
        }
    }

    /// Whether any result was a rejection (exit status 1).
    var hadRejections: Bool { printer.rejected > 0 }

    /// The machine's configuration and context (for `smrun repl`'s commands).
    var current: Runner { runner }

    /// Goes back to an earlier runner (`smrun repl`'s `:undo`): its configuration, history
    /// records, context, clock and pending timers, without running effects.
    mutating func restore(_ earlier: Runner) {
        runner = earlier
        printer.forgetContextVersion()
    }

    /// Starts the machine over from its initial state, printing its start result as at first
    /// (`smrun repl`'s `:reset`).
    mutating func restart() {
        runner = Runner(runner.machine, stepLimit: runner.stepLimit, timerLimit: runner.timerLimit)
        runner.logHandler = FileHandleOutput.logLine
        printer.forgetContextVersion()
        start()
    }

    // MARK: - Many instances (``KeyedRunSession``)

    /// Puts `other` in place of the runner's instance, and the runner's into `other`: the
    /// session runs another instance (whose context the printer shows anew: the exchange moves
    /// the context's version).
    @inline(__always)
    mutating func exchangeInstance(_ other: inout Runner.Instance) {
        runner.exchangeInstance(&other)
    }

    /// The clock of the session's runner, in milliseconds.
    var currentTime: Int { runner.time }

    /// Starts the session's runner (a new instance), its clock first set to `time` (firing
    /// nothing) when one is given, printing its start result.
    mutating func startRunner(clockAt time: Int?) {
        if let time { runner.restoreTimers(time: time, pending: []) }
        start()
    }

    /// The results printed since ``clearResults()``, when they are kept in memory
    /// (``OutputBuffer/init(keepingInMemory:)``): valid until the session prints again.
    @inline(__always)
    var printedResults: UnsafeRawBufferPointer { printer.output.pendingBytes }

    /// Forgets the results printed.
    @inline(__always)
    mutating func clearResults() {
        printer.output.clear()
    }

    /// Starts the machine, printing its results (``startsAtMargin``).
    private mutating func start() {
        printer.indentsFollowUps = !startsAtMargin
        runner.start(into: &printer)
        printer.indentsFollowUps = true
    }

    /// Whether `line` is blank or a comment, which a script skips.
    mutating func isSkipped(line: UnsafeRawBufferPointer) -> Bool {
        if case .skip = parser.parse(line: line) { return true }
        return false
    }

    /// The duration of a valid `@wait` line, or `nil` for any other line.
    mutating func waitMilliseconds(_ line: UnsafeRawBufferPointer) -> Int? {
        if case .wait(let milliseconds) = parser.parse(line: line) { return milliseconds }
        return nil
    }

    /// What a script line does as a scenario step (an input with its argument, or a wait), or
    /// `nil` when the line is neither (blank, a comment, an unknown input, a bad argument, a bad
    /// wait): `smrun repl`'s `:save`.
    mutating func scenarioAction(of line: UnsafeRawBufferPointer) -> SessionScenario.Action? {
        switch parser.parse(line: line) {
        case .input(let input, let argument): .send(input: input, argument: argument.value)
        case .wait(let milliseconds): .wait(Delay(milliseconds: milliseconds, text: SessionScenario.durationText(ofWaitLine: line)))
        default: nil
        }
    }

    /// Numbers the results printed next as those of script line `number`.
    mutating func numberResults(asLine number: Int) {
        printer.line = number
    }

    /// Runs one script line (without its line end) and prints its result, as `run` does for
    /// line `number` of standard input (`smrun repl`'s inputs).
    mutating func run(line: UnsafeRawBufferPointer, number: Int) {
        printer.line = number
        runLine(line)
    }

    /// Writes out the results printed so far.
    mutating func flush() {
        printer.output.flush()
    }

    /// Saves (under `--state`), then writes out the results printed so far.
    mutating func finish() {
        state?.save(runner, clock: clock.snapshotClock)
        printer.output.flush()
    }

    // MARK: - The wall clock

    /// Moves the clock to now, firing what fell due (`--clock real`).
    @inline(never)
    mutating func catchUp() {
        runner.advance(to: max(WallClock.now(), runner.time), into: &printer)
    }

    mutating func nextTimerDue() -> Int? { runner.nextTimerDue() }

    mutating func pause() {
        finish()
        state?.waitingForInput()
    }

    /// Streams the input lines from `source`, in `format`, line by line: the hot path. Returns
    /// how many lines were skipped as too long; a read error throws exit status 2, after what
    /// came before was saved.
    mutating func runLines(from source: ScriptSource, format: InputLineFormat, maximumLineBytes: Int) throws -> Int {
        switch format {
        case .script: try runLines(ScriptLines.self, from: source, maximumLineBytes: maximumLineBytes)
        case .jsonl: try runLines(JSONLines.self, from: source, maximumLineBytes: maximumLineBytes)
        }
    }

    /// The loop of ``runLines(from:format:maximumLineBytes:)``, specialised for each format
    /// (``LineFormatHandling``): a script's line is not asked its format, and its handling is
    /// inlined in the loop (a closure passed in was called once a line, 23 more instructions a
    /// line of the car script, callgrind).
    private mutating func runLines<Lines: LineFormatHandling>(
        _ lines: Lines.Type, from source: ScriptSource, maximumLineBytes: Int
    ) throws -> Int {
        var reader = LineReader(fd: source.fd, maximumLineBytes: maximumLineBytes)
        reader.skipByteOrderMark(willBlock: { pauseForInput() })
        var lineNumber = 0
        var skipped = 0
        // Before a read that may wait: save (under --state), then show the results; on the
        // wall clock, wait no longer than until the next timer falls due.
        while let line = reader.next(willBlock: { pauseForInput() }) {
            if StopSignals.shouldStop() { break }
            if firesOnWallClock { catchUp() }
            lineNumber += 1
            printer.line = lineNumber
            switch line {
            case .text(let bytes):
                Lines.run(bytes, in: &self)
            case .tooLong(let count):
                printer.output.flush()
                Self.reportTooLong(source.name, line: lineNumber, count: count, maximumLineBytes: maximumLineBytes)
                skipped += 1
            }
        }
        if reader.readError != 0 {
            finish()
            throw Self.readFailure(source.name, reader.readError)
        }
        return skipped
    }

    /// Says that line `line` of `source` (`standard input`, or the script's path) was skipped
    /// as longer than `--max-line-bytes`.
    static func reportTooLong(_ source: String, line: Int, count: Int, maximumLineBytes: Int) {
        FileHandleOutput.standardError(
            "smrun: \(source) line \(line): \(count) bytes, longer than --max-line-bytes \(maximumLineBytes); line skipped\n")
    }

    /// Says why `source` could not be read; the error to throw (exit status 2).
    static func readFailure(_ source: String, _ error: Int32) -> ExitCode {
        FileHandleOutput.standardError("smrun: reading \(source): \(String(cString: strerror(error)))\n")
        return ExitCode(Smrun.Status.invalid)
    }

    /// One JSON Lines line (``JSONInputLine``): an input, a wait, or a bad line, whose result is
    /// a `bad-argument` rejection naming its line.
    fileprivate mutating func runJSONLine(_ bytes: UnsafeRawBufferPointer) {
        switch JSONInputLine(bytes) {
        case .blank:
            return
        case .input(let name, let argument):
            name.withUnsafeBytes { process(parser.parse(name: $0, jsonArgument: argument)) }
        case .wait(let duration):
            duration.withUnsafeBytes { process(ScriptLineParser.parseWait($0)) }
        case .bad(let name, let problem):
            name.withUnsafeBytes {
                printer.receiveScriptRejection(.badArgument, name: $0, input: -1, problem: "", runner: &runner, message: problem)
            }
        }
    }

    /// One script line. A plain line whose cell's result is settled and precomputed is a table
    /// lookup and a copy of bytes; any other goes through the parser, the runner and the printer.
    @inline(__always)
    fileprivate mutating func runLine(_ bytes: UnsafeRawBufferPointer) {
        guard let plain = parser.parsePlain(line: bytes) else {
            process(parser.parse(line: bytes))
            return
        }
        let text = printer.precomputedText(cell: runner.cell(of: plain.input))
        guard text.count > 0 else { return process(.input(plain.input, plain.argument)) }
        // The argument is built only for a transition that copies it (or another value).
        if let outcome = runner.sendSettled(plain.input, argument: { parser.value(of: plain) }) {
            var rejected = false
            if case .rejected = outcome { rejected = true }
            if isJSON {
                printPlainJSON(plain, text: text, rejected: rejected)
            } else {
                printer.printPlain(line: bytes, text: text, rejected: rejected)
            }
        } else {
            process(.input(plain.input, plain.argument))
        }
    }

    /// Kept out of line, so that the text path's loop stays small. The context's text is
    /// brought up to date first when the result shows a context that changed.
    @inline(never)
    private mutating func printPlainJSON(_ plain: ScriptLineParser.Plain, text: UnsafeRawBufferPointer, rejected: Bool) {
        if !rejected && !printer.showsContext(version: runner.contextVersion) {
            printer.updateContextText(runner.contextStorage, version: runner.contextVersion)
        }
        printer.printPlainJSON(plain, text: text, rejected: rejected)
    }

    /// `@wait DURATION` or `--wait DURATION`: moves the clock forward, printing the results of
    /// the timers that fall due (docs/semantics.md); on the wall clock, sleeps that long.
    mutating func wait(milliseconds: Int) {
        if clock == .real { return sleepOnWallClock(milliseconds: milliseconds) }
        let (end, overflow) = runner.time.addingReportingOverflow(milliseconds)
        runner.advance(to: overflow ? Int.max : end, into: &printer)
    }

    /// `--send INPUT` or `--send INPUT=ARG`.
    mutating func send(_ input: String) {
        if firesOnWallClock { catchUp() }
        var bytes = Array(input.utf8)
        let separator = bytes.firstIndex(of: UInt8(ascii: "="))
        bytes.withUnsafeMutableBytes { all in
            let buffer = UnsafeRawBufferPointer(all)
            let name = UnsafeRawBufferPointer(rebasing: buffer[..<(separator ?? buffer.count)])
            let argument = separator.map { UnsafeRawBufferPointer(rebasing: buffer[($0 + 1)...]) }
            let parsed = parser.parse(name: name, argument: argument)
            if case .unknownInput = parsed, separator == nil, let hint = sendHint(name) {
                printer.receiveScriptRejection(.unknownInput, name: name, input: -1, problem: hint, runner: &runner)
                return
            }
            process(parsed)
        }
    }

    /// For `--send 'INPUT ARG'`, written as a script line is, what to write instead
    /// (`--send INPUT=ARG`); `nil` unless the name before the first blank is an input (an
    /// undeclared SCXML event takes no argument: no hint).
    private mutating func sendHint(_ text: UnsafeRawBufferPointer) -> String? {
        guard let blank = text.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
        let name = UnsafeRawBufferPointer(rebasing: text[..<blank])
        switch parser.parse(name: name, argument: nil) {
        case .unknownInput, .undeclaredEvent: return nil
        default: break
        }
        var rest = blank
        while rest < text.count && (text[rest] == UInt8(ascii: " ") || text[rest] == UInt8(ascii: "\t")) { rest += 1 }
        let argument = String(decoding: UnsafeRawBufferPointer(rebasing: text[rest...]), as: UTF8.self)
        let input = JSONText.escapingControls(String(decoding: name, as: UTF8.self))
        return "to send '\(input)' with an argument, write --send \(input)=\(JSONText.escapingControls(argument))"
    }

    /// An event that the machine never names, which an SCXML document without `<sc:input>`
    /// declarations accepts (docs/scxml.md): its results show its name, though `input` takes it.
    private mutating func receiveUndeclaredEvent(input: Int?, name: UnsafeRawBufferPointer, argument: UnsafeRawBufferPointer?) {
        if let argument {
            let message = "'\(ResultPrinter<Runner>.printable(name))' takes no argument, got \(ScriptLineParser.show(argument))"
            printer.receiveScriptRejection(.badArgument, name: name, input: input ?? -1, problem: "", runner: &runner, message: message)
        } else if let input {
            printer.eventName = Array(name)
            runner.send(input, argument: .null, into: &printer)
            printer.eventName = []
        } else {
            printer.receiveUnmatchedEvent(name, runner: &runner)
        }
    }

    /// The general path, kept out of the plain path's loop.
    @inline(never)
    private mutating func process(_ parsed: ScriptLineParser.Parsed) {
        switch parsed {
        case .skip:
            return
        case .input(let input, let argument):
            printer.argument = argument
            runner.send(input, argument: argument.value, into: &printer)
            printer.argument = .absent
        case .unknownInput(let name):
            printer.receiveScriptRejection(.unknownInput, name: name, input: -1, problem: "", runner: &runner)
        case .wait(let milliseconds):
            wait(milliseconds: milliseconds)
        case .badWait(let problem):
            var name = Array(ScriptLineParser.waitDirective.utf8)
            name.withUnsafeMutableBytes {
                printer.receiveScriptRejection(
                    .badArgument, name: UnsafeRawBufferPointer($0), input: -1, problem: "", runner: &runner, message: problem)
            }
        case .undeclaredEvent(let input, let name, let argument):
            receiveUndeclaredEvent(input: input, name: name, argument: argument)
        case .badArgument(let input, let problem):
            var name = Array(runner.machine.inputNames[input].utf8)
            name.withUnsafeMutableBytes {
                printer.receiveScriptRejection(.badArgument, name: UnsafeRawBufferPointer($0), input: input, problem: problem, runner: &runner)
            }
        }
    }
}

/// How ``RunSession``'s loop runs a line of one input format (``InputLineFormat``).
private protocol LineFormatHandling {
    static func run<Runner: MachineRunner>(_ line: UnsafeRawBufferPointer, in session: inout RunSession<Runner>)
}

/// Script lines: `INPUT`, `INPUT ARG`, `@wait DURATION`.
private enum ScriptLines: LineFormatHandling {
    @inline(__always)
    static func run<Runner: MachineRunner>(_ line: UnsafeRawBufferPointer, in session: inout RunSession<Runner>) {
        session.runLine(line)
    }
}

/// JSON Lines: `{"input": NAME, "arg": VALUE}`, `{"wait": DURATION}`.
private enum JSONLines: LineFormatHandling {
    static func run<Runner: MachineRunner>(_ line: UnsafeRawBufferPointer, in session: inout RunSession<Runner>) {
        session.runJSONLine(line)
    }
}
