import Foundation
import Testing

@testable import StatecraftStore

/// The SQLite store copies its write-ahead log back into the database file in the background,
/// soon after commits, rather than only when a commit leaves 1,000 pages in the log (and then
/// inside that commit, while every input behind it waits).
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

    static func size(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
