import GRDB
import Statecraft

/// The SQLite writer's memory of the instances it wrote last: each one's row and snapshot as
/// its last write gave them, so that the instance's next input neither reads its row nor
/// decodes its snapshot document. Used on the writer's thread alone.
///
/// What a batch writes is kept only once the batch has committed; a batch rolled back forgets
/// it. Another connection's commit (`smrun instances migrate` beside the server) may change
/// any row: the writer reads `PRAGMA data_version` as each batch begins, and when it has
/// moved, forgets everything. At most ``capacity`` instances are kept, the oldest forgotten
/// first.
final class WrittenInstances: @unchecked Sendable {
    /// An instance as its last write left it.
    struct Written {
        let instance: StoredInstance
        let snapshot: MachineSnapshot
    }

    /// How many instances are kept at most.
    let capacity: Int
    private var kept: [InstanceID: Written] = [:]
    /// The batch's writes, `nil` for an instance deleted or written without its snapshot.
    private var staged: [InstanceID: Written?] = [:]
    /// The instances in the order they were first kept, the oldest at `next` once full.
    private var order: [InstanceID] = []
    private var next = 0
    /// `PRAGMA data_version` as the last batch began.
    private var dataVersion: Int?

    init(capacity: Int) {
        self.capacity = capacity
        kept.reserveCapacity(capacity)
        order.reserveCapacity(capacity)
    }

    /// Begins a batch in `db`'s transaction: forgets everything when another connection has
    /// committed since the last batch began.
    func begin(_ db: Database) throws {
        let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
        if version != dataVersion {
            kept.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            next = 0
        }
        dataVersion = version
        staged.removeAll(keepingCapacity: true)
    }

    /// Instance `id` as it stands in the batch (its write in the batch, else its last write),
    /// if kept.
    func instance(_ id: InstanceID) -> Written? {
        if let written = staged[id] { return written }
        return kept[id]
    }

    /// Keeps `write` once the batch commits (forgets its instance then, without its snapshot).
    /// Called after the write's statements have run, last in its job.
    func stage(_ write: InstanceWrite) {
        staged[write.instance.id] = write.snapshot.map { Written(instance: write.instance, snapshot: $0) }
    }

    /// Forgets instance `id` once the batch commits.
    func stageRemoval(_ id: InstanceID) {
        staged[id] = .some(nil)
    }

    /// The batch committed: keeps what it wrote.
    func commit() {
        for (id, written) in staged {
            guard let written else {
                kept[id] = nil
                continue
            }
            if kept.updateValue(written, forKey: id) == nil { remember(id) }
        }
        staged.removeAll(keepingCapacity: true)
    }

    /// The batch was rolled back: forgets what it wrote.
    func rollBack() {
        staged.removeAll(keepingCapacity: true)
    }

    /// Notes that `id` is newly kept, forgetting the oldest instance when full.
    private func remember(_ id: InstanceID) {
        guard order.count == capacity else {
            order.append(id)
            return
        }
        kept[order[next]] = nil
        order[next] = id
        next = (next + 1) % capacity
    }
}
