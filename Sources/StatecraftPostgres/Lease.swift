import Foundation
import PostgresNIO

/// Where an operation of ``PostgresStore`` stands: waiting for a connection, holding one since
/// some time, or given up on. The store's watch bounds the first two: the wait by
/// ``PostgresStore/timeout``, the holding by ``PostgresStore/answerTimeout``, after which it
/// gives the operation up and closes its connection.
final class Lease: @unchecked Sendable {
    // A lock that the thread sanitizer sees handed over (a pthread mutex, unlike `Mutex`'s
    // futex), taken once by the operation and once by each wake of its watch.
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var since = ContinuousClock.now
    private var givenUp = false

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

    /// Gives the operation up (its connection is about to be closed): whatever error it then
    /// ends with comes from that.
    func giveUp() {
        lock.withLock { givenUp = true }
    }

    var isGivenUp: Bool { lock.withLock { givenUp } }
}
