import Foundation
import GRDB
import SmrunCore
import Synchronization

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, through GRDB.
/// Reads run in parallel on GRDB's readers; every write goes through one ``GroupCommitWriter``,
/// which serializes the inputs of every instance (so each instance's inputs apply one at a
/// time, in the order they arrive) and shares one sync among the writes waiting together; a
/// ``WALCheckpointer`` copies the log into the file in the background.
public final class SQLiteStore: InstanceStore {
    private let pool: DatabasePool
    private let writer: GroupCommitWriter
    private let checkpointer: WALCheckpointer
    /// Whether ``close()`` was called.
    private let closed = Atomic(false)
    /// The file's path.
    public let path: String
    /// The writer's page cache, in KiB.
    private static let writerCacheKiB = 32 * 1024
    /// How many instances the writer keeps as it wrote them last (``WrittenInstances``).
    private static let writtenInstancesKept = 16_384

    /// Opens the store at `path`, creating it (and its schema) when missing and migrating an
    /// older schema. `path` is a file's path, whatever it looks like: SQLite would take one
    /// starting with `file:` for a URI, and `:memory:` for a database in memory.
    public init(path: String) throws {
        self.path = path
        guard !path.isEmpty else { throw StoreError.unreadable("a store needs a file name") }
        let fileName = path.hasPrefix("file:") || path == ":memory:" ? "./" + path : path
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // The writer's page cache: SQLite's default of 2 MiB holds the pages of a few
            // thousand instances; over 100,000, inputs read pages back from the file again and again
            // (docs/serving.md, "The store"). Readers keep the default.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)") }
        }
        configuration.busyMode = .timeout(10)
        do {
            pool = try DatabasePool(path: fileName, configuration: configuration)
            // Every commit syncs the log before it is answered. GRDB sets `synchronous=NORMAL`
            // on a pool's writer when it turns WAL mode on, after `prepareDatabase`, and with
            // NORMAL a commit syncs nothing: an answered input would be lost with the power.
            // SQLite's own checkpoint in the writer's commits waits for a longer log than its
            // default: the checkpointer and the writer between batches start the log again first.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerCheckpointPages)")
            }
            let migrator = SQLiteSchema.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.unreadable("\(path) was written by a newer smrun: its schema has migrations this one does not know")
            }
            try migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unreadable("\(path): \(error)")
        }
        do {
            checkpointer = try WALCheckpointer(path: fileName)
        } catch {
            throw StoreError.unreadable("\(path): \(error)")
        }
        writer = GroupCommitWriter(pool: pool, path: path, keeping: Self.writtenInstancesKept, checkpointer: checkpointer)
    }

    // MARK: - Writes

    package func transact<Answer: Sendable>(
        _ id: InstanceID, idempotency: IdempotencyScope?,
        _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer {
        try await writer.write { [written = writer.written] db in
            let kept = written.instance(id)
            let instance = try kept.map(\.instance) ?? Self.fetchInstance(db, id)
            let record = try idempotency.flatMap { try Self.fetchIdempotency(db, machine: id.machine, scope: $0) }
            let output = try decide(TransactionInput(instance: instance, snapshot: kept?.snapshot, idempotency: record, now: WallClock.now()))
            if let write = output.write { try Self.apply(write, in: db) }
            if let record = output.idempotency, let idempotency {
                try db.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO idempotency
                        (machine, scope, idempotency_key, instance_key, request, status, version, location, body, expires)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    id.machine, idempotency.scope, idempotency.key, record.instanceKey, Data(record.request), record.answer.status,
                    record.answer.version, record.answer.location, Data(record.answer.body), record.expires,
                ])
            }
            if let write = output.write { written.stage(write) }
            return output.answer
        }
    }

    /// One writer applies every write in turn: an instance is never busy.
    package func transactUnlessBusy<Answer: Sendable>(
        _ id: InstanceID, _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer? {
        try await transact(id, idempotency: nil, decide)
    }

    package func write(_ writes: [InstanceWrite]) async throws {
        try await writer.write { [written = writer.written] db in
            for write in writes { try Self.apply(write, in: db) }
            // A writer that holds its instances itself (`--by-key`) reads none back.
            for write in writes { written.stageRemoval(write.instance.id) }
        }
    }

    private static func apply(_ write: InstanceWrite, in db: Database) throws {
        let instance = write.instance
        let id = instance.id
        try db.cachedStatement(
            sql: write.isNew
                ? "INSERT INTO instances (fingerprint, status, snapshot, version, created, updated, machine, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                : "UPDATE instances SET fingerprint = ?, status = ?, snapshot = ?, version = ?, created = ?, updated = ? WHERE machine = ? AND key = ?"
        ).execute(arguments: [
            instance.fingerprint, instance.status.rawValue, Data(instance.snapshot), instance.version, instance.created, instance.updated,
            id.machine, id.key,
        ])
        let insertEntry = try db.cachedStatement(
            sql: "INSERT INTO history (machine, key, seq, at, kind, input, arg, timer, results, state_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for entry in write.entries {
            try insertEntry.execute(arguments: [
                id.machine, id.key, entry.seq, entry.at, entry.kind.rawValue, entry.input, entry.argument, entry.timer, entry.results,
                entry.stateAfter,
            ])
        }
        if let states = write.activeStates { try writeActiveStates(states, of: write, in: db) }
        if let timers = write.timers {
            if !write.isNew {
                try db.cachedStatement(sql: "DELETE FROM timers WHERE machine = ? AND key = ?").execute(arguments: [id.machine, id.key])
            }
            let insert = try db.cachedStatement(sql: "INSERT INTO timers (machine, key, n, due, timer) VALUES (?, ?, ?, ?, ?)")
            for (n, timer) in timers.enumerated() { try insert.execute(arguments: [id.machine, id.key, n, timer.due, timer.description]) }
        }
    }

    /// Writes the active-state rows of `write`'s instance, `states`, in as few statements as it
    /// can. When the stored rows are known (``InstanceWrite/activeStatesBefore``) and fewer
    /// differ than there are states, it changes only those: a state that another replaced is
    /// one `UPDATE` (a flat machine's every move), one left or entered a `DELETE` or an
    /// `INSERT`. Else it deletes them all and inserts each.
    private static func writeActiveStates(_ states: [String], of write: InstanceWrite, in db: Database) throws {
        let id = write.instance.id
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO active_states (machine, key, state) VALUES (?, ?, ?)")
        if !write.isNew, let before = write.activeStatesBefore {
            let left = before.filter { !states.contains($0) }
            let entered = states.filter { !before.contains($0) }
            if max(left.count, entered.count) <= states.count {
                let replace = try db.cachedStatement(sql: "UPDATE active_states SET state = ? WHERE machine = ? AND key = ? AND state = ?")
                for (old, new) in zip(left, entered) { try replace.execute(arguments: [new, id.machine, id.key, old]) }
                let delete = try db.cachedStatement(sql: "DELETE FROM active_states WHERE machine = ? AND key = ? AND state = ?")
                for old in left.dropFirst(entered.count) { try delete.execute(arguments: [id.machine, id.key, old]) }
                for new in entered.dropFirst(left.count) { try insert.execute(arguments: [id.machine, id.key, new]) }
                return
            }
        }
        if !write.isNew {
            try db.cachedStatement(sql: "DELETE FROM active_states WHERE machine = ? AND key = ?").execute(arguments: [id.machine, id.key])
        }
        for state in states { try insert.execute(arguments: [id.machine, id.key, state]) }
    }

    package func delete(_ id: InstanceID, expectedVersion: Int?) async throws -> DeleteOutcome {
        try await writer.write { [written = writer.written] db in
            guard let version = try Int.fetchOne(db, sql: "SELECT version FROM instances WHERE machine = ? AND key = ?", arguments: [id.machine, id.key])
            else { return .absent }
            if let expectedVersion, expectedVersion != version { return .versionMismatch(current: version) }
            for table in ["instances", "active_states", "history", "timers"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE machine = ? AND key = ?", arguments: [id.machine, id.key])
            }
            try db.execute(sql: "DELETE FROM idempotency WHERE machine = ? AND instance_key = ?", arguments: [id.machine, id.key])
            written.stageRemoval(id)
            return .deleted
        }
    }

    package func saveDefinition(_ definition: StoredDefinition) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO definitions (fingerprint, machine, format, source, state_names) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    definition.fingerprint, definition.machine, definition.format.rawValue, Data(definition.source),
                    definition.stateNames.joined(separator: "\n"),
                ])
        }
    }

    package func removeExpiredIdempotency(now: Int) async throws -> Int {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM idempotency WHERE expires <= ?", arguments: [now])
            return db.changesCount
        }
    }

    package func clock(recording clock: String) async throws -> String {
        try await writer.write { db in
            if let stored = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'clock'") {
                guard stored == clock else { throw StoreError.otherClock(stored: stored, wanted: clock) }
                return stored
            }
            try db.execute(sql: "INSERT INTO settings (name, value) VALUES ('clock', ?)", arguments: [clock])
            return clock
        }
    }

    package func recordedClock() async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'clock'") }
    }

    package func logTime(of machine: String) async throws -> Int? {
        try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = ?", arguments: [LogTime.setting(machine)]).flatMap(Int.init)
        }
    }

    package func recordLogTime(_ time: Int, of machine: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                arguments: [LogTime.setting(machine), String(time)])
        }
    }

    /// One server writes the file; `smrun instances` beside it writes rarely, and is heard of
    /// by ``watchOtherCommits(_:)``.
    package var isShared: Bool { false }

    /// How often the writer's connection looks for other processes' commits.
    private static let otherCommitsInterval: Duration = .milliseconds(250)

    /// Wakes when another process (`smrun instances delete` or `migrate` beside the server)
    /// has committed to the file: the writer's connection reads `PRAGMA data_version`, which
    /// moves with every other connection's commit but not with its own, every 250 ms.
    package func watchOtherCommits(_ wake: @escaping @Sendable () -> Void) async {
        @Sendable func dataVersion() async -> Int? {
            try? await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        }
        var seen = await dataVersion()
        wake()
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.otherCommitsInterval)
            guard let version = await dataVersion() else { continue }
            if version != seen { wake() }
            seen = version
        }
    }

    /// Healthy unless the writer's last transaction failed as a whole (a disk full, a file that
    /// can no longer be written): then a small write tries again, and its failure is thrown as
    /// ``StoreError/unavailable(_:)``. Under load the inputs' own commits keep the answer up to
    /// date; an idle server learns that the disk has room again from this write.
    package func checkHealth() async throws {
        guard writer.lastFailure != nil else { return }
        do {
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO settings (name, value) VALUES ('health', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    arguments: [String(WallClock.now())])
            }
        } catch {
            throw StoreError.unavailable("\(path) cannot be written: \(writer.lastFailure ?? "\(error)")")
        }
    }

    /// Waits for the writes in flight, then closes the file (`InstanceServer.run` closes its
    /// store when it stops; a server of your own closes it after its service group). Closing
    /// it again does nothing; a write after it throws ``StoreError/closed``.
    public func close() async throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writer.stop()
        try checkpointer.stop()
        // The log's last commits go into the file, and the log is emptied, so that the file
        // alone holds every commit (a copy of it is a backup): no connection would do it later,
        // as GRDB closes the pool's writer before its readers. A reader that holds the log
        // (busy) leaves it as it is, as durable, for SQLite to read at the next open.
        _ = try? await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
    }

    // MARK: - Reads

    package func instance(_ id: InstanceID) async throws -> StoredInstance? {
        try await pool.read { db in try Self.fetchInstance(db, id) }
    }

    package func instances(machine: String, state: String?, status: StoredInstance.Status?, afterKey: String?, limit: Int) async throws
        -> [StoredInstance]
    {
        try await pool.read { db in
            var sql = "SELECT \(Self.instanceColumns) FROM "
            var arguments: StatementArguments = []
            if let state {
                sql += "active_states s JOIN instances i ON i.machine = s.machine AND i.key = s.key WHERE s.machine = ? AND s.state = ?"
                arguments += [machine, state]
                if let afterKey {
                    sql += " AND s.key > ?"
                    arguments += [afterKey]
                }
            } else {
                sql += "instances i WHERE i.machine = ?"
                arguments += [machine]
                if let afterKey {
                    sql += " AND i.key > ?"
                    arguments += [afterKey]
                }
            }
            if let status {
                sql += " AND i.status = ?"
                arguments += [status.rawValue]
            }
            sql += state == nil ? " ORDER BY i.key LIMIT ?" : " ORDER BY s.key LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Self.instance(from: $0) }
        }
    }

    package func history(_ id: InstanceID, afterSeq: Int, limit: Int) async throws -> [HistoryEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM history WHERE machine = ? AND key = ? AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [id.machine, id.key, afterSeq, limit]
            ).map(Self.entry(from:))
        }
    }

    package func machineHistory(machine: String, afterPosition: Int64, limit: Int) async throws -> [HistoryEntry] {
        // One writer commits in position order: whatever a reader sees is a prefix.
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM history WHERE machine = ? AND position > ? ORDER BY position LIMIT ?",
                arguments: [machine, afterPosition, limit]
            ).map(Self.entry(from:))
        }
    }

    package func lastPosition(machine: String) async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(position) FROM history WHERE machine = ?", arguments: [machine]) ?? 0
        }
    }

    package func definition(fingerprint: String) async throws -> StoredDefinition? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM definitions WHERE fingerprint = ?", arguments: [fingerprint]).map(Self.definition(from:))
        }
    }

    package func definitions(machine: String) async throws -> [StoredDefinition] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM definitions WHERE machine = ?", arguments: [machine]).map(Self.definition(from:))
        }
    }

    /// This process's clock: one process writes the file.
    package func now() async throws -> Int { WallClock.now() }

    package func dueInstances(now: Int, limit: Int) async throws -> [InstanceID] {
        try await pool.read { db in
            var seen = Set<InstanceID>()
            var due: [InstanceID] = []
            for row in try Row.fetchAll(db, sql: "SELECT machine, key FROM timers WHERE due <= ? ORDER BY due LIMIT ?", arguments: [now, limit]) {
                let id = InstanceID(machine: row["machine"], key: row["key"])
                if seen.insert(id).inserted { due.append(id) }
            }
            return due
        }
    }

    package func nextTimerDue() async throws -> Int? {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT min(due) FROM timers") }
    }

    package func counts() async throws -> (instances: Int, timers: Int) {
        try await pool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM instances") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM timers") ?? 0
            )
        }
    }

    // MARK: - Rows

    private static func fetchInstance(_ db: Database, _ id: InstanceID) throws -> StoredInstance? {
        // Read from the statement's row as it stands (`fetchOne` would copy every column first):
        // every input reads its instance.
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT \(instanceColumns) FROM instances i WHERE machine = ? AND key = ?"), arguments: [id.machine, id.key])
        return try withExtendedLifetime(rows) { try rows.next().map(instance(from:)) }
    }

    private static func fetchIdempotency(_ db: Database, machine: String, scope: IdempotencyScope) throws -> IdempotencyRecord? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT request, status, version, location, body, instance_key, expires FROM idempotency WHERE machine = ? AND scope = ? AND idempotency_key = ?"),
            arguments: [machine, scope.scope, scope.key]
        ).map { row in
            IdempotencyRecord(
                request: [UInt8](row[0] as Data), answer: RecordedAnswer(status: row[1], version: row[2], location: row[3], body: [UInt8](row[4] as Data)),
                instanceKey: row[5], expires: row[6])
        }
    }

    /// The columns ``instance(from:)`` reads, by position (a lookup by name compares names).
    private static let instanceColumns = "i.machine, i.key, i.fingerprint, i.status, i.snapshot, i.version, i.created, i.updated"

    private static func instance(from row: Row) throws -> StoredInstance {
        try StoredInstance(
            id: InstanceID(machine: row[0], key: row[1]), fingerprint: row[2], status: StoredInstance.Status(rawValue: row[3]) ?? .running,
            snapshot: row.withUnsafeData(atIndex: 4) { $0.map { [UInt8]($0) } ?? [] }, version: row[5], created: row[6], updated: row[7])
    }

    private static func entry(from row: Row) -> HistoryEntry {
        var entry = HistoryEntry(
            id: InstanceID(machine: row["machine"], key: row["key"]), seq: row["seq"], at: row["at"],
            kind: HistoryEntry.Kind(rawValue: row["kind"]) ?? .input, input: row["input"], argument: row["arg"], timer: row["timer"],
            results: row["results"], stateAfter: row["state_after"])
        entry.position = row["position"]
        return entry
    }

    private static func definition(from row: Row) -> StoredDefinition {
        StoredDefinition(
            fingerprint: row["fingerprint"], machine: row["machine"], format: StoredDefinition.Format(rawValue: row["format"]) ?? .yaml,
            source: [UInt8](row["source"] as Data), stateNames: (row["state_names"] as String).split(separator: "\n").map(String.init))
    }
}
