import Foundation
import GRDB
import Synchronization

/// Copies the store's write-ahead log back into its file in the background, on a connection
/// and a thread of its own, so that the writer seldom does it.
///
/// A checkpoint copies the committed pages into the file and syncs it; the log starts again
/// only when the writer begins a transaction with all of it copied. Left to itself, SQLite
/// checkpoints inside the writer's commit once the log holds 1,000 pages, while every input
/// behind the writer waits (round 24 of docs/performance.md: p99 21 to 24 ms with that, 13 to
/// 14 ms with none). Here a round of passive checkpoints (which never wait for the writer, nor
/// make it wait) runs soon after commits, at most every 20 ms, each pass copying what was
/// committed during the one before. After a round that copied a log of 1,000 pages or more,
/// the writer copies what is left between two batches (``takeRestartRequest()``), its answers
/// already out, and its next commit starts the log again (round 35: p99 some 1 ms lower).
/// SQLite's own checkpoint in the commit waits for 4,000 pages, for a log that the rounds do not
/// catch up with. A checkpoint syncs the log before it copies and the file after, so
/// durability is as without it.
final class WALCheckpointer: @unchecked Sendable {
    private let connection: DatabaseQueue
    private let condition = NSCondition()
    private var committed = false
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    /// Whether the writer should copy what is left between its next two batches.
    private let restartWanted = Atomic<Bool>(false)
    /// The shortest time between two rounds of checkpoints.
    private static let interval = 0.02
    /// The log's length, in pages, from which the writer is asked to start it again (SQLite's
    /// own default for its checkpoint in the commit).
    private static let restartPages = 1_000
    /// The log's length, in pages, at which SQLite's own checkpoint runs in the writer's commit:
    /// for a log that the rounds do not catch up with.
    static let writerCheckpointPages = 4_000
    /// A pass that found at most this many pages committed since the one before ends the round.
    private static let smallRemainder = 64
    /// Passes in one round, each copying what was committed during the one before.
    private static let passesPerRound = 4

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

    /// Whether the writer should now copy what is left of the log (a passive checkpoint on its
    /// own connection, between two batches), so that its next commit starts the log again;
    /// asked once per request.
    func takeRestartRequest() -> Bool {
        restartWanted.exchange(false, ordering: .acquiringAndReleasing)
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
            checkpointRound()
            Thread.sleep(forTimeInterval: Self.interval)
        }
    }

    /// Passive checkpoints, one after another, each copying what was committed during the one
    /// before, until one finds little new (or the round's last pass), after which the writer is
    /// asked to copy the rest when the log is long enough. A round ends early when a pass cannot
    /// copy the whole log (a reader still needs the pages it would overwrite) or fails (the
    /// writer's own checkpoint is left to do it, as without this thread).
    private func checkpointRound() {
        var copiedBefore: Int?
        for pass in 1...Self.passesPerRound {
            guard let (pages, copied) = try? connection.writeWithoutTransaction({ db in try db.checkpoint(.passive) }), copied == pages
            else { return }
            // Fewer pages than before: the log started again in between.
            let littleNew = copiedBefore.map { pages >= $0 && pages - $0 <= Self.smallRemainder } ?? false
            if littleNew || pass == Self.passesPerRound {
                if pages >= Self.restartPages { restartWanted.store(true, ordering: .releasing) }
                return
            }
            copiedBefore = pages
        }
    }
}
