import Synchronization

/// Whether an operation of ``PostgresStore`` has leased its connection: the store's time bound
/// on waiting for the database stops there.
final class LeaseFlag: Sendable {
    private let leased = Atomic(false)

    func set() {
        leased.store(true, ordering: .releasing)
    }

    var isSet: Bool { leased.load(ordering: .acquiring) }
}
