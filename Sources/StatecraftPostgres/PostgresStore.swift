import Logging
import PostgresNIO
import ServiceLifecycle
import StatecraftStore
import Synchronization

/// The store on PostgreSQL, for several servers on one database (docs/serving.md, "Scale-out
/// on PostgreSQL"). Every transaction runs at READ COMMITTED on a pooled connection:
///
/// - An instance's transactions take turns: each first takes a transaction advisory lock on
///   the instance's name (which needs no row, so that two creates of one key wait for each
///   other too), then locks its row `FOR UPDATE`, then touches its history, index and timer
///   rows. A create under an idempotency key first locks that key, so that two creates with one
///   key wait for each other whatever keys they name. Locks are always taken in that order.
/// - `now` is the database's `clock_timestamp()`, read once per transaction after the locks.
/// - A serialization failure or a deadlock reruns the transaction (`decide` is pure); a lost
///   connection, no connection within ``timeout``, or a connection on which the database has
///   not answered for ``answerTimeout`` (the store then closes it) is
///   ``StoreError/unavailable(_:)``: the outcome of a write is then unknown.
/// - After its transactions end, a store sends a notification (`NOTIFY statecraft`), at most one
///   every few milliseconds, outside the transactions: the other servers' feeds and timers
///   listen for it (``watchOtherCommits(_:)``) and read the database at once rather than at
///   their next check. A notification is a wake-up only: one that is lost delays a reader, never
///   makes it miss an entry. (A `NOTIFY` inside each transaction would serialize every commit
///   of the database, fsync included, on the lock PostgreSQL takes to queue notifications.)
///
/// Run ``run()`` (the connection pool) for as long as the store is used, in a task or as a
/// service of a ServiceLifecycle group, then call ``open()`` before anything else; or let
/// ``with(_:_:)`` do both around your code.
public final class PostgresStore: InstanceStore, Service, Sendable {
    private let client: PostgresClient
    private let logger: Logger
    // Atomics rather than locks, here and in ``Lease``: every operation touches them, and
    // ThreadSanitizer cannot see a contended `Mutex` handed over (Linux's priority-inheriting
    // futexes pass it on in the kernel), so it would report races that are not there.
    private let closed = Atomic(false)
    /// When the store was made: ``lastLease`` counts from here.
    private let made = ContinuousClock.now
    /// When an operation last leased a connection, in nanoseconds after ``made``: while others
    /// get theirs, a wait for one is a queue, not an outage.
    private let lastLease = Atomic<Int64>(0)
    /// How long one operation may wait for a connection before it is unavailable.
    let timeout: Duration = .seconds(10)
    /// How long one operation may run on its connection (the database's answers, and the locks
    /// it waits for) before the store closes the connection and the operation is unavailable:
    /// a database that stops answering (its host frozen, a network that drops its packets)
    /// leaves the connection open, and its operations would otherwise wait for ever.
    let answerTimeout: Duration
    /// How long a health check may wait, for a connection and for its answer.
    let healthTimeout: Duration = .seconds(2)
    /// Where the store connects (without its password).
    public let location: PostgresLocation
    /// The notification channel, and this store's payload on it: its own notifications are not
    /// news to it.
    private static let channel = "statecraft"
    private let notifier = String(UInt64.random(in: 1...UInt64.max), radix: 36)
    /// A tick after each transaction; ticks that come while one notification is being sent make
    /// one more, not one each.
    private let ended = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    /// The least time between two notifications of this store.
    private let notificationGap: Duration = .milliseconds(5)

    /// A store on the database at `location`; nothing connects until ``run()`` and ``open()``.
    public convenience init(location: PostgresLocation, maximumConnections: Int = 20) {
        self.init(location: location, maximumConnections: maximumConnections, answerTimeout: .seconds(60))
    }

    /// A store whose operations may run on their connections for `answerTimeout`.
    package init(location: PostgresLocation, maximumConnections: Int, answerTimeout: Duration) {
        self.location = location
        self.answerTimeout = answerTimeout
        var configuration = location.clientConfiguration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        var logger = Logger(label: "statecraft.postgres")
        logger.logLevel = .critical
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Runs the connection pool, and sends the notifications that tell other servers of this
    /// one's commits, until the task is cancelled (a ServiceLifecycle service's run).
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.notifyOthers() }
        }
    }

    private func notifyOthers() async {
        for await _ in ended.stream {
            _ = try? await connected(within: timeout, answering: answerTimeout) { [notifier] connection, logger in
                try await connection.openQuery("SELECT pg_notify(\(Self.channel), \(notifier))", logger: logger)
            }
            try? await Task.sleep(for: notificationGap)
        }
    }

    /// Listens for the notifications of the other servers on the database (on a connection of
    /// its own, again after it is lost).
    package func watchOtherCommits(_ wake: @escaping @Sendable () -> Void) async {
        let notifier = notifier
        while !Task.isCancelled {
            _ = try? await client.withConnection { connection in
                try await connection.listen(on: Self.channel) { notifications in
                    wake()
                    for try await notification in notifications where notification.payload != notifier { wake() }
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Connects and brings the schema up to date (safe when several processes start at once).
    public func open() async throws {
        try await firstConnection()
        do {
            // A migration may take long on a big database (an index on the history).
            try await bounded(within: timeout, answering: nil) { [client, logger] lease in
                try await PostgresSchema.migrate(client, logger: logger) { lease.hold($0) }
            }
        } catch let error as PSQLError {
            throw Self.storeError(error, location: location)
        }
    }

    /// Connects once on a connection of its own, so that what stands in the way is named: the
    /// pool retries a failed connection in the background, and tells only that none came. A
    /// database that refuses (a wrong password or user, no such database) is an error at once;
    /// one that cannot be reached (a closed port, a host that does not answer) is tried again
    /// for ``timeout``, and its last error named.
    private func firstConnection() async throws {
        let deadline = ContinuousClock.now + timeout
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try location.connectionConfiguration(connectTimeout: .seconds(5))
        } catch {
            throw StoreError.unreadable("\(location): \(error)")
        }
        while true {
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 0, logger: logger
                ).get()
                try? await connection.close()
                return
            } catch let error as PSQLError {
                let problem = Self.storeError(error, location: location)
                guard case StoreError.unavailable(let message) = problem else { throw problem }
                guard ContinuousClock.now < deadline else {
                    throw StoreError.unavailable("\(message) (no connection within \(timeout.components.seconds) s)")
                }
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// Opens a store on `location`, runs `body` with it, and closes it.
    public static func with<T: Sendable>(_ location: PostgresLocation, _ body: @escaping @Sendable (PostgresStore) async throws -> T)
        async throws -> T
    {
        let store = PostgresStore(location: location)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await store.run()
                return nil
            }
            defer { group.cancelAll() }
            try await store.open()
            let value = try await body(store)
            try await store.close()
            return value
        }
    }

    // MARK: - Writes

    package func transact<Answer: Sendable>(
        _ id: InstanceID, idempotency: IdempotencyScope?,
        _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer {
        try await transaction { connection, logger in
            if let idempotency, idempotency.scope.isEmpty {
                try await connection.openQuery(
                    "SELECT pg_advisory_xact_lock(2, hashtext(\(id.machine) || chr(10) || \(idempotency.key)))", logger: logger)
            }
            try await Self.lock(id, on: connection, logger: logger)
            let instance = try await Self.fetchInstance(id, lock: "FOR UPDATE", on: connection, logger: logger)
            var record: IdempotencyRecord?
            if let idempotency { record = try await Self.fetchIdempotency(id.machine, idempotency, on: connection, logger: logger) }
            let now = try await Self.now(on: connection, logger: logger)
            let output = try decide(TransactionInput(instance: instance, idempotency: record, now: now))
            if let write = output.write { _ = try await Self.apply(write, firstOrdinal: 0, on: connection, logger: logger) }
            if let record = output.idempotency, let idempotency {
                try await connection.openQuery(
                    """
                    INSERT INTO statecraft.idempotency
                    (machine, scope, idempotency_key, instance_key, request, status, version, location, body, expires)
                    VALUES (\(id.machine), \(idempotency.scope), \(idempotency.key), \(record.instanceKey), \(ByteBuffer(bytes: record.request)),
                    \(record.answer.status), \(record.answer.version), \(record.answer.location), \(ByteBuffer(bytes: record.answer.body)),
                    \(record.expires))
                    ON CONFLICT (machine, scope, idempotency_key) DO UPDATE SET instance_key = excluded.instance_key,
                    request = excluded.request, status = excluded.status, version = excluded.version, location = excluded.location,
                    body = excluded.body, expires = excluded.expires
                    """, logger: logger)
            }
            return output.answer
        }
    }

    package func transactUnlessBusy<Answer: Sendable>(
        _ id: InstanceID, _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer? {
        try await transaction { connection, logger in
            var claimed = false
            for try await locked in try await connection.openQuery(
                "SELECT pg_try_advisory_xact_lock(1, hashtext(\(id.machine) || chr(10) || \(id.key)))", logger: logger
            ).decode(Bool.self) {
                claimed = locked
            }
            guard claimed else { return nil }
            let instance = try await Self.fetchInstance(id, lock: "FOR UPDATE SKIP LOCKED", on: connection, logger: logger)
            let now = try await Self.now(on: connection, logger: logger)
            let output = try decide(TransactionInput(instance: instance, idempotency: nil, now: now))
            if let write = output.write { _ = try await Self.apply(write, firstOrdinal: 0, on: connection, logger: logger) }
            return output.answer
        }
    }

    private static func lock(_ id: InstanceID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.openQuery("SELECT pg_advisory_xact_lock(1, hashtext(\(id.machine) || chr(10) || \(id.key)))", logger: logger)
    }

    private static func now(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var now = 0
        for try await value in try await connection.openQuery(
            "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint", logger: logger
        ).decode(Int.self) {
            now = value
        }
        return now
    }

    /// Each instance's transactions take turns as ``transact(_:idempotency:_:)``'s do, so that
    /// a server's send to one of them waits for the batch. A transaction numbers its entries'
    /// positions below 2^20: a batch of more entries is refused before anything is written.
    package func write(_ writes: [InstanceWrite]) async throws {
        let entryCount = writes.reduce(0) { $0 + $1.entries.count }
        guard entryCount < Self.entriesPerTransaction else {
            throw StoreError.unreadable("a batch of \(entryCount) history entries is more than one transaction numbers (\(Self.entriesPerTransaction - 1))")
        }
        try await transaction { (connection, logger) -> Void in
            var ordinal = 0
            for write in writes {
                try await Self.lock(write.instance.id, on: connection, logger: logger)
                ordinal = try await Self.apply(write, firstOrdinal: ordinal, on: connection, logger: logger)
            }
        }
    }

    /// How many history entries one transaction numbers (``machineHistory(machine:afterPosition:limit:)``).
    static let entriesPerTransaction = 1 << 20

    /// Writes `write`, numbering its entries' positions in the transaction from `firstOrdinal`;
    /// returns the ordinal after its last entry.
    private static func apply(_ write: InstanceWrite, firstOrdinal: Int, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let instance = write.instance
        let id = instance.id
        let snapshot = ByteBuffer(bytes: instance.snapshot)
        if write.isNew {
            try await connection.openQuery(
                """
                INSERT INTO statecraft.instances (machine, key, fingerprint, status, snapshot, version, created, updated)
                VALUES (\(id.machine), \(id.key), \(instance.fingerprint), \(instance.status.rawValue), \(snapshot), \(instance.version),
                \(instance.created), \(instance.updated))
                """, logger: logger)
        } else {
            try await connection.openQuery(
                """
                UPDATE statecraft.instances SET fingerprint = \(instance.fingerprint), status = \(instance.status.rawValue),
                snapshot = \(snapshot), version = \(instance.version), created = \(instance.created), updated = \(instance.updated)
                WHERE machine = \(id.machine) AND key = \(id.key)
                """, logger: logger)
        }
        for (offset, entry) in write.entries.enumerated() {
            let ordinal = firstOrdinal + offset
            try await connection.openQuery(
                """
                INSERT INTO statecraft.history (position, machine, key, seq, at, kind, input, arg, timer, results, state_after)
                VALUES ((pg_current_xact_id()::text::bigint << 20) + \(ordinal), \(id.machine), \(id.key), \(entry.seq), \(entry.at),
                \(entry.kind.rawValue), \(entry.input), \(entry.argument), \(entry.timer), \(entry.results), \(entry.stateAfter))
                """, logger: logger)
        }
        if let states = write.activeStates {
            if !write.isNew {
                try await connection.openQuery(
                    "DELETE FROM statecraft.active_states WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            }
            try await connection.openQuery(
                """
                INSERT INTO statecraft.active_states (machine, key, state)
                SELECT \(id.machine), \(id.key), state FROM unnest(\(states)::text[]) AS state ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        if let timers = write.timers {
            if !write.isNew {
                try await connection.openQuery("DELETE FROM statecraft.timers WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            }
            if !timers.isEmpty {
                try await connection.openQuery(
                    """
                    INSERT INTO statecraft.timers (machine, key, n, due, timer)
                    SELECT \(id.machine), \(id.key), n - 1, due, timer
                    FROM unnest(\(timers.map { Int64($0.due) })::bigint[], \(timers.map(\.description))::text[]) WITH ORDINALITY AS t(due, timer, n)
                    """, logger: logger)
            }
        }
        return firstOrdinal + write.entries.count
    }

    package func delete(_ id: InstanceID, expectedVersion: Int?) async throws -> DeleteOutcome {
        try await transaction { connection, logger in
            try await Self.lock(id, on: connection, logger: logger)
            guard let instance = try await Self.fetchInstance(id, lock: "FOR UPDATE", on: connection, logger: logger) else { return .absent }
            if let expectedVersion, expectedVersion != instance.version { return .versionMismatch(current: instance.version) }
            try await connection.openQuery("DELETE FROM statecraft.timers WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            try await connection.openQuery("DELETE FROM statecraft.active_states WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            try await connection.openQuery("DELETE FROM statecraft.history WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            try await connection.openQuery(
                "DELETE FROM statecraft.idempotency WHERE machine = \(id.machine) AND instance_key = \(id.key)", logger: logger)
            try await connection.openQuery("DELETE FROM statecraft.instances WHERE machine = \(id.machine) AND key = \(id.key)", logger: logger)
            return .deleted
        }
    }

    package func saveDefinition(_ definition: StoredDefinition) async throws {
        try await transaction { (connection, logger) -> Void in
            try await connection.openQuery(
                """
                INSERT INTO statecraft.definitions (fingerprint, machine, format, source, state_names)
                VALUES (\(definition.fingerprint), \(definition.machine), \(definition.format.rawValue), \(ByteBuffer(bytes: definition.source)),
                \(definition.stateNames.joined(separator: "\n")))
                ON CONFLICT (fingerprint) DO NOTHING
                """, logger: logger)
        }
    }

    package func removeExpiredIdempotency(now: Int) async throws -> Int {
        try await transaction { connection, logger in
            var removed = 0
            for try await count in try await connection.openQuery(
                "WITH gone AS (DELETE FROM statecraft.idempotency WHERE expires <= \(now) RETURNING 1) SELECT count(*)::bigint FROM gone",
                logger: logger
            ).decode(Int.self) {
                removed = count
            }
            return removed
        }
    }

    package func clock(recording clock: String) async throws -> String {
        try await transaction { connection, logger in
            try await connection.openQuery(
                "INSERT INTO statecraft.settings (name, value) VALUES ('clock', \(clock)) ON CONFLICT (name) DO NOTHING", logger: logger)
            var stored = clock
            for try await value in try await connection.openQuery(
                "SELECT value FROM statecraft.settings WHERE name = 'clock'", logger: logger
            ).decode(String.self) {
                stored = value
            }
            guard stored == clock else { throw StoreError.otherClock(stored: stored, wanted: clock) }
            return stored
        }
    }

    package func logTime(of machine: String) async throws -> Int? {
        try await read { connection, logger in
            var stored: Int?
            for try await value in try await connection.openQuery(
                "SELECT value FROM statecraft.settings WHERE name = \(LogTime.setting(machine))", logger: logger
            ).decode(String.self) {
                stored = Int(value)
            }
            return stored
        }
    }

    package func recordLogTime(_ time: Int, of machine: String) async throws {
        try await transaction { connection, logger in
            _ = try await connection.openQuery(
                """
                INSERT INTO statecraft.settings (name, value) VALUES (\(LogTime.setting(machine)), \(String(time)))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, logger: logger)
        }
    }

    package func recordedClock() async throws -> String? {
        try await read { connection, logger in
            var stored: String?
            for try await value in try await connection.openQuery(
                "SELECT value FROM statecraft.settings WHERE name = 'clock'", logger: logger
            ).decode(String.self) {
                stored = value
            }
            return stored
        }
    }

    /// Refuses new work; the pool closes when ``run()``'s task is cancelled.
    package func close() async throws {
        closed.store(true, ordering: .releasing)
    }

    /// Several servers share the database.
    package var isShared: Bool { true }

    package func checkHealth() async throws {
        try await connected(within: healthTimeout, answering: healthTimeout) { (connection, logger) -> Void in
            for try await _ in try await connection.openQuery("SELECT 1", logger: logger) {}
        }
    }

    // MARK: - Reads

    package func instance(_ id: InstanceID) async throws -> StoredInstance? {
        try await read { connection, logger in try await Self.fetchInstance(id, lock: "", on: connection, logger: logger) }
    }

    package func instances(machine: String, state: String?, status: StoredInstance.Status?, afterKey: String?, limit: Int) async throws
        -> [StoredInstance]
    {
        try await read { connection, logger in
            let query: PostgresQuery
            if let state {
                query = """
                    SELECT \(unescaped: Self.instanceColumns) FROM statecraft.active_states s
                    JOIN statecraft.instances i ON i.machine = s.machine AND i.key = s.key
                    WHERE s.machine = \(machine) AND s.state = \(state) AND (\(afterKey)::text IS NULL OR s.key > \(afterKey))
                    AND (\(status?.rawValue)::text IS NULL OR i.status = \(status?.rawValue)) ORDER BY s.key LIMIT \(limit)
                    """
            } else {
                query = """
                    SELECT \(unescaped: Self.instanceColumns) FROM statecraft.instances i
                    WHERE i.machine = \(machine) AND (\(afterKey)::text IS NULL OR i.key > \(afterKey))
                    AND (\(status?.rawValue)::text IS NULL OR i.status = \(status?.rawValue)) ORDER BY i.key LIMIT \(limit)
                    """
            }
            var found: [StoredInstance] = []
            for try await row in try await connection.openQuery(query, logger: logger) { found.append(try Self.instance(from: row)) }
            return found
        }
    }

    package func history(_ id: InstanceID, afterSeq: Int, limit: Int) async throws -> [HistoryEntry] {
        try await read { connection, logger in
            try await Self.entries(
                """
                SELECT \(unescaped: Self.entryColumns) FROM statecraft.history
                WHERE machine = \(id.machine) AND key = \(id.key) AND seq > \(afterSeq) ORDER BY seq LIMIT \(limit)
                """, on: connection, logger: logger)
        }
    }

    /// A machine's entries after `afterPosition`, by position, among those written by a
    /// transaction older than every transaction still open.
    ///
    /// Positions are numbered by the writing transaction's id (`pg_current_xact_id()`, times
    /// 2^20, plus the entry's place in it), and transactions commit in any order: an entry may
    /// commit after one with a higher position. A reader that took that higher position as its
    /// cursor would skip it. So the feed reads only the entries of transactions below
    /// `pg_snapshot_xmin(pg_current_snapshot())`: every such transaction has ended, so no entry
    /// below that bound can still appear, and whatever commits later has a higher position than
    /// anything read. The cursor is monotonic and skips nothing, and writers never wait for each
    /// other. An instance's entries keep their order: its transactions take its lock before
    /// they get an id. The cost: an entry shows once every transaction older than it has ended,
    /// so a transaction left open anywhere on the database server holds every feed back.
    package func machineHistory(machine: String, afterPosition: Int64, limit: Int) async throws -> [HistoryEntry] {
        try await read { connection, logger in
            try await Self.entries(
                """
                SELECT \(unescaped: Self.entryColumns) FROM statecraft.history
                WHERE machine = \(machine) AND position > \(afterPosition)
                AND position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 20) ORDER BY position LIMIT \(limit)
                """, on: connection, logger: logger)
        }
    }

    package func lastPosition(machine: String) async throws -> Int64 {
        try await read { connection, logger in
            var last: Int64 = 0
            for try await position in try await connection.openQuery(
                """
                SELECT coalesce(max(position), 0) FROM statecraft.history
                WHERE machine = \(machine) AND position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 20)
                """, logger: logger
            ).decode(Int64.self) {
                last = position
            }
            return last
        }
    }

    package func definition(fingerprint: String) async throws -> StoredDefinition? {
        try await read { connection, logger in
            try await Self.definitions("SELECT \(unescaped: Self.definitionColumns) FROM statecraft.definitions WHERE fingerprint = \(fingerprint)", on: connection, logger: logger).first
        }
    }

    package func definitions(machine: String) async throws -> [StoredDefinition] {
        try await read { connection, logger in
            try await Self.definitions(
                "SELECT \(unescaped: Self.definitionColumns) FROM statecraft.definitions WHERE machine = \(machine) ORDER BY fingerprint",
                on: connection, logger: logger)
        }
    }

    /// The database's clock, as each transaction reads it: servers' clocks may differ.
    package func now() async throws -> Int {
        try await read { connection, logger in try await Self.now(on: connection, logger: logger) }
    }

    /// The candidates: the firing transaction claims each (``transactUnlessBusy(_:_:)``). Due by
    /// `now` (the timers pass ``now()``) and by the database's clock as the query runs, so that
    /// no timer is found that is not due for the transaction that fires it.
    package func dueInstances(now: Int, limit: Int) async throws -> [InstanceID] {
        try await read { connection, logger in
            var seen = Set<InstanceID>()
            var due: [InstanceID] = []
            for try await (machine, key) in try await connection.openQuery(
                """
                SELECT machine, key FROM statecraft.timers
                WHERE due <= least(\(now), (extract(epoch FROM clock_timestamp()) * 1000)::bigint) ORDER BY due LIMIT \(limit)
                """, logger: logger
            ).decode((String, String).self) {
                let id = InstanceID(machine: machine, key: key)
                if seen.insert(id).inserted { due.append(id) }
            }
            return due
        }
    }

    package func nextTimerDue() async throws -> Int? {
        try await read { connection, logger in
            var next: Int?
            for try await due in try await connection.openQuery("SELECT min(due) FROM statecraft.timers", logger: logger).decode(Int?.self) {
                next = due
            }
            return next
        }
    }

    package func counts() async throws -> (instances: Int, timers: Int) {
        try await read { connection, logger in
            var counts = (instances: 0, timers: 0)
            for try await (instances, timers) in try await connection.openQuery(
                "SELECT (SELECT count(*) FROM statecraft.instances)::bigint, (SELECT count(*) FROM statecraft.timers)::bigint", logger: logger
            ).decode((Int, Int).self) {
                counts = (instances, timers)
            }
            return counts
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction, again after a serialization failure or a deadlock.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await connected(within: timeout, answering: answerTimeout) { connection, logger in
                    try await connection.openQuery("BEGIN", logger: logger)
                    // Committed or not, its end may let a feed of another server show more.
                    defer { self.ended.continuation.yield() }
                    do {
                        let value = try await body(connection, logger)
                        try await connection.openQuery("COMMIT", logger: logger)
                        return value
                    } catch {
                        _ = try? await connection.openQuery("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch let error as PSQLError where Self.mayRetry(error) && attempt < 50 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// Runs `body` on a connection of its own, out of any transaction.
    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await connected(within: timeout, answering: answerTimeout, body)
    }

    private func connected<T: Sendable>(
        within timeout: Duration, answering answerTimeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        guard !closed.load(ordering: .acquiring) else { throw StoreError.closed }
        do {
            return try await bounded(within: timeout, answering: answerTimeout) { [client, logger] lease in
                try await client.withConnection { connection in
                    lease.hold(connection)
                    self.lastLease.store(Self.nanoseconds(.now - self.made), ordering: .relaxed)
                    return try await body(connection, logger)
                }
            }
        } catch let error as PSQLError where !Self.mayRetry(error) {
            throw Self.storeError(error, location: location)
        }
    }

    /// `body`, or ``StoreError/unavailable(_:)`` when it has not leased a connection and no
    /// other operation has either for `timeout` (the pool waits for a connection while the
    /// database is away), or when it has held its connection for `answerTimeout` (when given):
    /// the connection is then closed, which ends what `body` waits for on it. `body` tells the
    /// lease it is given when it has its connection. Only time in which this process ran counts
    /// towards either bound (``RunningTime``): while its threads are all busy with other work or
    /// the machine is overloaded, nothing of its own gets a connection or reads an answer
    /// either, and that says nothing of the database.
    private func bounded<T: Sendable>(
        within timeout: Duration, answering answerTimeout: Duration?, _ body: @escaping @Sendable (Lease) async throws -> T
    ) async throws -> T {
        let location = location
        let lease = Lease()
        let unanswered: @Sendable (Duration) -> StoreError = { limit in
            StoreError.unavailable("\(location) did not answer within \(limit.components.seconds) s: its connection is closed")
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body(lease) }
            group.addTask {
                // Wakes every second, to count the time this process ran: while `body` waits
                // for its connection, then while it holds it.
                let step = min(timeout, answerTimeout ?? timeout, .seconds(1))
                var waited = RunningTime(from: .now)
                var held: RunningTime? = nil
                var wake = ContinuousClock.now + step
                while true {
                    try await Task.sleep(until: wake)
                    let now = ContinuousClock.now
                    if let holding = lease.held {
                        guard let answerTimeout else {
                            wake = now + .seconds(3600)
                            continue
                        }
                        var counting = held ?? RunningTime(from: holding.since)
                        counting.woke(at: now, planned: wake)
                        held = counting
                        if counting.counted >= answerTimeout {
                            lease.giveUp()
                            let _: EventLoopFuture<Void> = holding.connection.close()
                            throw unanswered(answerTimeout)
                        }
                        wake = now + min(answerTimeout - counting.counted, step)
                    } else {
                        waited.woke(at: now, planned: wake)
                        // Another operation that had a connection since: this one waits in a
                        // queue. (One before it began leaves the count as it is.)
                        waited.restart(since: self.made + .nanoseconds(self.lastLease.load(ordering: .relaxed)), now: now)
                        if waited.counted >= timeout { return nil }
                        wake = now + min(timeout - waited.counted, step)
                    }
                }
            }
            defer { group.cancelAll() }
            let value: T?
            do {
                value = try await group.next() ?? nil
            } catch where lease.isGivenUp {
                // The operation may end first, with the error of the connection closed under it.
                throw unanswered(answerTimeout ?? timeout)
            }
            guard let value else {
                throw StoreError.unavailable("\(location) gave no connection within \(timeout.components.seconds) s")
            }
            return value
        }
    }

    /// `duration` in whole nanoseconds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Whether the transaction failed only because of another (SQLSTATE 40001, 40P01).
    private static func mayRetry(_ error: PSQLError) -> Bool {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// A lost connection (or a server shutting down) is the store being unavailable; the
    /// server's other errors are reported as they are.
    private static func storeError(_ error: PSQLError, location: PostgresLocation) -> Error {
        guard error.code == .server else {
            return StoreError.unavailable("cannot reach \(location): \(error.underlying.map { "\($0)" } ?? "\(error.code)")")
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "\(error)"
        if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
            return StoreError.unavailable("\(location): \(message)")
        }
        if state == "3D000" || state == "28000" || state == "28P01" {
            return StoreError.unreadable("\(location): \(message)")
        }
        return StoreError.unreadable("\(location): \(message) (SQLSTATE \(state))")
    }

    // MARK: - Rows

    private static let instanceColumns = "i.machine, i.key, i.fingerprint, i.status, i.snapshot, i.version, i.created, i.updated"
    private static let entryColumns = "position, machine, key, seq, at, kind, input, arg, timer, results, state_after"
    private static let definitionColumns = "fingerprint, machine, format, source, state_names"

    private static func fetchInstance(_ id: InstanceID, lock: String, on connection: PostgresConnection, logger: Logger) async throws
        -> StoredInstance?
    {
        var found: StoredInstance?
        for try await row in try await connection.openQuery(
            "SELECT \(unescaped: instanceColumns) FROM statecraft.instances i WHERE machine = \(id.machine) AND key = \(id.key) \(unescaped: lock)",
            logger: logger)
        {
            found = try instance(from: row)
        }
        return found
    }

    private static func fetchIdempotency(_ machine: String, _ scope: IdempotencyScope, on connection: PostgresConnection, logger: Logger)
        async throws -> IdempotencyRecord?
    {
        var found: IdempotencyRecord?
        for try await (request, status, version, location, body, instanceKey, expires) in try await connection.openQuery(
            """
            SELECT request, status, version, location, body, instance_key, expires FROM statecraft.idempotency
            WHERE machine = \(machine) AND scope = \(scope.scope) AND idempotency_key = \(scope.key)
            """, logger: logger
        ).decode((ByteBuffer, Int, Int?, String?, ByteBuffer, String, Int).self) {
            found = IdempotencyRecord(
                request: Array(request.readableBytesView),
                answer: RecordedAnswer(status: status, version: version, location: location, body: Array(body.readableBytesView)),
                instanceKey: instanceKey, expires: expires)
        }
        return found
    }

    private static func instance(from row: PostgresRow) throws -> StoredInstance {
        let (machine, key, fingerprint, status, snapshot, version, created, updated) = try row.decode(
            (String, String, String, String, ByteBuffer, Int, Int, Int).self)
        return StoredInstance(
            id: InstanceID(machine: machine, key: key), fingerprint: fingerprint, status: StoredInstance.Status(rawValue: status) ?? .running,
            snapshot: Array(snapshot.readableBytesView), version: version, created: created, updated: updated)
    }

    private static func entries(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for try await (position, machine, key, seq, at, kind, input, argument, timer, results, stateAfter) in try await connection.openQuery(
            query, logger: logger
        ).decode((Int64, String, String, Int, Int, String, String?, String?, String?, String, String?).self) {
            var entry = HistoryEntry(
                id: InstanceID(machine: machine, key: key), seq: seq, at: at, kind: HistoryEntry.Kind(rawValue: kind) ?? .input, input: input,
                argument: argument, timer: timer, results: results, stateAfter: stateAfter)
            entry.position = position
            entries.append(entry)
        }
        return entries
    }

    private static func definitions(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [StoredDefinition] {
        var found: [StoredDefinition] = []
        for try await (fingerprint, machine, format, source, stateNames) in try await connection.openQuery(query, logger: logger)
            .decode((String, String, String, ByteBuffer, String).self)
        {
            found.append(
                StoredDefinition(
                    fingerprint: fingerprint, machine: machine, format: StoredDefinition.Format(rawValue: format) ?? .yaml,
                    source: Array(source.readableBytesView), stateNames: stateNames.split(separator: "\n").map(String.init)))
        }
        return found
    }
}
