import Foundation
import Synchronization
import Testing

@testable import StatecraftStore

/// Closing the SQLite store: the file alone then holds every commit (docs/serving.md: a stopped
/// server's file, copied, is a backup); an app that closes it twice (from its own shutdown and
/// from a server's, say) gets its second call back at once, and a write after it is refused by
/// name.
struct SQLiteCloseTests {
    /// 50 commits one after another, the last ones too soon after the others for the background
    /// checkpointer to have copied them: once the store is closed, a copy of its file without the
    /// log holds all 50.
    @Test func theFileAloneHoldsEveryCommitOnceClosed() async throws {
        let path = try StoreKind.sqlite.newLocation()
        let store = try SQLiteStore(path: path)
        for n in 0..<50 { try await store.write([Self.creation("k\(n)")]) }
        try await store.close()
        let copy = try StoreKind.sqlite.newLocation()
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let copied = try SQLiteStore(path: copy)
        #expect(try await copied.counts().instances == 50)
        try await copied.close()
    }

    @Test func closingTwiceReturnsAndAWriteAfterItIsRefused() async throws {
        let store = try SQLiteStore(path: try StoreKind.sqlite.newLocation())
        let write = Self.creation("k")
        try await store.write([write])
        try await store.close()
        // The second close runs apart, so that a close that never returns fails the test
        // rather than hanging the run.
        let second = SecondClose()
        Task.detached {
            try await store.close()
            second.returned.store(true, ordering: .releasing)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !second.returned.load(ordering: .acquiring) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let returned = second.returned.load(ordering: .acquiring)
        try #require(returned, "closing the store a second time did not return within 10 s")
        await #expect(throws: StoreError.closed) { try await store.write([write]) }
    }

    /// The write that creates instance `key`.
    static func creation(_ key: String) -> InstanceWrite {
        InstanceWrite(
            instance: StoreContractTests.instance(key, version: 1), isNew: true, entries: StoreContractTests.entries(key, from: 1, to: 1),
            activeStates: ["a"], timers: nil)
    }
}

/// Whether the second close has returned.
private final class SecondClose: Sendable {
    let returned = Atomic(false)
}
