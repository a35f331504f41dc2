import Foundation
import Testing

@testable import StatecraftStore

/// The SQLite store copies its write-ahead log back into the database file in the background,
/// soon after commits, rather than only when a commit leaves a long log (and then inside that
/// commit, while every input behind it waits); the writer starts the log again between two
/// batches once the background has copied nearly all of it.
struct SQLiteCheckpointTests {
    /// 100 commits of some 2 KB each leave some 400 pages in the log, fewer than SQLite's own
    /// checkpoint waits for: the database file still grows past 200 KB within seconds.
    @Test func committedPagesReachTheDatabaseFileWithoutWaitingForAThousand() async throws {
        let path = try StoreKind.sqlite.newLocation()
        let store = try SQLiteStore(path: path)
        let before = try Self.size(path)
        let snapshot = Array(repeating: UInt8(ascii: "x"), count: 2_000)
        for n in 0..<100 {
            let id = InstanceID(machine: "m", key: "k\(n)")
            let instance = StoredInstance(id: id, fingerprint: "sha256:f", status: .running, snapshot: snapshot, version: 1, created: 1, updated: 1)
            try await store.write([
                InstanceWrite(
                    instance: instance, isNew: true, entries: [HistoryEntry(id: id, seq: 1, at: 1, kind: .start, results: "[]")],
                    activeStates: ["a"], timers: nil)
            ])
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while try Self.size(path) < before + 200_000 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let after = try Self.size(path)
        #expect(after >= before + 200_000, "the database file is \(after) bytes, \(before) before the commits")
        try await store.close()
        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.counts().instances == 100)
        try await reopened.close()
    }

    /// Four writers that never pause, 8,000 writes of a page each: the writer commits batch after
    /// batch, with no moment when the background has copied the whole log before the next one
    /// begins, so the log starts again only when the writer copies the rest between two batches.
    /// It does so long before the log reaches SQLite's own checkpoint in the commits (4,000 pages,
    /// some 16 MB, which the log's file would then have reached: 4,035 to 4,057 pages in five
    /// runs without the writer's part, 1,729 to 2,644 in ten runs with it).
    @Test func theLogStartsAgainLongBeforeSQLitesOwnCheckpointWhileWritesNeverPause() async throws {
        let path = try StoreKind.sqlite.newLocation()
        let store = try SQLiteStore(path: path)
        let snapshot = Array(repeating: UInt8(ascii: "x"), count: 3_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for n in 0..<2_000 {
                        let id = InstanceID(machine: "m", key: "w\(writer)-\(n)")
                        let instance = StoredInstance(
                            id: id, fingerprint: "sha256:f", status: .running, snapshot: snapshot, version: 1, created: 1, updated: 1)
                        try await store.write([
                            InstanceWrite(
                                instance: instance, isNew: true, entries: [HistoryEntry(id: id, seq: 1, at: 1, kind: .start, results: "[]")],
                                activeStates: ["a"], timers: nil)
                        ])
                    }
                }
            }
            try await group.waitForAll()
        }
        let log = try Self.size(path + "-wal")
        let pageInLog = 4_096 + 24
        #expect(log < WALCheckpointer.writerCheckpointPages * pageInLog, "the log grew to \(log / pageInLog) pages")
        try await store.close()
        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.counts().instances == 8_000)
        try await reopened.close()
    }

    static func size(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
