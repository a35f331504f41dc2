import ArgumentParser
import SmrunCore
import Statecraft
import StatecraftYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun run MACHINE.yaml`: feeds inputs to a machine and prints one result per input.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a machine over inputs given with --send or, one per line, on standard input.",
        discussion: """
            Each input line is INPUT or INPUT ARG; ARG is the rest of the line, and a string may be \
            JSON-quoted. Blank lines and lines starting with # are skipped. Exit status: 0 when every \
            input was accepted or ignored, 1 when any was rejected, 2 for an invalid machine or a usage \
            or I/O error.
            """
    )

    @Argument(help: "The machine file (YAML).")
    var machine: String

    @Option(name: .customLong("send"), help: ArgumentHelp("An input to send, as INPUT or INPUT=ARG; repeatable. Without it, inputs are read from standard input.", valueName: "input"))
    var inputs: [String] = []

    @Option(help: "Output format: text (for people) or json (JSON Lines).")
    var format: OutputFormat = .text

    @Option(name: .customLong("max-steps"), help: "Most queued inputs processed for one external input before step-limit.")
    var stepLimit = Runner.defaultStepLimit

    @Option(name: .customLong("max-line-bytes"), help: "Longest input-script line accepted, in bytes.")
    var maximumLineBytes = 64 << 20

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp(
            "Resume from this snapshot file (state and context) and save to it, atomically, whenever smrun waits for input and at exit. Concurrent runs on one file take turns (a lock on FILE.lock). SIGINT or SIGTERM stops after the current input, with the file saved, exit status 130 or 143.",
            valueName: "file"))
    var stateFile: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if stepLimit < 1 { throw ValidationError("--max-steps must be at least 1, not \(stepLimit)") }
        if maximumLineBytes < 1 { throw ValidationError("--max-line-bytes must be at least 1, not \(maximumLineBytes)") }
    }

    func run() throws {
        let loaded = MachineFile.load(path: machine, limits: limits.limits)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }

        var runner = Runner(compiled, stepLimit: stepLimit)
        var parser = ScriptLineParser(machine: compiled)
        var printer = ResultPrinter(machine: compiled, format: format, stepLimit: stepLimit, output: OutputBuffer(fd: 1))
        let state = try StateFile.open(stateFile, machine: compiled)
        if let snapshot = state?.snapshot { runner.restore(snapshot) } else { runner.start(into: &printer) }

        var scriptErrors = 0
        if inputs.isEmpty {
            scriptErrors = try runScript(&runner, &parser, &printer, state)
        } else {
            for input in inputs where !StopSignals.shouldStop() { send(input, &runner, &parser, &printer) }
        }
        state?.save(runner)
        printer.output.flush()
        if let status = StopSignals.exitStatus { throw ExitCode(status) }
        if scriptErrors > 0 || printer.rejected > 0 { throw ExitCode(Smrun.Status.rejected) }
    }

    /// Streams standard input line by line: the hot path.
    private func runScript(
        _ runner: inout Runner, _ parser: inout ScriptLineParser, _ printer: inout ResultPrinter, _ state: StateFile?
    ) throws -> Int {
        var reader = LineReader(fd: 0, maximumLineBytes: maximumLineBytes)
        var lineNumber = 0
        var errors = 0
        // Before a read that may wait: save (under --state), then show the results.
        while let line = reader.next(willBlock: { state?.save(runner); printer.output.flush(); state?.waitingForInput() }) {
            if StopSignals.shouldStop() { break }
            lineNumber += 1
            printer.line = lineNumber
            switch line {
            case .text(let bytes):
                process(parser.parse(line: bytes), &runner, &printer)
            case .tooLong(let count):
                printer.output.flush()
                FileHandleOutput.standardError(
                    "smrun: standard input line \(lineNumber): \(count) bytes, longer than --max-line-bytes \(maximumLineBytes); line skipped\n")
                errors += 1
            }
        }
        if reader.readError != 0 {
            state?.save(runner)
            printer.output.flush()
            FileHandleOutput.standardError("smrun: reading standard input: \(String(cString: strerror(reader.readError)))\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        return errors
    }

    private func send(_ input: String, _ runner: inout Runner, _ parser: inout ScriptLineParser, _ printer: inout ResultPrinter) {
        var bytes = Array(input.utf8)
        let separator = bytes.firstIndex(of: UInt8(ascii: "="))
        bytes.withUnsafeMutableBytes { all in
            let buffer = UnsafeRawBufferPointer(all)
            let name = UnsafeRawBufferPointer(rebasing: buffer[..<(separator ?? buffer.count)])
            let argument = separator.map { UnsafeRawBufferPointer(rebasing: buffer[($0 + 1)...]) }
            process(parser.parse(name: name, argument: argument), &runner, &printer)
        }
    }

    @inline(__always)
    private func process(_ parsed: ScriptLineParser.Parsed, _ runner: inout Runner, _ printer: inout ResultPrinter) {
        switch parsed {
        case .skip:
            return
        case .input(let input, let argument):
            printer.argument = argument
            runner.send(input, argument: argument.value, into: &printer)
            printer.argument = .absent
        case .unknownInput(let name):
            printer.receiveScriptRejection(.unknownInput, name: name, input: -1, problem: "", runner: runner)
        case .badArgument(let input, let problem):
            let name = runner.machine.inputNames[input]
            var nameBytes = Array(name.utf8)
            nameBytes.withUnsafeMutableBytes {
                printer.receiveScriptRejection(.badArgument, name: UnsafeRawBufferPointer($0), input: input, problem: problem, runner: runner)
            }
        }
    }
}
