import Foundation
import StatecraftPostgres
import TestSupport
import Testing

@testable import StatecraftStore

/// The PostgreSQL store when the database ends its connections while statements are in flight
/// (`pg_terminate_backend`, as a restart or a failover does), or stops answering on them (a
/// network that drops its packets, through a relay that freezes): each operation ends,
/// committed or refused as unavailable, none waits for ever, nothing answered is lost, the
/// store serves again once its pool has connected again, and it closes. (postgres-nio never
/// answers a statement written to a connection in the moment after it closed: the store writes
/// each one in the same turn of the event loop as it checks the connection.)
struct PostgresConnectionLossTests {
    /// Counts of one writer's operations.
    private struct Tally: Sendable {
        var committed = 0
        var unavailable = 0
        var failures: [String] = []
    }

    /// What the test shares with the tasks it does not wait for.
    private final class Progress: Sendable {
        let cutting = Locked(true)
        let tallies = Locked([Tally](repeating: Tally(), count: 64))
        let writersEnded = Locked(0)
        let poolEnded = Locked(false)
    }

    /// A value behind an `NSLock`, which ThreadSanitizer sees handed over (a contended `Mutex`
    /// is handed over in the kernel, out of its sight, and it would report races).
    private final class Locked<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) {
            self.value = value
        }

        func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&value)
        }
    }

    @Test func operationsInFlightWhenConnectionsAreCutEachEnd() async throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.createDatabase()
        let store = PostgresStore(location: try PostgresLocation(url: cluster.url(database)))
        let progress = Progress()
        let pool = Task {
            await store.run()
            progress.poolEnded.withLock { $0 = true }
        }
        try await store.open()

        for writer in 0..<64 {
            Task {
                while progress.cutting.withLock({ $0 }) {
                    do {
                        try await Self.increment(store, "w\(writer)")
                        progress.tallies.withLock { $0[writer].committed += 1 }
                    } catch StoreError.unavailable {
                        progress.tallies.withLock { $0[writer].unavailable += 1 }
                    } catch {
                        progress.tallies.withLock { $0[writer].failures.append("\(error)") }
                    }
                }
                progress.writersEnded.withLock { $0 += 1 }
            }
        }
        for _ in 0..<30 {
            try await Task.sleep(for: .milliseconds(50))
            _ = try cluster.psql(
                database: "postgres", "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)'")
        }
        progress.cutting.withLock { $0 = false }
        #expect(await Self.becomes(within: .seconds(60)) { progress.writersEnded.withLock { $0 } == 64 }, "a writer's operation never ended")

        // The pool connects again, after the backoff its failed connection attempts earned (a
        // connection cut while it started counts as one).
        #expect(try await Self.servesAgain(store, within: .seconds(120)), "the store did not serve again")

        let seen = progress.tallies.withLock { $0 }
        #expect(seen.flatMap(\.failures).isEmpty, "\(seen.flatMap(\.failures).prefix(5))")
        #expect(seen.reduce(0) { $0 + $1.unavailable } > 0, "no operation met a cut connection")
        for (writer, tally) in seen.enumerated() {
            // Every increment answered is there; one refused may have committed before its
            // connection was cut.
            let version = try await store.instance(InstanceID(machine: "m", key: "w\(writer)"))?.version ?? 0
            #expect((tally.committed...tally.committed + tally.unavailable).contains(version), "w\(writer): \(version), \(tally)")
        }

        try await store.close()
        pool.cancel()
        #expect(await Self.becomes(within: .seconds(30)) { progress.poolEnded.withLock { $0 } }, "the connection pool did not close")
    }

    @Test func anOperationTheDatabaseNeverAnswersEndsAsUnavailable() async throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.createDatabase()
        let relay = try FreezableRelay(to: cluster.port)
        defer { relay.stop() }
        let answerTimeout = Duration.seconds(3)
        let store = PostgresStore(
            location: try PostgresLocation(url: "postgres://postgres@127.0.0.1:\(relay.port)/\(database)?sslmode=disable"), maximumConnections: 4,
            answerTimeout: answerTimeout)
        let progress = Progress()
        let pool = Task {
            await store.run()
            progress.poolEnded.withLock { $0 = true }
        }
        try await store.open()
        try await Self.increment(store, "a")
        // The notification to other servers that follows a transaction gives its connection
        // back too, so that the send below takes one that is open (a new one would hang in its
        // handshake, and the send would end as one that got no connection).
        try await Task.sleep(for: .seconds(1))

        // The database's answers stop coming, on the connections the pool holds and on new ones.
        // The send goes first, alone: it takes the pool's open connection (a health check sent
        // with it might take that one first; the send would then be handed it closed, when the
        // check's time is up, and end at 2 s), and ends when its answer timeout is up. The
        // health check that follows ends after its 2 s, on whatever connection it waits for.
        relay.setFrozen(true)
        for (operation, limit) in [("send", answerTimeout), ("health", Duration.seconds(2))] {
            let started = ContinuousClock.now
            let outcome = Locked([String]())
            Task {
                let ended: String
                do {
                    if operation == "send" { try await Self.increment(store, "a") } else { try await store.checkHealth() }
                    ended = "answered"
                } catch StoreError.unavailable(let message) {
                    ended = "unavailable after \(ContinuousClock.now - started): \(message)"
                } catch {
                    ended = "\(error)"
                }
                outcome.withLock { $0.append(ended) }
            }
            #expect(await Self.becomes(within: .seconds(30)) { !outcome.withLock { $0 }.isEmpty }, "\(operation) waited for ever")
            let ended = outcome.withLock { $0.first ?? "" }
            #expect(ended.hasPrefix("unavailable after"), "\(operation): \(ended)")
            #expect(ContinuousClock.now - started < limit + .seconds(5), "\(operation): \(ended)")
            if operation == "send" {
                #expect(ended.contains("did not answer within 3 s"), "\(ended)")
            }
        }

        relay.setFrozen(false)
        #expect(try await Self.servesAgain(store, within: .seconds(120)), "the store did not serve again")
        // The send that went unanswered never reached its COMMIT.
        #expect(try await store.instance(InstanceID(machine: "m", key: "a"))?.version == 1)

        try await store.close()
        pool.cancel()
        #expect(await Self.becomes(within: .seconds(30)) { progress.poolEnded.withLock { $0 } }, "the connection pool did not close")
    }

    /// Moves the instance `key` on by one version, creating it at version 1.
    private static func increment(_ store: PostgresStore, _ key: String) async throws {
        _ = try await store.transact(InstanceID(machine: "m", key: key), idempotency: nil) { found in
            let version = (found.instance?.version ?? 0) + 1
            return TransactionOutput(
                write: InstanceWrite(
                    instance: StoreContractTests.instance(key, version: version), isNew: found.instance == nil,
                    entries: StoreContractTests.entries(key, from: version, to: version), activeStates: ["a"], timers: nil),
                answer: ())
        }
    }

    /// Whether an increment commits within `time`, tried again while the store is unavailable.
    private static func servesAgain(_ store: PostgresStore, within time: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + time
        while ContinuousClock.now < deadline {
            do {
                try await increment(store, "after")
                return true
            } catch StoreError.unavailable {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return false
    }

    /// Whether `condition` holds within `time` (checked every 50 ms, without waiting on what
    /// may never end).
    private static func becomes(within time: Duration, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + time
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }
}
