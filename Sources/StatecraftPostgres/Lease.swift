import Foundation
import PostgresNIO

/// Where an operation of ``PostgresStore`` stands: waiting for a connection, or holding one
/// since some time. The store's watch bounds both: the wait by ``PostgresStore/timeout``, the
/// holding by ``PostgresStore/answerTimeout``, after which it closes the connection.
final class Lease: @unchecked Sendable {
    // A lock that the thread sanitizer sees handed over (a pthread mutex, unlike `Mutex`'s
    // futex), taken once by the operation and once by each wake of its watch.
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var since = ContinuousClock.now

    /// The operation has its connection, from now on.
    func hold(_ connection: PostgresConnection) {
        lock.withLock {
            self.connection = connection
            since = .now
        }
    }

    /// The connection held and since when; `nil` while the operation waits for one.
    var held: (connection: PostgresConnection, since: ContinuousClock.Instant)? {
        lock.withLock { connection.map { ($0, since) } }
    }
}
