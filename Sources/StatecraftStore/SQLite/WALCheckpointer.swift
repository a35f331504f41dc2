import Foundation
import GRDB

/// Copies the store's write-ahead log back into its file in the background, on a connection
/// and a thread of its own, so that the writer seldom does it in its commits.
///
/// SQLite checkpoints when a commit leaves more than 1,000 pages in the log, inside that
/// commit: the writer then copies some 4 MB into the file and syncs it while every input
/// waiting behind it waits too, several times a second under load (round 24 of
/// docs/performance.md: p99 21 to 24 ms with them, 13 to 14 ms with none). This checkpointer
/// copies what the commits wrote soon after them, at most every 20 ms, in passive mode (it
/// never waits for the writer, nor makes it wait); what the writer's own checkpoint still
/// finds to copy is the little committed since, and it resets the log as before. A checkpoint
/// syncs the log before it copies and the file after, so durability is as without it.
final class WALCheckpointer: @unchecked Sendable {
    private let connection: DatabaseQueue
    private let condition = NSCondition()
    private var committed = false
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    /// The shortest time between two checkpoints.
    private static let interval = 0.02

    /// Starts checkpointing the store at `path`, whose log is already in WAL mode.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
        // The thread keeps the checkpointer until `stop()`.
        let thread = Thread {
            Thread.current.name = "wal-checkpoint"
            self.loop()
        }
        thread.start()
    }

    /// Tells the checkpointer that a transaction committed.
    func noteCommit() {
        condition.lock()
        committed = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread (after the checkpoint under way, if any) and closes its connection.
    func stop() throws {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        stopped.wait()
        try connection.close()
    }

    private func loop() {
        while true {
            condition.lock()
            while !committed && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                stopped.signal()
                return
            }
            committed = false
            condition.unlock()
            // A failed checkpoint leaves the log to the writer's own, as without this thread.
            _ = try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            Thread.sleep(forTimeInterval: Self.interval)
        }
    }
}
