import ArgumentParser
import SmrunCore
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun run MACHINE --by-key`: one machine, many instances, over one event log. Each script
/// line starts with an instance's key (`KEY INPUT [ARG]`); the first line of a key creates its
/// instance (started at the log's clock), and the rest of the line goes to that instance as a
/// line of a plain run would. `@wait DURATION` moves every instance's clock. Results are a
/// plain run's, each line led by the key: `KEY: RESULT` in text, `{"key":"KEY",...}` in JSON.
///
/// One ``RunSession`` does the work: the instance a line names is exchanged into it for the
/// line (its runner is moved, not copied), and what it printed, kept in memory, is copied out
/// with the key before each line.
struct KeyedRunSession<Runner: MachineRunner>: ~Copyable {
    private var session: RunSession<Runner>
    private let machine: CompiledMachine
    private let stepLimit: Int
    private let timerLimit: Int
    private let isJSON: Bool
    /// Whether the machine has timers (read once: reading it off ``machine`` per line copied
    /// the compiled machine).
    private let hasTimers: Bool
    /// The instances, by id; ``keys`` gives a key's id.
    private var runners: [Runner] = []
    private var keys = TextInterner()
    /// What leads each instance's result lines: `KEY: `, or `"key":"KEY",` after JSON's `{`.
    private var prefixes: [UInt8] = []
    private var prefixEnds: [Int] = []
    /// The log's clock: where a new instance's clock starts.
    private var time = 0
    /// The instances with a pending timer (when the machine has timers), for `@wait`.
    private var due = DueInstances()
    /// Per instance, the due time last noted in ``due`` (`Int.min`: none).
    private var notedDue: [Int] = []
    private var output = OutputBuffer(fd: 1)

    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int, timerLimit: Int) {
        session = RunSession(
            machine: machine, format: format, stepLimit: stepLimit, timerLimit: timerLimit, state: nil,
            output: OutputBuffer(keepingInMemory: 1 << 16), starts: false)
        self.machine = machine
        self.stepLimit = stepLimit
        self.timerLimit = timerLimit
        isJSON = format == .json
        hasTimers = machine.hasTimers
    }

    var hadRejections: Bool { session.hadRejections }

    /// Runs every line of `source`; returns how many lines were skipped as too long.
    mutating func runScript(from source: ScriptSource, maximumLineBytes: Int) throws -> Int {
        var reader = LineReader(fd: source.fd, maximumLineBytes: maximumLineBytes)
        reader.skipByteOrderMark(willBlock: { flushForInput() })
        var lineNumber = 0
        var skipped = 0
        while let line = reader.next(willBlock: { flushForInput() }) {
            if StopSignals.shouldStop() { break }
            lineNumber += 1
            switch line {
            case .text(let bytes):
                runLine(bytes, number: lineNumber)
            case .tooLong(let count):
                output.flush()
                RunSession<Runner>.reportTooLong(source.name, line: lineNumber, count: count, maximumLineBytes: maximumLineBytes)
                skipped += 1
            }
        }
        if reader.readError != 0 {
            output.flush()
            throw RunSession<Runner>.readFailure(source.name, reader.readError)
        }
        output.flush()
        return skipped
    }

    /// Shows the results so far before a read that may wait; no timeout.
    private mutating func flushForInput() -> Int32 {
        output.flush()
        return -1
    }

    /// One line: `KEY INPUT [ARG]`, `@wait DURATION`, or a blank or comment line.
    @inline(__always)
    private mutating func runLine(_ line: UnsafeRawBufferPointer, number: Int) {
        var keyStart = 0
        while keyStart < line.count, line[keyStart] == UInt8(ascii: " ") || line[keyStart] == UInt8(ascii: "\t") { keyStart &+= 1 }
        var keyEnd = keyStart
        while keyEnd < line.count, line[keyEnd] != UInt8(ascii: " "), line[keyEnd] != UInt8(ascii: "\t") { keyEnd &+= 1 }
        guard keyEnd > keyStart, line[keyStart] != UInt8(ascii: "#"), line[keyStart] != UInt8(ascii: "@") else {
            return runUnkeyed(line, number: number)
        }
        var rest = keyEnd
        while rest < line.count, line[rest] == UInt8(ascii: " ") || line[rest] == UInt8(ascii: "\t") { rest &+= 1 }
        let id = instance(UnsafeRawBufferPointer(rebasing: line[keyStart..<keyEnd]))
        session.exchangeRunner(&runners[id])
        session.run(line: UnsafeRawBufferPointer(rebasing: line[rest...]), number: number)
        if hasTimers { noteTimers(of: id) }
        session.exchangeRunner(&runners[id])
        emit(for: id)
    }

    /// Notes when the session's instance `id` has its next timer due, for ``wait(milliseconds:)``.
    @inline(never)
    private mutating func noteTimers(of id: Int) {
        if id == notedDue.count { notedDue.append(Int.min) }
        guard let next = session.nextTimerDue(), next != notedDue[id] else { return }
        notedDue[id] = next
        due.insert(due: next, id: id)
    }

    /// A line without a key: `@wait` moves every instance's clock; blank lines and comments
    /// are skipped; a bad `@wait` is reported as a plain run reports it.
    @inline(never)
    private mutating func runUnkeyed(_ line: UnsafeRawBufferPointer, number: Int) {
        if session.isSkipped(line: line) { return }
        if let milliseconds = session.waitMilliseconds(line) { return wait(milliseconds: milliseconds) }
        session.run(line: line, number: number)
        emitUnkeyed()
    }

    /// The id of the instance `key` names, created and started on its first use.
    private mutating func instance(_ key: UnsafeRawBufferPointer) -> Int {
        let id = keys.id(of: key)
        guard id == runners.count else { return id }
        if isJSON {
            prefixes += Array(#""key":"#.utf8)
            JSONText.appendQuoted(key, to: &prefixes)
            prefixes.append(UInt8(ascii: ","))
        } else {
            prefixes += key
            prefixes += Array(": ".utf8)
        }
        prefixEnds.append(prefixes.count)
        var runner = Runner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
        runner.logHandler = FileHandleOutput.logLine
        if hasTimers { runner.restoreTimers(time: time, pending: []) }
        session.exchangeRunner(&runner)
        session.startRunner()
        if hasTimers { noteTimers(of: runners.count) }
        session.exchangeRunner(&runner)
        runners.append(runner)
        emit(for: id)
        return id
    }

    /// Moves every instance's clock forward, firing their timers in due order across
    /// instances (as a server fires them), each instance's results under its key.
    private mutating func wait(milliseconds: Int) {
        let (sum, overflow) = time.addingReportingOverflow(milliseconds)
        let end = overflow ? Int.max : sum
        while let (at, id) = due.popDue(by: end) {
            session.exchangeRunner(&runners[id])
            // A stale pair (the instance's next timer changed since) fires nothing.
            if session.nextTimerDue() == at {
                session.wait(milliseconds: at - session.currentTime)
                notedDue[id] = Int.min
                noteTimers(of: id)
            }
            session.exchangeRunner(&runners[id])
            emit(for: id)
        }
        for id in runners.indices {
            session.exchangeRunner(&runners[id])
            session.wait(milliseconds: end - session.currentTime)
            session.exchangeRunner(&runners[id])
        }
        time = end
    }

    /// Copies what the session printed for instance `id` out, each line led by its key.
    @inline(__always)
    private mutating func emit(for id: Int) {
        let printed = session.printedResults
        guard printed.count > 0 else { return }
        let start = id == 0 ? 0 : prefixEnds[id &- 1]
        let end = prefixEnds[id]
        prefixes.withUnsafeBytes { all in
            Self.copyLines(printed, prefix: UnsafeRawBufferPointer(rebasing: all[start..<end]), json: isJSON, to: &output)
        }
        session.clearResults()
    }

    /// Copies what the session printed for no instance (a line without a key) out as it is.
    private mutating func emitUnkeyed() {
        output.append(session.printedResults)
        session.clearResults()
    }

    /// Copies `printed`, line by line, each led by `prefix` (after the `{` of a JSON line).
    @inline(__always)
    private static func copyLines(_ printed: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer, json isJSON: Bool, to output: inout OutputBuffer) {
        guard let base = printed.baseAddress else { return }
        var start = 0
        while start < printed.count {
            // Every printed line ends with a newline.
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), printed.count &- start)!
            let end = base.distance(to: UnsafeRawPointer(newline)) &+ 1
            if isJSON {
                output.append(UnsafeRawBufferPointer(rebasing: printed[start..<(start &+ 1)]), prefix)
                output.append(UnsafeRawBufferPointer(rebasing: printed[(start &+ 1)..<end]))
            } else {
                output.append(prefix, UnsafeRawBufferPointer(rebasing: printed[start..<end]))
            }
            start = end
        }
    }
}
