import SmrunCore
import Statecraft
import StatecraftStore

/// `smrun run --by-key --store`: a keyed run's instances kept in the store that `smrun serve`
/// keeps, written as the server writes them. Each line's run is cut into history entries by the
/// server's own engine (``MachineRuntime``): a key's first line is its instance's creation
/// (entry 1) and each input line an entry, as a send with `"create": true` would be; a line that
/// the server would refuse (an unknown input, a bad argument) is stored nowhere. The writes are
/// gathered per instance and committed together, many lines in one transaction
/// (``commit(throughLine:time:)``): the store always holds a prefix of the log.
///
/// Ids are the ``KeyedRunSession``'s: the stored instances first, in the order they were
/// loaded, then each new key as it comes.
struct KeyedStore {
    /// An instance as the store has it.
    struct Instance {
        var id: InstanceID
        /// Its row as last written (not committed yet, maybe); `nil` before its creation.
        var row: StoredInstance?
        /// Its snapshot after the last line that ran on it; `nil` for an instance of another
        /// definition, which is refused.
        var snapshot: MachineSnapshot?
    }

    /// The clock a keyed run's instances run on, as the store records it.
    static let clock = MachineSnapshot.Clock.virtual
    /// How many history entries one transaction holds at most (memory stays bounded, and a
    /// PostgreSQL transaction numbers fewer than 2^20).
    static let entriesPerCommit = 1 << 17
    /// How long a commit may wait while lines keep coming.
    static let commitInterval: Duration = .seconds(1)

    private let held: HeldStore
    let runtime: MachineRuntime
    /// The machine file, for the refusal of an instance of another definition.
    private let file: String
    private var parser: ScriptLineParser
    /// The instances by id: those loaded first.
    private(set) var instances: [Instance]
    /// The latest time the store holds (an `updated`, or where the machine's last log left the
    /// clock): where a log's clock goes on, then where its commits left it.
    private(set) var recordedTime: Int
    /// The writes not committed yet, by id, and the ids that have one, in the order written.
    private var pending: [InstanceWrite?] = []
    private var written: [Int] = []
    private var pendingEntries = 0
    private var lastCommit = ContinuousClock.now
    /// The last line in the store.
    private(set) var committedLine = 0

    /// Opens the machine's instances in `held`: refuses a store on the real clock, keeps the
    /// definition, and loads every instance of the machine.
    init(_ held: HeldStore, runtime: MachineRuntime, file: String) throws {
        self.held = held
        self.runtime = runtime
        self.file = file
        parser = ScriptLineParser(machine: runtime.machine)
        let name = runtime.machine.name
        let (rows, logTime) = try held.run { store in
            _ = try await store.clock(recording: Self.clock.rawValue)
            _ = try await DefinitionCatalog(store: store, current: [runtime])
            var rows: [StoredInstance] = []
            while true {
                let page = try await store.instances(machine: name, state: nil, status: nil, afterKey: rows.last?.id.key, limit: 1_000)
                rows += page
                if page.count < 1_000 { return (rows, try await store.logTime(of: name)) }
            }
        }
        instances = try rows.map { row in
            let current = row.fingerprint == runtime.fingerprint
            return try Instance(id: row.id, row: row, snapshot: current ? runtime.snapshot(row.snapshot) : nil)
        }
        pending = Array(repeating: nil, count: instances.count)
        recordedTime = max(logTime ?? 0, rows.map(\.updated).max() ?? 0)
    }

    /// Why the instance `id` takes no line, if it does not: it runs on another definition.
    func refusal(of id: Int) -> String? {
        guard instances[id].snapshot == nil, let row = instances[id].row else { return nil }
        return "instance '\(row.id.key)' runs on definition \(row.fingerprint), not on \(file)'s (\(runtime.fingerprint)): "
            + "smrun instances migrate --store \(held.name) \(file) moves it"
    }

    /// Creates the instance of `key` (the next id) at `now`.
    mutating func create(key: String, now: Int) {
        instances.append(Instance(id: InstanceID(machine: runtime.machine.name, key: key)))
        pending.append(nil)
        record(runtime.start(context: nil, now: now, clock: Self.clock), of: instances.count - 1, now: now)
    }

    /// Runs a keyed line's `INPUT [ARG]` (or `@wait DURATION`) on instance `id`, whose clock
    /// reads `now`.
    mutating func run(line: UnsafeRawBufferPointer, of id: Int, now: Int) {
        guard let snapshot = instances[id].snapshot else { return }
        let run: InstanceRun?
        switch parser.parse(line: line) {
        case .input(let input, let argument):
            run = try? runtime.send(snapshot, input: runtime.machine.inputNames[input], argument: Self.jsonText(argument), now: now)
        case .undeclaredEvent(_, let name, nil):
            run = try? runtime.send(snapshot, input: String(decoding: name, as: UTF8.self), argument: nil, now: now)
        case .wait(let milliseconds):
            let (end, overflow) = now.addingReportingOverflow(milliseconds)
            run = runtime.advance(snapshot, to: overflow ? Int.max : end)
        case .skip, .unknownInput, .badArgument, .badWait, .undeclaredEvent:
            run = nil
        }
        if let run, !run.entries.isEmpty { record(run, of: id, now: now) }
    }

    /// Fires the timers of instance `id` due by `time`, as `@wait` does.
    mutating func fireTimers(of id: Int, dueBy time: Int) {
        guard let snapshot = instances[id].snapshot else { return }
        let run = runtime.advance(snapshot, to: time)
        if !run.entries.isEmpty { record(run, of: id, now: time) }
    }

    /// Whether the writes gathered are due for a commit: a second since the last one ended, or
    /// enough entries for one transaction.
    var wantsCommit: Bool {
        pendingEntries >= Self.entriesPerCommit || (pendingEntries > 0 && ContinuousClock.now - lastCommit >= Self.commitInterval)
    }

    /// Commits every write gathered, the log's lines through `line` included, then where they
    /// left the log's clock (`time`), and says so on standard error (after a crash, its last
    /// such line names the last line in the store); with nothing gathered and the clock where
    /// the store has it, there is nothing to commit or say.
    mutating func commit(throughLine line: Int, time: Int) throws(KeyedStoreFailure) {
        // The next second counts from the end of this commit: a long one is not followed by
        // another of one line.
        defer { lastCommit = ContinuousClock.now }
        guard !written.isEmpty || time > recordedTime else { return }
        let writes = written.map { pending[$0]! }
        let (machine, movesClock) = (runtime.machine.name, time > recordedTime)
        do {
            try held.run { store in
                if !writes.isEmpty { try await store.write(writes) }
                // After the writes: a crash between the two leaves a time their rows hold.
                if movesClock { try await store.recordLogTime(time, of: machine) }
            }
        } catch {
            throw KeyedStoreFailure(store: held.name, committedLine: committedLine, reason: "\(error)")
        }
        for id in written { pending[id] = nil }
        written.removeAll(keepingCapacity: true)
        pendingEntries = 0
        recordedTime = max(recordedTime, time)
        committedLine = line
        FileHandleOutput.standardError("smrun: committed through line \(line) to \(held.name)\n")
    }

    /// Adds what `run` did to instance `id` at `now` to the writes of the next commit.
    private mutating func record(_ run: InstanceRun, of id: Int, now: Int) {
        let write = InstanceWrite(run, id: instances[id].id, fingerprint: runtime.fingerprint, after: instances[id].row, now: now)
        instances[id].row = write.instance
        instances[id].snapshot = run.snapshot
        pendingEntries += write.entries.count
        if pending[id] == nil {
            pending[id] = write
            written.append(id)
        } else {
            pending[id]!.append(write)
        }
    }

    /// A script argument as the JSON a client would send as `arg`; `nil` when there is none.
    private static func jsonText(_ argument: ScriptArgument) -> String? {
        guard !argument.isNone else { return nil }
        var bytes: [UInt8] = []
        if let raw = argument.raw {
            if argument.rawIsJSON { bytes += raw } else { JSONValueText.stringPieces(raw) { bytes += $0 } }
        } else {
            JSONValueText.pieces(of: argument.value) { bytes += $0 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A commit to the store failed: the store holds the log through ``committedLine``.
struct KeyedStoreFailure: Error, CustomStringConvertible {
    let store: String
    let committedLine: Int
    let reason: String

    var description: String { "\(store): \(reason); the store holds the log through line \(committedLine)" }
}
