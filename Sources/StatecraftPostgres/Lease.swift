import PostgresNIO
import Synchronization

/// Where an operation of ``PostgresStore`` stands: waiting for a connection, holding one since
/// some time, or given up on. The store's watch bounds the first two: the wait by
/// ``PostgresStore/timeout``, the holding by ``PostgresStore/answerTimeout``, after which it
/// gives the operation up and closes its connection.
final class Lease: Sendable {
    // Atomics rather than a lock, as the store's own flags (PostgresStore says why): the
    // connection is written once, before `heldAt` is released, and read only after it is
    // acquired.
    private let made = ContinuousClock.now
    /// When the connection was had, in nanoseconds after ``made``; -1 until then.
    private let heldAt = Atomic<Int64>(-1)
    private nonisolated(unsafe) var connection: PostgresConnection?
    private let givenUp = Atomic(false)

    /// The operation has its connection, from now on.
    func hold(_ connection: PostgresConnection) {
        self.connection = connection
        heldAt.store(PostgresStore.nanoseconds(.now - made), ordering: .releasing)
    }

    /// The connection held and since when; `nil` while the operation waits for one.
    var held: (connection: PostgresConnection, since: ContinuousClock.Instant)? {
        let at = heldAt.load(ordering: .acquiring)
        guard at >= 0, let connection else { return nil }
        return (connection, made + .nanoseconds(at))
    }

    /// Gives the operation up (its connection is about to be closed): whatever error it then
    /// ends with comes from that.
    func giveUp() {
        givenUp.store(true, ordering: .releasing)
    }

    var isGivenUp: Bool { givenUp.load(ordering: .acquiring) }
}
