import Synchronization
import Testing

@testable import StatecraftStore

/// Closing the SQLite store: an app that closes it twice (from its own shutdown and from a
/// server's, say) gets its second call back at once, and a write after it is refused by name.
struct SQLiteCloseTests {
    @Test func closingTwiceReturnsAndAWriteAfterItIsRefused() async throws {
        let store = try SQLiteStore(path: try StoreKind.sqlite.newLocation())
        let id = InstanceID(machine: "m", key: "k")
        let instance = StoredInstance(id: id, fingerprint: "sha256:f", status: .running, snapshot: Array("{}".utf8), version: 1, created: 1, updated: 1)
        let write = InstanceWrite(
            instance: instance, isNew: true, entries: [HistoryEntry(id: id, seq: 1, at: 1, kind: .start, results: "[]")], activeStates: ["a"],
            timers: nil)
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
}

/// Whether the second close has returned.
private final class SecondClose: Sendable {
    let returned = Atomic(false)
}
