import Statecraft

/// Where durable instances live: SQLite embedded in one server (``SQLiteStore``), or a
/// database that several servers share. The store serializes the inputs of one instance and
/// commits each input's writes atomically; nothing in it assumes one process.
package protocol InstanceStore: Sendable {
    /// Runs one input's transaction on instance `id`: locks it, reads it and the idempotency
    /// record under `idempotency` (if any), hands both to `decide` with the store's clock, and
    /// writes what `decide` returns, atomically. Returns once the writes are durable; a
    /// `decide` that throws writes nothing and its error is rethrown.
    func transact<Answer: Sendable>(
        _ id: InstanceID, idempotency: IdempotencyScope?,
        _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer

    /// As ``transact(_:idempotency:_:)`` without an idempotency key, for work that any process
    /// may do (firing due timers): when another transaction holds the instance, returns `nil`
    /// at once, without running `decide`.
    func transactUnlessBusy<Answer: Sendable>(
        _ id: InstanceID, _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<Answer>
    ) async throws -> Answer?

    /// Writes several instances' rows and history entries (``InstanceWrite``, at most one per
    /// instance) in one transaction, without reading them first: for a writer that holds its
    /// instances itself, such as `smrun run --by-key --store`, which gathers many inputs per
    /// commit. Returns once the writes are durable; when it throws, none of them is stored.
    /// Each entry's seq must follow the stored ones: a seq an instance has already is refused.
    func write(_ writes: [InstanceWrite]) async throws

    /// Deletes an instance with its history, timers and idempotency records, if its version is
    /// `expectedVersion` (when given).
    func delete(_ id: InstanceID, expectedVersion: Int?) async throws -> DeleteOutcome

    func instance(_ id: InstanceID) async throws -> StoredInstance?
    /// A page of a machine's instances ordered by key, after `afterKey`: those in `state`
    /// (active, or an ancestor of an active state) and of `status`, when given.
    func instances(machine: String, state: String?, status: StoredInstance.Status?, afterKey: String?, limit: Int) async throws
        -> [StoredInstance]
    /// An instance's history entries after seq `afterSeq`, oldest first.
    func history(_ id: InstanceID, afterSeq: Int, limit: Int) async throws -> [HistoryEntry]
    /// A machine's history entries of every instance, in commit order, after `afterPosition`
    /// (``HistoryEntry/position``), up to what every writer has committed.
    func machineHistory(machine: String, afterPosition: Int64, limit: Int) async throws -> [HistoryEntry]
    /// The position of the last entry of `machine` committed (0 when none): where a feed that
    /// starts now begins.
    func lastPosition(machine: String) async throws -> Int64

    /// Keeps a definition's source (once per fingerprint).
    func saveDefinition(_ definition: StoredDefinition) async throws
    func definition(fingerprint: String) async throws -> StoredDefinition?
    func definitions(machine: String) async throws -> [StoredDefinition]

    /// The store's clock, in milliseconds since the Unix epoch: the one each transaction's
    /// ``TransactionInput/now`` reads (the database's, for a store that several servers share),
    /// by which timers are due.
    func now() async throws -> Int
    /// Instances with a timer due by `now`, the earliest due first, at most `limit`.
    func dueInstances(now: Int, limit: Int) async throws -> [InstanceID]
    /// When the earliest pending timer of any instance is due, or `nil`.
    func nextTimerDue() async throws -> Int?
    /// Drops idempotency records that expired by `now`; how many.
    func removeExpiredIdempotency(now: Int) async throws -> Int
    /// How many instances there are and how many timers are pending (for metrics).
    func counts() async throws -> (instances: Int, timers: Int)

    /// Records which clock the store's instances run on (`real` or `virtual`, as `smrun serve
    /// --clock` names them) when the store has none recorded yet, and returns it. A store that
    /// recorded the other clock refuses (``StoreError/otherClock(stored:wanted:)``).
    func clock(recording clock: String) async throws -> String
    /// The clock the store's instances run on, or `nil` when none has been recorded yet.
    func recordedClock() async throws -> String?
    /// Where the keyed logs of `machine` (`smrun run --by-key --store`) left the virtual
    /// clock, or `nil` when none was recorded.
    func logTime(of machine: String) async throws -> Int?
    /// Records that a keyed log of `machine` moved the virtual clock to `time`.
    func recordLogTime(_ time: Int, of machine: String) async throws

    /// Whether other processes (servers) write to the store too: this one then hears of their
    /// commits from ``watchOtherCommits(_:)``, or by reading it again.
    var isShared: Bool { get }

    /// Calls `wake` soon after other processes' transactions on the store end, until the task
    /// is cancelled; also once it starts listening, and again after each reconnection, since
    /// commits may have gone unheard meanwhile. A wake-up only, which may come late or, rarely,
    /// not at all: whoever it wakes reads the store.
    func watchOtherCommits(_ wake: @escaping @Sendable () -> Void) async

    /// Throws ``StoreError/unavailable(_:)`` when the store cannot be reached or written now.
    func checkHealth() async throws

    /// Finishes the writes in flight and closes the store.
    func close() async throws
}

/// Where an idempotency key applies: a machine's creates (`scope` empty) or one instance's
/// sends (`scope` is its key).
package struct IdempotencyScope: Sendable, Hashable {
    package var scope: String
    package var key: String

    package init(scope: String, key: String) {
        self.scope = scope
        self.key = key
    }
}

/// What a transaction found, for its `decide` step.
package struct TransactionInput: Sendable {
    package var instance: StoredInstance?
    /// The instance's snapshot as the write that stored it gave it (``InstanceWrite/snapshot``),
    /// when the store kept it (the SQLite store's writer keeps those it wrote lately); else
    /// `nil`, and `decide` decodes ``StoredInstance/snapshot``.
    package var snapshot: MachineSnapshot?
    package var idempotency: IdempotencyRecord?
    /// The store's clock, in milliseconds since the Unix epoch: one reading per transaction.
    package var now: Int

    package init(instance: StoredInstance?, snapshot: MachineSnapshot? = nil, idempotency: IdempotencyRecord?, now: Int) {
        self.instance = instance
        self.snapshot = snapshot
        self.idempotency = idempotency
        self.now = now
    }
}

/// What a transaction writes, and what it answers.
package struct TransactionOutput<Answer: Sendable>: Sendable {
    package var write: InstanceWrite?
    /// An answer to keep under the request's idempotency key.
    package var idempotency: IdempotencyRecord?
    package var answer: Answer

    package init(write: InstanceWrite? = nil, idempotency: IdempotencyRecord? = nil, answer: Answer) {
        self.write = write
        self.idempotency = idempotency
        self.answer = answer
    }
}

/// An instance's new row, its new history entries, and what changed in its index rows.
package struct InstanceWrite: Sendable {
    package var instance: StoredInstance
    /// Whether the row is new (a create), else it replaces the one read.
    package var isNew: Bool
    package var entries: [HistoryEntry]
    /// The active states and their ancestors, when they changed.
    package var activeStates: [String]?
    /// The active states the stored row had, when known (a store may then delete and insert
    /// only the rows that differ; else it rewrites them all).
    package var activeStatesBefore: [String]?
    /// The pending timers, when they changed.
    package var timers: [PendingTimer]?
    /// The snapshot that `instance.snapshot` encodes, as decoding it gives it back
    /// (``SnapshotCodec/readBack(_:)``), when the writer has it: a store may keep it, and hand
    /// it to the instance's next transaction (``TransactionInput/snapshot``).
    package var snapshot: MachineSnapshot?

    package init(
        instance: StoredInstance, isNew: Bool, entries: [HistoryEntry], activeStates: [String]?, timers: [PendingTimer]?,
        snapshot: MachineSnapshot? = nil
    ) {
        self.instance = instance
        self.isNew = isNew
        self.entries = entries
        self.activeStates = activeStates
        self.timers = timers
        self.snapshot = snapshot
    }
}

/// A pending timer of an instance: when it is due, and how the snapshot lists it (JSON).
package struct PendingTimer: Sendable, Equatable {
    package var due: Int
    package var description: String

    package init(due: Int, description: String) {
        self.due = due
        self.description = description
    }
}

/// How a delete ended.
package enum DeleteOutcome: Sendable, Equatable {
    case deleted
    case absent
    /// The instance is at another version than the one expected.
    case versionMismatch(current: Int)
}
