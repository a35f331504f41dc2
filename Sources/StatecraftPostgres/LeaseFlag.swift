import Synchronization

/// Whether an operation of ``PostgresStore`` has leased its connection: the store's time bound
/// on waiting for the database stops there.
final class LeaseFlag: Sendable {
    private let leased = Mutex(false)

    func set() {
        leased.withLock { $0 = true }
    }

    var isSet: Bool { leased.withLock { $0 } }
}
