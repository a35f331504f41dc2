import ArgumentParser
@_spi(Engine) import SmrunCore
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of a statechart over inputs: ``RunSession``'s loop on a ``ChartRunner``, every line
/// through the script parser (a statechart's result depends on its whole configuration, so no
/// result is precomputed per cell), and the state file.
struct ChartSession: ~Copyable {
    private var runner: ChartRunner
    private var parser: ScriptLineParser
    private var printer: ChartPrinter
    private let state: StateFile?
    private let clock: ClockOption
    /// Whether the machine has timers and runs on the wall clock (`--clock real`).
    let firesOnWallClock: Bool

    /// Resumes from the state file's snapshot (configuration, history records, context and
    /// timers, firing on the wall clock what fell due since it was saved), or starts the
    /// machine: its initial configuration, and what follows it.
    init(
        machine: CompiledMachine, format: OutputFormat, stepLimit: Int, timerLimit: Int = Runner.defaultTimerLimit, state: StateFile?,
        clock: ClockOption = .virtual
    ) {
        runner = ChartRunner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
        runner.logHandler = FileHandleOutput.logLine
        parser = ScriptLineParser(machine: machine)
        printer = ChartPrinter(machine: machine, format: format, stepLimit: stepLimit)
        self.state = state
        self.clock = clock
        firesOnWallClock = clock == .real && machine.hasTimers
        if let snapshot = state?.snapshot {
            runner.restore(snapshot)
            if firesOnWallClock { catchUp() }
        } else {
            if firesOnWallClock { runner.restoreTimers(time: WallClock.now(), pending: []) }
            runner.start(into: &printer)
        }
    }

    /// Whether any result was a rejection (exit status 1).
    var hadRejections: Bool { printer.rejected > 0 }

    /// Saves (under `--state`), then writes out the results printed so far.
    mutating func finish() {
        state?.save(runner, clock: clock.snapshotClock)
        printer.base.output.flush()
    }

    // MARK: - The wall clock

    /// Moves the clock to now, firing what fell due (`--clock real`).
    mutating func catchUp() {
        runner.advance(to: max(WallClock.now(), runner.time), into: &printer)
    }

    mutating func nextTimerDue() -> Int? { runner.nextTimerDue() }

    mutating func pause() {
        finish()
        state?.waitingForInput()
    }

    /// The statechart's configuration and context (for `smrun repl`'s commands).
    var current: ChartRunner { runner }

    /// Goes back to an earlier runner (`smrun repl`'s `:undo`), without running effects.
    mutating func restore(_ earlier: ChartRunner) {
        runner = earlier
        printer.base.forgetContextVersion()
    }

    /// Starts the statechart over, printing its start as at first (`smrun repl`'s `:reset`).
    mutating func restart() {
        runner = ChartRunner(runner.machine, stepLimit: runner.stepLimit, timerLimit: runner.timerLimit)
        printer.base.forgetContextVersion()
        runner.start(into: &printer)
    }

    /// Whether `line` is blank or a comment, which a script skips.
    mutating func isSkipped(line: UnsafeRawBufferPointer) -> Bool {
        if case .skip = parser.parse(line: line) { return true }
        return false
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

    /// Runs one script line and prints its result as `run` does for line `number`.
    mutating func run(line: UnsafeRawBufferPointer, number: Int) {
        printer.base.line = number
        process(parser.parse(line: line))
    }

    /// Streams standard input line by line. Returns how many lines were skipped as too long.
    mutating func runScript(maximumLineBytes: Int) throws -> Int {
        var reader = LineReader(fd: 0, maximumLineBytes: maximumLineBytes)
        var lineNumber = 0
        var skipped = 0
        // Before a read that may wait: save (under --state), then show the results; on the
        // wall clock, wait no longer than until the next timer falls due.
        while let line = reader.next(willBlock: { pauseForInput() }) {
            if StopSignals.shouldStop() { break }
            if firesOnWallClock { catchUp() }
            lineNumber += 1
            printer.base.line = lineNumber
            switch line {
            case .text(let bytes):
                process(parser.parse(line: bytes))
            case .tooLong(let count):
                printer.base.output.flush()
                FileHandleOutput.standardError(
                    "smrun: standard input line \(lineNumber): \(count) bytes, longer than --max-line-bytes \(maximumLineBytes); line skipped\n")
                skipped += 1
            }
        }
        if reader.readError != 0 {
            finish()
            FileHandleOutput.standardError("smrun: reading standard input: \(String(cString: strerror(reader.readError)))\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        return skipped
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
            process(parser.parse(name: name, argument: argument))
        }
    }

    private mutating func process(_ parsed: ScriptLineParser.Parsed) {
        switch parsed {
        case .skip:
            return
        case .input(let input, let argument):
            printer.base.argument = argument
            runner.send(input, argument: argument.value, into: &printer)
            printer.base.argument = .absent
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
        case .badArgument(let input, let problem):
            var name = Array(runner.machine.inputNames[input].utf8)
            name.withUnsafeMutableBytes {
                printer.receiveScriptRejection(.badArgument, name: UnsafeRawBufferPointer($0), input: input, problem: problem, runner: &runner)
            }
        }
    }
}
