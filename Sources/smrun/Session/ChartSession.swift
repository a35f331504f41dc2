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
/// result is precomputed per cell).
struct ChartSession: ~Copyable {
    private var runner: ChartRunner
    private var parser: ScriptLineParser
    private var printer: ChartPrinter

    /// Starts the machine: its initial configuration, and what follows it.
    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int) {
        runner = ChartRunner(machine, stepLimit: stepLimit)
        runner.logHandler = FileHandleOutput.logLine
        parser = ScriptLineParser(machine: machine)
        printer = ChartPrinter(machine: machine, format: format, stepLimit: stepLimit)
        runner.start(into: &printer)
    }

    /// Whether any result was a rejection (exit status 1).
    var hadRejections: Bool { printer.rejected > 0 }

    /// Writes out the results printed so far.
    mutating func finish() {
        printer.base.output.flush()
    }

    /// Streams standard input line by line. Returns how many lines were skipped as too long.
    mutating func runScript(maximumLineBytes: Int) throws -> Int {
        var reader = LineReader(fd: 0, maximumLineBytes: maximumLineBytes)
        var lineNumber = 0
        var skipped = 0
        // Before a read that may wait: show the results.
        while let line = reader.next(willBlock: { finish() }) {
            if StopSignals.shouldStop() { break }
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

    /// `--send INPUT` or `--send INPUT=ARG`.
    mutating func send(_ input: String) {
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
        case .badArgument(let input, let problem):
            var name = Array(runner.machine.inputNames[input].utf8)
            name.withUnsafeMutableBytes {
                printer.receiveScriptRejection(.badArgument, name: UnsafeRawBufferPointer($0), input: input, problem: problem, runner: &runner)
            }
        }
    }
}
