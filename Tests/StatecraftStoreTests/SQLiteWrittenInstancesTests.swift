import Foundation
import GRDB
import Statecraft
import Testing

@testable import StatecraftStore

/// The SQLite writer keeps the instances it wrote last (``WrittenInstances``) and hands each
/// one's row and snapshot to its next transaction instead of reading them. What it hands over
/// must be what the file holds: a write that failed, a delete, and another connection's commit
/// (`smrun instances` beside a server) all leave the next transaction reading the file.
struct SQLiteWrittenInstancesTests {
    static let id = InstanceID(machine: "m", key: "k")

    /// The machine's snapshot once started.
    static let started = DefinitionCatalog.runtime(source: Array(machine.utf8), format: .yaml, defaultName: "m").0!
        .start(context: nil, now: 0, clock: .virtual).snapshot

    /// A snapshot that tells versions apart (the store does not look into it).
    static func snapshot(_ version: Int) -> MachineSnapshot {
        var snapshot = started
        snapshot.context = [.int(version)]
        return snapshot
    }

    static let machine = """
        machine: m
        initial: a
        context:
          n: 0
        inputs:
          go:
        states: [a]
        transitions:
          - { from: a, input: go, to: a }
        """

    /// Writes `k` at `version` (entries from `from`), its snapshot given.
    static func put(_ store: SQLiteStore, version: Int, from: Int? = nil) async throws {
        _ = try await store.transact(Self.id, idempotency: nil) { found in
            TransactionOutput(
                write: InstanceWrite(
                    instance: StoreContractTests.instance("k", version: version), isNew: found.instance == nil,
                    entries: StoreContractTests.entries("k", from: from ?? version, to: version), activeStates: ["a"], timers: nil,
                    snapshot: Self.snapshot(version)),
                answer: ())
        }
    }

    /// What the next transaction of `k` finds: the row and the kept snapshot.
    static func found(_ store: SQLiteStore) async throws -> (instance: StoredInstance?, snapshot: MachineSnapshot?) {
        try await store.transact(Self.id, idempotency: nil) { TransactionOutput(answer: ($0.instance, $0.snapshot)) }
    }

    static func withStore(_ body: (SQLiteStore, String) async throws -> Void) async throws {
        let path = try StoreKind.sqlite.newLocation()
        let store = try SQLiteStore(path: path)
        do { try await body(store, path) } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    @Test func theNextTransactionFindsWhatTheLastWriteGave() async throws {
        try await Self.withStore { store, _ in
            try await Self.put(store, version: 1)
            try await Self.put(store, version: 2)
            let found = try await Self.found(store)
            #expect(found.instance == StoreContractTests.instance("k", version: 2))
            #expect(found.snapshot == Self.snapshot(2))
        }
    }

    /// A write that fails on its history (a seq the instance has) stores nothing, and is not
    /// what the next transaction finds.
    @Test func aWriteThatFailedIsNotKept() async throws {
        try await Self.withStore { store, _ in
            try await Self.put(store, version: 1)
            await #expect(throws: (any Error).self) { try await Self.put(store, version: 2, from: 1) }
            let found = try await Self.found(store)
            #expect(found.instance == StoreContractTests.instance("k", version: 1))
            #expect(found.snapshot == Self.snapshot(1))
        }
    }

    @Test func aDeletedInstanceIsNotFound() async throws {
        try await Self.withStore { store, _ in
            try await Self.put(store, version: 1)
            #expect(try await store.delete(Self.id, expectedVersion: nil) == .deleted)
            let found = try await Self.found(store)
            #expect(found.instance == nil && found.snapshot == nil)
        }
    }

    /// Another connection (another process, as `smrun instances migrate` beside a server)
    /// changes the row: the next transaction reads it from the file.
    @Test func anotherConnectionsCommitIsRead() async throws {
        try await Self.withStore { store, path in
            try await Self.put(store, version: 1)
            #expect(try await Self.found(store).snapshot != nil)
            let other = try DatabaseQueue(path: path)
            try await other.write { db in
                try db.execute(sql: "UPDATE instances SET version = 7, fingerprint = 'sha256:other' WHERE machine = 'm' AND key = 'k'")
            }
            try other.close()
            let found = try await Self.found(store)
            #expect(found.instance?.version == 7 && found.instance?.fingerprint == "sha256:other")
            #expect(found.snapshot == nil)
        }
    }

    /// Once full, the instance kept longest is forgotten first.
    @Test func theOldestIsForgottenOnceFull() throws {
        let written = WrittenInstances(capacity: 2)
        let database = try DatabaseQueue()
        try database.write { db in
            for key in ["a", "b", "c"] {
                try written.begin(db)
                let id = InstanceID(machine: "m", key: key)
                written.stage(
                    InstanceWrite(
                        instance: StoredInstance(id: id, fingerprint: "f", status: .running, snapshot: [], version: 1, created: 0, updated: 0),
                        isNew: true, entries: [], activeStates: nil, timers: nil, snapshot: Self.snapshot(1)))
                written.commit()
            }
        }
        #expect(written.instance(InstanceID(machine: "m", key: "a")) == nil)
        #expect(written.instance(InstanceID(machine: "m", key: "b")) != nil)
        #expect(written.instance(InstanceID(machine: "m", key: "c")) != nil)
    }
}
