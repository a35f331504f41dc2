import Foundation
import Statecraft
import StatecraftPostgres
import Testing

@testable import StatecraftStore

/// What every ``InstanceStore`` promises, run against both stores: the embedded SQLite store on
/// a real file, and the PostgreSQL store on a real server (a throwaway cluster, see
/// `PostgresCluster`): atomic transactions that see what committed before them, idempotency
/// records, listing by state with pages, history in seq and in commit order, due timers,
/// deletion, the clock.
struct StoreContractTests {
    static func instance(_ key: String, version: Int, status: StoredInstance.Status = .running) -> StoredInstance {
        StoredInstance(
            id: InstanceID(machine: "m", key: key), fingerprint: "sha256:f", status: status, snapshot: Array("{\"v\":\(version)}".utf8),
            version: version, created: 1_000, updated: 1_000 + version)
    }

    static func entries(_ key: String, from first: Int, to last: Int) -> [HistoryEntry] {
        (first...last).map { HistoryEntry(id: InstanceID(machine: "m", key: key), seq: $0, at: $0, kind: $0 == 1 ? .start : .input, results: "[]") }
    }

    /// Writes an instance at `version` with entries up to it, creating it or moving it on.
    static func put(
        _ store: any InstanceStore, _ key: String, version: Int, from: Int = 1, states: [String]? = ["a"], timers: [PendingTimer]? = nil
    ) async throws {
        _ = try await store.transact(InstanceID(machine: "m", key: key), idempotency: nil) { found in
            TransactionOutput(
                write: InstanceWrite(
                    instance: Self.instance(key, version: version), isNew: found.instance == nil, entries: Self.entries(key, from: from, to: version),
                    activeStates: states, timers: timers),
                answer: ())
        }
    }

    @Test(arguments: StoreKind.allCases) func aTransactionSeesWhatCommittedBefore(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "k1", version: 1)
            let seen = try await store.transact(InstanceID(machine: "m", key: "k1"), idempotency: nil) { found in
                TransactionOutput(answer: found.instance?.version)
            }
            #expect(seen == 1)
            #expect(try await store.instance(InstanceID(machine: "m", key: "k1")) == Self.instance("k1", version: 1))
            #expect(try await store.instance(InstanceID(machine: "m", key: "nope")) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases) func aThrowingDecisionWritesNothingAndLeavesTheOthers(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            struct Refused: Error {}
            async let failing: Void = {
                _ = try? await store.transact(InstanceID(machine: "m", key: "bad"), idempotency: nil) { _ -> TransactionOutput<Void> in throw Refused() }
            }()
            async let good: Void = Self.put(store, "good", version: 1)
            _ = try await (failing, good)
            #expect(try await store.instance(InstanceID(machine: "m", key: "bad")) == nil)
            #expect(try await store.instance(InstanceID(machine: "m", key: "good")) != nil)
        }
    }

    /// Concurrent transactions on one instance apply one at a time: none loses another's update.
    @Test(arguments: StoreKind.allCases) func concurrentTransactionsOnOneInstanceSerialize(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "counter", version: 1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        _ = try await store.transact(InstanceID(machine: "m", key: "counter"), idempotency: nil) { found in
                            let version = found.instance!.version + 1
                            return TransactionOutput(
                                write: InstanceWrite(
                                    instance: Self.instance("counter", version: version), isNew: false,
                                    entries: Self.entries("counter", from: version, to: version), activeStates: nil, timers: nil),
                                answer: ())
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.instance(InstanceID(machine: "m", key: "counter"))?.version == 201)
            let history = try await store.history(InstanceID(machine: "m", key: "counter"), afterSeq: 0, limit: 1_000)
            #expect(history.map(\.seq) == Array(1...201))
        }
    }

    @Test(arguments: StoreKind.allCases) func idempotencyRecordsAreReadInTheirScope(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let scope = IdempotencyScope(scope: "k", key: "retry-1")
            let record = IdempotencyRecord(request: Array("{}".utf8), answer: RecordedAnswer(status: 200, version: 2, body: Array("ok".utf8)), instanceKey: "k", expires: 5_000)
            _ = try await store.transact(InstanceID(machine: "m", key: "k"), idempotency: scope) { found in
                #expect(found.idempotency == nil)
                return TransactionOutput(
                    write: InstanceWrite(instance: Self.instance("k", version: 1), isNew: true, entries: Self.entries("k", from: 1, to: 1), activeStates: ["a"], timers: nil),
                    idempotency: record, answer: ())
            }
            let again = try await store.transact(InstanceID(machine: "m", key: "k"), idempotency: scope) { TransactionOutput(answer: $0.idempotency) }
            #expect(again == record)
            let otherScope = try await store.transact(InstanceID(machine: "m", key: "k"), idempotency: IdempotencyScope(scope: "", key: "retry-1")) {
                TransactionOutput(answer: $0.idempotency)
            }
            #expect(otherScope == nil)
            #expect(try await store.removeExpiredIdempotency(now: 4_999) == 0)
            #expect(try await store.removeExpiredIdempotency(now: 5_000) == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func listingByStatePagesByKey(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            for index in 0..<25 {
                try await Self.put(store, String(format: "key-%02d", index), version: 1, states: index % 5 == 0 ? ["parent", "child"] : ["other"])
            }
            let first = try await store.instances(machine: "m", state: "parent", status: nil, afterKey: nil, limit: 3)
            #expect(first.map(\.id.key) == ["key-00", "key-05", "key-10"])
            let rest = try await store.instances(machine: "m", state: "child", status: .running, afterKey: "key-10", limit: 10)
            #expect(rest.map(\.id.key) == ["key-15", "key-20"])
            #expect(try await store.instances(machine: "m", state: nil, status: .final, afterKey: nil, limit: 10).isEmpty)
            #expect(try await store.instances(machine: "m", state: nil, status: nil, afterKey: "key-22", limit: 10).map(\.id.key) == ["key-23", "key-24"])
            // A changed configuration replaces the instance's index rows.
            try await Self.put(store, "key-00", version: 2, from: 2, states: ["other"])
            #expect(try await store.instances(machine: "m", state: "parent", status: nil, afterKey: nil, limit: 1).map(\.id.key) == ["key-05"])
        }
    }

    /// A machine's entries come in commit order, once every writer that began before them has
    /// committed (on a database server, other work may hold them back a moment).
    @Test(arguments: StoreKind.allCases) func aMachinesHistoryIsInCommitOrder(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "x", version: 2)
            try await Self.put(store, "y", version: 1)
            try await Self.put(store, "x", version: 3, from: 3)
            let all = try await Self.machineHistory(store, count: 4)
            try #require(all.map { "\($0.id.key)\($0.seq)" } == ["x1", "x2", "y1", "x3"])
            let later = try await store.machineHistory(machine: "m", afterPosition: all[1].position, limit: 100)
            #expect(later.map { "\($0.id.key)\($0.seq)" } == ["y1", "x3"])
            #expect(try await store.lastPosition(machine: "m") == all[3].position)
            #expect(try await store.lastPosition(machine: "other") == 0)
        }
    }

    /// A reader that follows a machine's entries by cursor while writers commit concurrently
    /// (in any order) sees every entry exactly once, each instance's in seq order.
    @Test(arguments: StoreKind.allCases) func aFeedFollowingConcurrentWritersSkipsNothing(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            async let written: Void = withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for version in 1...25 { try await Self.put(store, "w\(writer)", version: version, from: version) }
                    }
                }
                try await group.waitForAll()
            }
            var seen: [String: [Int]] = [:]
            var count = 0
            var cursor: Int64 = 0
            // Attempts rather than a deadline: the whole suite at once may hold this task back.
            for _ in 0..<50_000 where count < 200 {
                let page = try await store.machineHistory(machine: "m", afterPosition: cursor, limit: 7)
                for entry in page {
                    #expect(entry.position > cursor)
                    cursor = entry.position
                    seen[entry.id.key, default: []].append(entry.seq)
                    count += 1
                }
                if page.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
            }
            try await written
            #expect(count == 200)
            for writer in 0..<8 { #expect(seen["w\(writer)"] == Array(1...25), "w\(writer)") }
        }
    }

    /// A machine's entries, once at least `count` are visible (at most 1,000 attempts).
    static func machineHistory(_ store: any InstanceStore, count: Int) async throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for _ in 0..<1_000 {
            entries = try await store.machineHistory(machine: "m", afterPosition: 0, limit: 100)
            if entries.count >= count { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return entries
    }

    @Test(arguments: StoreKind.allCases) func dueInstancesComeEarliestFirst(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "late", version: 1, timers: [PendingTimer(due: 300, description: "{}")])
            try await Self.put(store, "early", version: 1, timers: [PendingTimer(due: 100, description: "{}"), PendingTimer(due: 400, description: "{}")])
            try await Self.put(store, "none", version: 1, timers: [])
            #expect(try await store.dueInstances(now: 350, limit: 10).map(\.key) == ["early", "late"])
            #expect(try await store.dueInstances(now: 99, limit: 10).isEmpty)
            #expect(try await store.nextTimerDue() == 100)
            #expect(try await store.counts() == (instances: 3, timers: 3))
            // Changed timers replace the instance's.
            try await Self.put(store, "early", version: 2, from: 2, timers: [])
            #expect(try await store.nextTimerDue() == 300)
        }
    }

    /// A batch writes several instances in one transaction: new ones and stored ones, their
    /// entries in commit order, their index rows; a batch with a seq an instance already has
    /// writes none of its instances.
    @Test(arguments: StoreKind.allCases) func aBatchWritesSeveralInstancesAtOnceOrNone(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "stored", version: 1, states: ["a"], timers: [])
            try await store.write([
                InstanceWrite(
                    instance: Self.instance("new", version: 2), isNew: true, entries: Self.entries("new", from: 1, to: 2), activeStates: ["b"],
                    timers: [PendingTimer(due: 50, description: "{}")]),
                InstanceWrite(
                    instance: Self.instance("stored", version: 3), isNew: false, entries: Self.entries("stored", from: 2, to: 3), activeStates: ["b"],
                    timers: nil),
            ])
            #expect(try await store.instance(InstanceID(machine: "m", key: "new")) == Self.instance("new", version: 2))
            #expect(try await store.instance(InstanceID(machine: "m", key: "stored")) == Self.instance("stored", version: 3))
            #expect(try await store.instances(machine: "m", state: "b", status: nil, afterKey: nil, limit: 10).map(\.id.key) == ["new", "stored"])
            #expect(try await store.instances(machine: "m", state: "a", status: nil, afterKey: nil, limit: 10).isEmpty)
            #expect(try await store.nextTimerDue() == 50)
            let all = try await Self.machineHistory(store, count: 5)
            #expect(all.map { "\($0.id.key)\($0.seq)" } == ["stored1", "new1", "new2", "stored2", "stored3"])

            await #expect(throws: (any Error).self) {
                try await store.write([
                    InstanceWrite(
                        instance: Self.instance("other", version: 1), isNew: true, entries: Self.entries("other", from: 1, to: 1), activeStates: ["a"],
                        timers: nil),
                    InstanceWrite(
                        instance: Self.instance("stored", version: 3), isNew: false, entries: Self.entries("stored", from: 3, to: 3), activeStates: nil,
                        timers: nil),
                ])
            }
            #expect(try await store.instance(InstanceID(machine: "m", key: "other")) == nil)
            #expect(try await store.history(InstanceID(machine: "m", key: "stored"), afterSeq: 0, limit: 10).count == 3)
        }
    }

    /// Writes that fail halfway (a new instance's row written, then a seq that another instance
    /// has already), sent together with good ones so that they share transactions: each leaves
    /// nothing of its own, and every good one commits whole.
    @Test(arguments: StoreKind.allCases) func writesFailingHalfwayLeaveNothingAndTheOthersCommit(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "stored", version: 1)
            let failed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<100 {
                    group.addTask {
                        if n.isMultiple(of: 2) {
                            try await Self.put(store, "good-\(n)", version: 2)
                            return false
                        }
                        do {
                            try await store.write([
                                InstanceWrite(
                                    instance: Self.instance("bad-\(n)", version: 1), isNew: true, entries: Self.entries("bad-\(n)", from: 1, to: 1),
                                    activeStates: ["a"], timers: [PendingTimer(due: 50, description: "{}")]),
                                InstanceWrite(
                                    instance: Self.instance("stored", version: 2), isNew: false, entries: Self.entries("stored", from: 1, to: 1),
                                    activeStates: nil, timers: nil),
                            ])
                            return false
                        } catch {
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(failed == 50)
            let listed = try await store.instances(machine: "m", state: nil, status: nil, afterKey: nil, limit: 1_000).map(\.id.key)
            #expect(listed == ((0..<100).filter { $0.isMultiple(of: 2) }.map { "good-\($0)" } + ["stored"]).sorted())
            for n in stride(from: 0, to: 100, by: 2) {
                #expect(try await store.instance(InstanceID(machine: "m", key: "good-\(n)")) == Self.instance("good-\(n)", version: 2))
                #expect(try await store.history(InstanceID(machine: "m", key: "good-\(n)"), afterSeq: 0, limit: 10).map(\.seq) == [1, 2])
            }
            #expect(try await store.instance(InstanceID(machine: "m", key: "stored")) == Self.instance("stored", version: 1))
            #expect(try await store.instances(machine: "m", state: "a", status: nil, afterKey: nil, limit: 1_000).map(\.id.key) == listed)
            for n in stride(from: 1, to: 100, by: 2) {
                #expect(try await store.history(InstanceID(machine: "m", key: "bad-\(n)"), afterSeq: 0, limit: 10).isEmpty)
            }
            #expect(try await store.nextTimerDue() == nil)
        }
    }

    @Test(arguments: StoreKind.allCases) func deletingTakesEverythingOfTheInstance(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let record = IdempotencyRecord(request: [], answer: RecordedAnswer(status: 201, body: []), instanceKey: "gone", expires: .max)
            _ = try await store.transact(InstanceID(machine: "m", key: "gone"), idempotency: IdempotencyScope(scope: "", key: "create-1")) { _ in
                TransactionOutput(
                    write: InstanceWrite(
                        instance: Self.instance("gone", version: 1), isNew: true, entries: Self.entries("gone", from: 1, to: 1), activeStates: ["a"],
                        timers: [PendingTimer(due: 1, description: "{}")]),
                    idempotency: record, answer: ())
            }
            #expect(try await store.delete(InstanceID(machine: "m", key: "gone"), expectedVersion: 7) == .versionMismatch(current: 1))
            #expect(try await store.delete(InstanceID(machine: "m", key: "gone"), expectedVersion: 1) == .deleted)
            #expect(try await store.delete(InstanceID(machine: "m", key: "gone"), expectedVersion: nil) == .absent)
            #expect(try await store.history(InstanceID(machine: "m", key: "gone"), afterSeq: 0, limit: 10).isEmpty)
            #expect(try await store.nextTimerDue() == nil)
            #expect(try await store.instances(machine: "m", state: "a", status: nil, afterKey: nil, limit: 10).isEmpty)
            let create = try await store.transact(InstanceID(machine: "m", key: "gone"), idempotency: IdempotencyScope(scope: "", key: "create-1")) {
                TransactionOutput(answer: $0.idempotency)
            }
            #expect(create == nil)
        }
    }

    /// A machine's feed hands out positions as cursors: once the instance with the newest
    /// entries is deleted, the next entries (another instance's) come after every position
    /// handed out, not in the deleted entries' places below a cursor.
    @Test(arguments: StoreKind.allCases) func positionsAreNotUsedAgainAfterADelete(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            try await Self.put(store, "first", version: 1)
            try await Self.put(store, "newest", version: 3)
            let cursor = try await Self.machineHistory(store, count: 4).map(\.position).max()!
            #expect(try await store.delete(InstanceID(machine: "m", key: "newest"), expectedVersion: nil) == .deleted)
            try await Self.put(store, "next", version: 2)
            var after: [HistoryEntry] = []
            for _ in 0..<1_000 {
                after = try await store.machineHistory(machine: "m", afterPosition: cursor, limit: 100)
                if after.count >= 2 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(after.map(\.id.key) == ["next", "next"])
            #expect(after.map(\.seq) == [1, 2])
        }
    }

    @Test(arguments: StoreKind.allCases) func definitionsAreKeptOncePerFingerprint(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let definition = StoredDefinition(fingerprint: "sha256:1", machine: "m", format: .yaml, source: Array("machine: m".utf8), stateNames: ["a", "b"])
            try await store.saveDefinition(definition)
            try await store.saveDefinition(definition)
            #expect(try await store.definition(fingerprint: "sha256:1") == definition)
            #expect(try await store.definitions(machine: "m") == [definition])
            #expect(try await store.definition(fingerprint: "sha256:2") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases) func theStoreKeepsOneClock(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            #expect(try await store.recordedClock() == nil)
            #expect(try await store.clock(recording: "real") == "real")
            #expect(try await store.clock(recording: "real") == "real")
            await #expect(throws: StoreError.otherClock(stored: "real", wanted: "virtual")) { try await store.clock(recording: "virtual") }
            #expect(try await store.recordedClock() == "real")
        }
        // The virtual clock is kept the same way, across a reopening.
        let location = try kind.newLocation()
        try await kind.open(location) { store in _ = try await store.clock(recording: "virtual") }
        try await kind.open(location) { store async throws in
            #expect(try await store.recordedClock() == "virtual")
            await #expect(throws: StoreError.otherClock(stored: "virtual", wanted: "real")) { try await store.clock(recording: "real") }
        }
    }

    /// Where a machine's keyed logs left the clock is kept per machine, replaced by each
    /// record, across a reopening.
    @Test(arguments: StoreKind.allCases) func theLogTimeIsKeptPerMachine(_ kind: StoreKind) async throws {
        let location = try kind.newLocation()
        try await kind.open(location) { store async throws in
            #expect(try await store.logTime(of: "car") == nil)
            try await store.recordLogTime(60_000, of: "car")
            try await store.recordLogTime(90_000, of: "car")
            try await store.recordLogTime(5, of: "light")
        }
        try await kind.open(location) { store async throws in
            #expect(try await store.logTime(of: "car") == 90_000)
            #expect(try await store.logTime(of: "light") == 5)
            #expect(try await store.logTime(of: "other") == nil)
        }
    }

    /// What was committed is kept: a second store on the same file or database (as after a
    /// restart) reads it.
    @Test(arguments: StoreKind.allCases) func whatCommittedIsKept(_ kind: StoreKind) async throws {
        let location = try kind.newLocation()
        try await kind.open(location) { store in try await Self.put(store, "kept", version: 3) }
        try await kind.open(location) { store async throws in
            #expect(try await store.instance(InstanceID(machine: "m", key: "kept"))?.version == 3)
        }
    }

    @Test(arguments: StoreKind.allCases) func aStoreFromANewerSmrunIsRefused(_ kind: StoreKind) async throws {
        let location = try kind.newLocation()
        try await kind.open(location) { _ in }
        try kind.recordMigrationFromTheFuture(at: location)
        await #expect {
            try await kind.open(location) { _ in }
        } throws: { error in
            "\(error)".contains("newer smrun")
        }
    }

    /// Each entry keeps the instance after it as the engine wrote it, read back by instance and
    /// by machine.
    @Test(arguments: StoreKind.allCases) func anEntryKeepsTheStateAfterIt(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            let after = #""status":"running","state":"b","context":{"n":1},"transitions":[2]"#
            var written = Self.entries("k", from: 1, to: 2)
            written[1].stateAfter = after
            let entries = written
            _ = try await store.transact(InstanceID(machine: "m", key: "k"), idempotency: nil) { _ in
                TransactionOutput(
                    write: InstanceWrite(instance: Self.instance("k", version: 2), isNew: true, entries: entries, activeStates: ["b"], timers: nil),
                    answer: ())
            }
            let history = try await store.history(InstanceID(machine: "m", key: "k"), afterSeq: 0, limit: 10)
            #expect(history.map(\.stateAfter) == [nil, after])
            #expect(try await Self.machineHistory(store, count: 2).map(\.stateAfter) == [nil, after])
        }
    }

    /// A store written before entries kept the state after them is migrated when opened (by
    /// several processes at once, on PostgreSQL): its old entries read as having none, and new
    /// entries keep theirs.
    @Test(arguments: StoreKind.allCases) func entriesFromBeforeTheMigrationHaveNoStateAfter(_ kind: StoreKind) async throws {
        let location = try kind.newLocation()
        try await kind.open(location) { _ in }
        try kind.undoStateAfterMigration(at: location)
        let table = kind == .sqlite ? "history" : "statecraft.history"
        try kind.execute(
            "INSERT INTO \(table) (position, machine, key, seq, at, kind, results) VALUES (1, 'm', 'old', 1, 1, 'start', '[]')", at: location)
        if kind == .postgres {
            async let first: Void = kind.open(location) { _ in }
            async let second: Void = kind.open(location) { _ in }
            _ = try await (first, second)
        }
        try await kind.open(location) { store async throws in
            let old = try await store.history(InstanceID(machine: "m", key: "old"), afterSeq: 0, limit: 10)
            #expect(old.count == 1 && old[0].stateAfter == nil)
            var written = Self.entries("new", from: 1, to: 1)[0]
            written.stateAfter = #""status":"final","state":"z","context":{},"transitions":[]"#
            let entry = written
            _ = try await store.transact(InstanceID(machine: "m", key: "new"), idempotency: nil) { _ in
                TransactionOutput(
                    write: InstanceWrite(instance: Self.instance("new", version: 1), isNew: true, entries: [entry], activeStates: ["z"], timers: nil),
                    answer: ())
            }
            #expect(try await store.history(InstanceID(machine: "m", key: "new"), afterSeq: 0, limit: 10).map(\.stateAfter) == [entry.stateAfter])
        }
    }
}
