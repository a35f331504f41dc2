import Foundation
import GRDB
import Synchronization

/// The SQLite store's one writer: a thread of its own that takes every write waiting, runs
/// them in one transaction, commits it (one sync of the disk for all of them, as
/// `synchronous=FULL` asks), and only then answers each. A write may run twice: a write that
/// throws rolls back the whole transaction, which runs again with a savepoint per write, so
/// that it alone is undone and the others commit. Between two batches, when the checkpointer
/// asks, it copies what is left of the log into the file, so that its next commit starts the
/// log again (``WALCheckpointer``).
final class GroupCommitWriter: @unchecked Sendable {
    /// A write: it runs in the batch's transaction (in a savepoint of its own when the batch
    /// runs again after a write threw), and is answered after the commit.
    private struct Job {
        let run: (Database) throws -> Void
        let finish: (Error?) -> Void
    }

    private let pool: DatabasePool
    /// The store's file, named in SQLite's errors.
    private let path: String
    /// What the batches wrote, kept for the next ones; used on this writer's thread alone.
    let written: WrittenInstances
    private let checkpointer: WALCheckpointer
    /// Why the last transaction failed as a whole (the disk full, say), until one commits.
    private let failure = Mutex<String?>(nil)
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var stopping = false
    private var thread: Thread?
    private let stopped = DispatchSemaphore(value: 0)
    /// How many writes share a transaction at most.
    private static let batchLimit = 512

    /// A writer on `pool`'s writing connection (the file at `path`), which keeps up to `keeping`
    /// instances it wrote (``WrittenInstances``) and tells `checkpointer` of each commit.
    init(pool: DatabasePool, path: String, keeping: Int, checkpointer: WALCheckpointer) {
        self.pool = pool
        self.path = path
        written = WrittenInstances(capacity: keeping)
        self.checkpointer = checkpointer
        let thread = Thread { [unowned self] in
            // Named from the thread itself: Foundation on Linux names no thread but the current
            // one, and Linux keeps at most 15 characters.
            Thread.current.name = "sqlite-writer"
            self.loop()
        }
        self.thread = thread
        thread.start()
    }

    /// Runs `body` in the next transaction and returns its result once that transaction is
    /// committed (durable). SQLite's own errors (a file that cannot be written, say) are
    /// thrown as ``StoreError/unreadable(_:)`` naming the file.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { [path] (continuation: CheckedContinuation<T, Error>) in
            let box = ResultBox<T>()
            let job = Job(
                run: { db in box.value = try body(db) },
                finish: { error in
                    if let error = error as? DatabaseError {
                        continuation.resume(throwing: StoreError.unreadable("\(path): \(error)"))
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: box.value!)
                    }
                })
            condition.lock()
            if stopping {
                condition.unlock()
                continuation.resume(throwing: StoreError.closed)
                return
            }
            waiting.append(job)
            condition.signal()
            condition.unlock()
        }
    }

    /// Why the last transaction failed as a whole, if none has committed since: SQLite's error.
    var lastFailure: String? { failure.withLock { $0 } }

    /// Finishes what is waiting, then stops the thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        stopped.wait()
    }

    private func loop() {
        while true {
            // Between two batches: the last one's answers have gone out.
            if checkpointer.takeRestartRequest() { finishCheckpoint() }
            condition.lock()
            while waiting.isEmpty && !stopping { condition.wait() }
            if waiting.isEmpty && stopping {
                condition.unlock()
                stopped.signal()
                return
            }
            let count = min(waiting.count, Self.batchLimit)
            let batch = Array(waiting.prefix(count))
            waiting.removeFirst(count)
            condition.unlock()
            commit(batch)
        }
    }

    private func commit(_ batch: [Job]) {
        // A write seldom throws, so a batch first runs without a savepoint per write (two
        // statements each). When one throws, that transaction is rolled back, and the batch
        // runs again with a savepoint per write, so that only the writes that throw are undone.
        do {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try written.begin(db)
                    for job in batch { try job.run(db) }
                    return .commit
                }
            }
            committed()
            for job in batch { job.finish(nil) }
            return
        } catch {
            written.rollBack()
        }
        var errors = [Error?](repeating: nil, count: batch.count)
        do {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try written.begin(db)
                    for (index, job) in batch.enumerated() {
                        do {
                            try db.inSavepoint {
                                try job.run(db)
                                return .commit
                            }
                        } catch {
                            errors[index] = error
                        }
                    }
                    return .commit
                }
            }
        } catch {
            written.rollBack()
            failure.withLock { $0 = "\(error)" }
            for job in batch { job.finish(error) }
            return
        }
        committed()
        for (job, error) in zip(batch, errors) { job.finish(error) }
    }

    /// After a commit: what it wrote is kept, the last failure is over, and the checkpointer
    /// hears of it.
    private func committed() {
        written.commit()
        failure.withLock { $0 = nil }
        checkpointer.noteCommit()
    }

    /// Copies into the file what the checkpointer's last pass left (little, or it would not have
    /// asked), with nothing else writing, so that the next transaction starts the log again. A
    /// failure leaves the log to the next request, or to SQLite's own checkpoint in the commits.
    private func finishCheckpoint() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    /// A write's result, set on the writer thread before the commit and read after it.
    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}
