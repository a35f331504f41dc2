import GRDB
import Statecraft
import Synchronization

/// The SQLite writer's memory of the instances it wrote last: each one's row and snapshot as
/// its last write gave them, so that the instance's next input neither reads its row nor
/// decodes its snapshot document, and may even run before it reaches the writer
/// (``committed(_:)``).
///
/// What a batch writes is kept only once the batch has committed; a batch rolled back forgets
/// it. Another connection's commit (`smrun instances migrate` beside the server) may change
/// any row: the writer reads `PRAGMA data_version` as each batch begins, and when it has
/// moved, forgets everything. At most ``capacity`` instances are kept, the oldest forgotten
/// first. Every method but ``committed(_:)`` is called on the writer's thread alone.
final class WrittenInstances: @unchecked Sendable {
    /// An instance as its last write left it.
    struct Written: Sendable {
        let instance: StoredInstance
        let snapshot: MachineSnapshot
        /// Which write this is: each write kept gets the next number, so that an equal one
        /// means that nothing was written to the instance since (a version may come again, as
        /// after a delete and a create).
        let write: Int
    }

    /// The committed instances, read from any thread.
    private struct Kept: ~Copyable {
        var byID: [InstanceID: Written] = [:]
        /// The instances in the order they were first kept, the oldest at `next` once full.
        var order: [InstanceID] = []
        var next = 0
    }

    /// How many instances are kept at most.
    let capacity: Int
    private let kept: Mutex<Kept>
    /// The batch's writes, `nil` for an instance deleted or written without its snapshot.
    private var staged: [InstanceID: Written?] = [:]
    /// The number of the last write staged.
    private var writes = 0
    /// `PRAGMA data_version` as the last batch began.
    private var dataVersion: Int?

    init(capacity: Int) {
        self.capacity = capacity
        var kept = Kept()
        kept.byID.reserveCapacity(capacity)
        kept.order.reserveCapacity(capacity)
        self.kept = Mutex(kept)
    }

    /// Begins a batch in `db`'s transaction: forgets everything when another connection has
    /// committed since the last batch began.
    func begin(_ db: Database) throws {
        let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
        if version != dataVersion {
            kept.withLock { kept in
                kept.byID.removeAll(keepingCapacity: true)
                kept.order.removeAll(keepingCapacity: true)
                kept.next = 0
            }
        }
        dataVersion = version
        staged.removeAll(keepingCapacity: true)
    }

    /// Instance `id` as it stands in the batch (its write in the batch, else its last write),
    /// if kept.
    func instance(_ id: InstanceID) -> Written? {
        if let written = staged[id] { return written }
        return kept.withLock { $0.byID[id] }
    }

    /// Instance `id` as the last batch that wrote it committed it, if kept; from any thread.
    /// The writer may have written it again since: compare ``Written/write`` with what
    /// ``instance(_:)`` gives on the writer's thread.
    func committed(_ id: InstanceID) -> Written? {
        kept.withLock { $0.byID[id] }
    }

    /// Keeps `write` once the batch commits (forgets its instance then, without its snapshot).
    /// Called after the write's statements have run, last in its job.
    func stage(_ write: InstanceWrite) {
        writes += 1
        staged[write.instance.id] = write.snapshot.map { Written(instance: write.instance, snapshot: $0, write: writes) }
    }

    /// Forgets instance `id` once the batch commits.
    func stageRemoval(_ id: InstanceID) {
        staged[id] = .some(nil)
    }

    /// The batch committed: keeps what it wrote.
    func commit() {
        guard !staged.isEmpty else { return }
        kept.withLock { kept in
            for (id, written) in staged {
                guard let written else {
                    kept.byID[id] = nil
                    continue
                }
                if kept.byID.updateValue(written, forKey: id) == nil { Self.remember(id, in: &kept, capacity: capacity) }
            }
        }
        staged.removeAll(keepingCapacity: true)
    }

    /// The batch was rolled back: forgets what it wrote.
    func rollBack() {
        staged.removeAll(keepingCapacity: true)
    }

    /// Notes that `id` is newly kept, forgetting the oldest instance when full.
    private static func remember(_ id: InstanceID, in kept: inout Kept, capacity: Int) {
        guard kept.order.count == capacity else {
            kept.order.append(id)
            return
        }
        kept.byID[kept.order[kept.next]] = nil
        kept.order[kept.next] = id
        kept.next = (kept.next + 1) % capacity
    }
}
