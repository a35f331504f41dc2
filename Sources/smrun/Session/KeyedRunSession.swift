import ArgumentParser
import SmrunCore
import Statecraft
import StatecraftStore

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
/// One ``RunSession`` does the work: the instance a line names (its ``MachineRunner/Instance``:
/// configuration, context, clock and timers, not a runner of its own) is exchanged into its
/// runner for the line, and what it printed, kept in memory, is copied out with the key before
/// each line.
///
/// With a store (`--store`, ``KeyedStore``), the store's instances of the machine are restored
/// first and the log's clock goes on from the store's; each line also runs in the store's
/// engine, and the results go out only once the transaction holding their line is committed.
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
    private var instances: [Runner.Instance] = []
    /// What a new instance starts from: a runner's before it started.
    private let initialInstance: Runner.Instance
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
    private var output: OutputBuffer
    /// Where the instances are kept (`--store`), if anywhere.
    private var store: KeyedStore?
    /// The number of the last line run.
    private var lineNumber = 0
    /// A commit that failed before a read that may wait: the run stops at the next line, or
    /// at the end of input.
    private var failure: KeyedStoreFailure?
    /// How many results the output holds at most while they wait for their commit.
    private static var heldOutputBytes: Int { 16 << 20 }

    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int, timerLimit: Int, store: KeyedStore? = nil) {
        session = RunSession(
            machine: machine, format: format, stepLimit: stepLimit, timerLimit: timerLimit, state: nil,
            output: OutputBuffer(keepingInMemory: 1 << 16), starts: false)
        self.machine = machine
        self.stepLimit = stepLimit
        self.timerLimit = timerLimit
        isJSON = format == .json
        hasTimers = machine.hasTimers
        initialInstance = session.current.instance
        output = store == nil ? OutputBuffer(fd: 1) : OutputBuffer(keepingInMemory: 1 << 20)
        self.store = store
        if self.store != nil { restoreStored() }
    }

    /// Restores the stored instances, their clocks brought to the log's, which goes on from the
    /// store's latest time. (None of their timers is due by then, as the run that wrote that
    /// time fired them; one that were would fire here, in the store too.)
    private mutating func restoreStored() {
        time = store!.recordedTime
        for id in store!.instances.indices {
            let instance = store!.instances[id]
            let key = Array(instance.id.key.utf8)
            key.withUnsafeBytes { _ = keys.id(of: $0) }
            addPrefix(key)
            var restored = initialInstance
            if let snapshot = instance.snapshot {
                var runner = Runner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
                runner.restore(snapshot)
                restored = runner.instance
            }
            session.exchangeInstance(&restored)
            if hasTimers {
                // An instance of another definition is refused: it never runs.
                if instance.snapshot != nil {
                    session.wait(milliseconds: max(0, time - session.currentTime))
                    store!.fireTimers(of: id, dueBy: time)
                }
                noteTimers(of: id)
            }
            session.exchangeInstance(&restored)
            instances.append(restored)
            emit(for: id)
        }
    }

    var hadRejections: Bool { session.hadRejections }

    /// Runs every line of `source`; returns how many lines were skipped: too long, or (with a
    /// store) naming an instance it cannot keep. Throws when a commit fails.
    mutating func runScript(from source: ScriptSource, maximumLineBytes: Int) throws -> Int {
        var reader = LineReader(fd: source.fd, maximumLineBytes: maximumLineBytes)
        reader.skipByteOrderMark(willBlock: { flushForInput() })
        var skipped = 0
        while let line = reader.next(willBlock: { flushForInput() }) {
            if let failure { throw failure }
            if StopSignals.shouldStop() { break }
            lineNumber += 1
            switch line {
            case .text(let bytes):
                if !runLine(bytes, number: lineNumber) { skipped += 1 }
            case .tooLong(let count):
                try deliver()
                RunSession<Runner>.reportTooLong(source.name, line: lineNumber, count: count, maximumLineBytes: maximumLineBytes)
                skipped += 1
            }
            if store != nil, store!.wantsCommit || output.count >= Self.heldOutputBytes { try deliver() }
        }
        if let failure { throw failure }
        if reader.readError != 0 {
            try deliver()
            throw RunSession<Runner>.readFailure(source.name, reader.readError)
        }
        try deliver()
        return skipped
    }

    /// Shows the results so far before a read that may wait (committing their lines first);
    /// no timeout.
    private mutating func flushForInput() -> Int32 {
        do {
            try deliver()
        } catch {
            failure = error
        }
        return -1
    }

    /// Writes the results out: with a store, once the lines so far are committed.
    private mutating func deliver() throws(KeyedStoreFailure) {
        if store != nil {
            try store!.commit(throughLine: lineNumber, time: time)
            OutputBuffer.writeOut(output.pendingBytes, to: 1)
            output.clear()
        } else {
            output.flush()
        }
    }

    /// One line: `KEY INPUT [ARG]` (a key may start with `@`), `@wait DURATION`, or a blank or
    /// comment line. `false` when it was skipped: its key names no instance a store can keep.
    @inline(__always)
    private mutating func runLine(_ line: UnsafeRawBufferPointer, number: Int) -> Bool {
        var keyStart = 0
        while keyStart < line.count, line[keyStart] == UInt8(ascii: " ") || line[keyStart] == UInt8(ascii: "\t") { keyStart &+= 1 }
        var keyEnd = keyStart
        while keyEnd < line.count, line[keyEnd] != UInt8(ascii: " "), line[keyEnd] != UInt8(ascii: "\t") { keyEnd &+= 1 }
        guard keyEnd > keyStart, line[keyStart] != UInt8(ascii: "#"), !Self.isWait(line, from: keyStart, to: keyEnd) else {
            runUnkeyed(line, number: number)
            return true
        }
        var rest = keyEnd
        while rest < line.count, line[rest] == UInt8(ascii: " ") || line[rest] == UInt8(ascii: "\t") { rest &+= 1 }
        let key = UnsafeRawBufferPointer(rebasing: line[keyStart..<keyEnd])
        guard rest < line.count else { return skipKeyOnly(key, number: number) }
        let input = UnsafeRawBufferPointer(rebasing: line[rest...])
        if store != nil { return runStored(key: key, input: input, number: number) }
        let id = instance(key)
        session.exchangeInstance(&instances[id])
        session.run(line: input, number: number)
        if hasTimers { noteTimers(of: id) }
        session.exchangeInstance(&instances[id])
        emit(for: id)
        return true
    }

    /// Whether the line's first word, `line[start..<end]`, is `@wait`: the one word that leads a
    /// line of the whole log, not an instance's (a key may start with `@` otherwise).
    @inline(__always)
    private static func isWait(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        line[start] == UInt8(ascii: "@") && UnsafeRawBufferPointer(rebasing: line[start..<end]).elementsEqual(ScriptLineParser.waitDirective.utf8)
    }

    /// ``runLine(_:number:)`` with a store: the line runs in the store's engine too, unless its
    /// key is no instance key or its instance runs on another definition (then it is skipped,
    /// with a message naming it).
    @inline(never)
    private mutating func runStored(key: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer, number: Int) -> Bool {
        guard InstanceID.isValidKey(utf8: key) else {
            return skip(number, "key '\(Self.shown(key))' is no instance key "
                + "(1 to 200 of A-Z a-z 0-9 . _ ~ : @ -, not starting with '.')")
        }
        let id = instance(key)
        if let refusal = store!.refusal(of: id) { return skip(number, refusal) }
        session.exchangeInstance(&instances[id])
        // The instance's clock, ahead of the log's after a keyed `@wait`; a machine without
        // timers keeps none, and its entries are at the log's time.
        let now = max(time, session.currentTime)
        session.run(line: input, number: number)
        if hasTimers { noteTimers(of: id) }
        session.exchangeInstance(&instances[id])
        store!.run(line: input, of: id, now: now)
        emit(for: id)
        return true
    }

    /// Skips a line that holds a key and nothing else: no instance is created for it.
    @inline(never)
    private func skipKeyOnly(_ key: UnsafeRawBufferPointer, number: Int) -> Bool {
        skip(number, "'\(Self.shown(key))' has no input after it (a line is KEY INPUT [ARG])")
    }

    /// A key as a message shows it: its first 40 bytes, control characters escaped.
    private static func shown(_ key: UnsafeRawBufferPointer) -> String {
        JSONText.escapingControls(String(decoding: key.prefix(40), as: UTF8.self))
    }

    /// Reports line `number` skipped, and why, on standard error.
    private func skip(_ number: Int, _ reason: String) -> Bool {
        FileHandleOutput.standardError("smrun: line \(number): skipped: \(reason)\n")
        return false
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
        if let milliseconds = session.waitMilliseconds(line) {
            // The timers it fires print this line's number.
            session.numberResults(asLine: number)
            return wait(milliseconds: milliseconds)
        }
        session.run(line: line, number: number)
        emitUnkeyed()
    }

    /// The id of the instance `key` names, created and started on its first use.
    private mutating func instance(_ key: UnsafeRawBufferPointer) -> Int {
        let id = keys.id(of: key)
        guard id == instances.count else { return id }
        addPrefix(key)
        store?.create(key: String(decoding: key, as: UTF8.self), now: time)
        var instance = initialInstance
        session.exchangeInstance(&instance)
        session.startRunner(clockAt: hasTimers ? time : nil)
        if hasTimers { noteTimers(of: id) }
        session.exchangeInstance(&instance)
        instances.append(instance)
        emit(for: id)
        return id
    }

    /// Notes what leads the result lines of the next instance: its key.
    private mutating func addPrefix(_ key: some Collection<UInt8>) {
        if isJSON {
            prefixes += Array(#""key":"#.utf8)
            JSONText.appendQuoted(key, to: &prefixes)
            prefixes.append(UInt8(ascii: ","))
        } else {
            prefixes += key
            prefixes += Array(": ".utf8)
        }
        prefixEnds.append(prefixes.count)
    }

    /// Moves every instance's clock forward, firing their timers in due order across
    /// instances (as a server fires them), each instance's results under its key.
    private mutating func wait(milliseconds: Int) {
        let (sum, overflow) = time.addingReportingOverflow(milliseconds)
        let end = overflow ? Int.max : sum
        while let (at, id) = due.popDue(by: end) {
            session.exchangeInstance(&instances[id])
            // A stale pair (the instance's next timer changed since) fires nothing.
            if session.nextTimerDue() == at {
                session.wait(milliseconds: at - session.currentTime)
                notedDue[id] = Int.min
                noteTimers(of: id)
                store?.fireTimers(of: id, dueBy: at)
            }
            session.exchangeInstance(&instances[id])
            emit(for: id)
        }
        for id in instances.indices {
            session.exchangeInstance(&instances[id])
            // An instance that a keyed `@wait` moved beyond `end` keeps its clock.
            if session.currentTime < end { session.wait(milliseconds: end - session.currentTime) }
            session.exchangeInstance(&instances[id])
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
