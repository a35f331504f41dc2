import Foundation
import Statecraft
import Testing

@testable import StatecraftStore

/// What every ``InstanceStore`` promises, run against the embedded SQLite store on a real file:
/// atomic transactions that see what committed before them, idempotency records, listing by
/// state with pages, history in seq and in commit order, due timers, deletion, the clock.
struct StoreContractTests {
    let directory: URL
    let store: SQLiteStore

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("store.sqlite").path)
    }

    static func instance(_ key: String, version: Int, status: StoredInstance.Status = .running) -> StoredInstance {
        StoredInstance(
            id: InstanceID(machine: "m", key: key), fingerprint: "sha256:f", status: status, snapshot: Array("{\"v\":\(version)}".utf8),
            version: version, created: 1_000, updated: 1_000 + version)
    }

    static func entries(_ key: String, from first: Int, to last: Int) -> [HistoryEntry] {
        (first...last).map { HistoryEntry(id: InstanceID(machine: "m", key: key), seq: $0, at: $0, kind: $0 == 1 ? .start : .input, results: "[]") }
    }

    /// Writes an instance at `version` with entries up to it, creating it or moving it on.
    func put(_ key: String, version: Int, from: Int = 1, states: [String]? = ["a"], timers: [PendingTimer]? = nil) async throws {
        _ = try await store.transact(InstanceID(machine: "m", key: key), idempotency: nil) { found in
            TransactionOutput(
                write: InstanceWrite(
                    instance: Self.instance(key, version: version), isNew: found.instance == nil, entries: Self.entries(key, from: from, to: version),
                    activeStates: states, timers: timers),
                answer: ())
        }
    }

    @Test func aTransactionSeesWhatCommittedBefore() async throws {
        try await put("k1", version: 1)
        let seen = try await store.transact(InstanceID(machine: "m", key: "k1"), idempotency: nil) { found in
            TransactionOutput(answer: found.instance?.version)
        }
        #expect(seen == 1)
        #expect(try await store.instance(InstanceID(machine: "m", key: "k1")) == Self.instance("k1", version: 1))
        #expect(try await store.instance(InstanceID(machine: "m", key: "nope")) == nil)
    }

    @Test func aThrowingDecisionWritesNothingAndLeavesTheOthers() async throws {
        struct Refused: Error {}
        async let failing: Void = {
            _ = try? await store.transact(InstanceID(machine: "m", key: "bad"), idempotency: nil) { _ -> TransactionOutput<Void> in throw Refused() }
        }()
        async let good: Void = put("good", version: 1)
        _ = try await (failing, good)
        #expect(try await store.instance(InstanceID(machine: "m", key: "bad")) == nil)
        #expect(try await store.instance(InstanceID(machine: "m", key: "good")) != nil)
    }

    /// Concurrent transactions on one instance apply one at a time: none loses another's update.
    @Test func concurrentTransactionsOnOneInstanceSerialize() async throws {
        try await put("counter", version: 1)
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

    @Test func idempotencyRecordsAreReadInTheirScope() async throws {
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

    @Test func listingByStatePagesByKey() async throws {
        for index in 0..<25 {
            try await put(String(format: "key-%02d", index), version: 1, states: index % 5 == 0 ? ["parent", "child"] : ["other"])
        }
        let first = try await store.instances(machine: "m", state: "parent", status: nil, afterKey: nil, limit: 3)
        #expect(first.map(\.id.key) == ["key-00", "key-05", "key-10"])
        let rest = try await store.instances(machine: "m", state: "child", status: .running, afterKey: "key-10", limit: 10)
        #expect(rest.map(\.id.key) == ["key-15", "key-20"])
        #expect(try await store.instances(machine: "m", state: nil, status: .final, afterKey: nil, limit: 10).isEmpty)
        #expect(try await store.instances(machine: "m", state: nil, status: nil, afterKey: "key-22", limit: 10).map(\.id.key) == ["key-23", "key-24"])
        // A changed configuration replaces the instance's index rows.
        try await put("key-00", version: 2, from: 2, states: ["other"])
        #expect(try await store.instances(machine: "m", state: "parent", status: nil, afterKey: nil, limit: 1).map(\.id.key) == ["key-05"])
    }

    @Test func aMachinesHistoryIsInCommitOrder() async throws {
        try await put("x", version: 2)
        try await put("y", version: 1)
        try await put("x", version: 3, from: 3)
        let all = try await store.machineHistory(machine: "m", afterPosition: 0, limit: 100)
        #expect(all.map { "\($0.id.key)\($0.seq)" } == ["x1", "x2", "y1", "x3"])
        let later = try await store.machineHistory(machine: "m", afterPosition: all[1].position, limit: 100)
        #expect(later.map { "\($0.id.key)\($0.seq)" } == ["y1", "x3"])
        #expect(try await store.lastPosition(machine: "m") == all[3].position)
        #expect(try await store.lastPosition(machine: "other") == 0)
    }

    @Test func dueInstancesComeEarliestFirst() async throws {
        try await put("late", version: 1, timers: [PendingTimer(due: 300, description: "{}")])
        try await put("early", version: 1, timers: [PendingTimer(due: 100, description: "{}"), PendingTimer(due: 400, description: "{}")])
        try await put("none", version: 1, timers: [])
        #expect(try await store.dueInstances(now: 350, limit: 10).map(\.key) == ["early", "late"])
        #expect(try await store.dueInstances(now: 99, limit: 10).isEmpty)
        #expect(try await store.nextTimerDue() == 100)
        #expect(try await store.counts() == (instances: 3, timers: 3))
        // Changed timers replace the instance's.
        try await put("early", version: 2, from: 2, timers: [])
        #expect(try await store.nextTimerDue() == 300)
    }

    @Test func deletingTakesEverythingOfTheInstance() async throws {
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

    @Test func definitionsAreKeptOncePerFingerprint() async throws {
        let definition = StoredDefinition(fingerprint: "sha256:1", machine: "m", format: .yaml, source: Array("machine: m".utf8), stateNames: ["a", "b"])
        try await store.saveDefinition(definition)
        try await store.saveDefinition(definition)
        #expect(try await store.definition(fingerprint: "sha256:1") == definition)
        #expect(try await store.definitions(machine: "m") == [definition])
        #expect(try await store.definition(fingerprint: "sha256:2") == nil)
    }

    @Test func theStoreKeepsOneClock() async throws {
        #expect(try await store.clock(recording: "real") == "real")
        #expect(try await store.clock(recording: "real") == "real")
        await #expect(throws: StoreError.otherClock(stored: "real", wanted: "virtual")) { try await store.clock(recording: "virtual") }
    }

    /// What was committed is in the file: a second store on it (as after a restart) reads it.
    @Test func whatCommittedIsInTheFile() async throws {
        try await put("kept", version: 3)
        try await store.close()
        let reopened = try SQLiteStore(path: store.path)
        #expect(try await reopened.instance(InstanceID(machine: "m", key: "kept"))?.version == 3)
        try await reopened.close()
    }

    @Test func aStoreFromANewerSmrunIsRefused() async throws {
        try await store.close()
        let path = store.path
        // A migration this smrun does not know, as a newer one would record it.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", path, "INSERT INTO grdb_migrations (identifier) VALUES ('99: from the future')"]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0, "sqlite3 is needed (Debian: sqlite3)")
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            "\(error)".contains("newer smrun")
        }
    }
}
