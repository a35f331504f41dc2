import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client of an events feed on one server of a group, reading on a thread of its own: it keeps
/// every event, and when the feed ends or its server goes away it connects again (to the server
/// in that place, restarted or not) with the `Last-Event-ID` it saw last, as an `EventSource`
/// does.
final class FeedRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(id: String?, entry: [String: Any])] = []
    private var reconnections = 0
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    /// Opens `path` on server `index` of `servers` (200 expected), then reads in the background.
    init(_ servers: ServerGroup, _ index: Int, path: String) throws {
        let first = try servers[index].events(path)
        guard first.head.status == 200 else { throw UnexpectedAnswer(expected: "200 for \(path)", answer: first.head) }
        Thread { [self] in
            var feed: EventStream? = first
            var lastID: String?
            while !lock.withLock({ stopping }) {
                guard let stream = feed else {
                    if let again = try? servers[index].events(path, lastEventID: lastID), again.head.status == 200 {
                        feed = again
                        lock.withLock { reconnections += 1 }
                    } else {
                        usleep(100_000)
                    }
                    continue
                }
                do {
                    guard let event = try stream.next(timeout: .seconds(1)) else {
                        feed = nil
                        continue
                    }
                    lastID = event.id ?? lastID
                    let entry = try event.object()
                    lock.withLock { events.append((event.id, entry)) }
                } catch HTTPFailure.timedOut {
                    continue
                } catch {
                    feed = nil
                }
            }
            finished.signal()
        }.start()
    }

    /// Stops reading (within a second).
    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }

    /// How many events came so far.
    var count: Int { lock.withLock { events.count } }

    /// How many times it connected again.
    var reconnected: Int { lock.withLock { reconnections } }

    /// The entries received so far, in order.
    var entries: [[String: Any]] { lock.withLock { events.map(\.entry) } }

    /// Waits until `count` events came or `timeout` passed; whether they came.
    func waitFor(_ count: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while self.count < count && ContinuousClock.now < deadline { usleep(20_000) }
        return self.count >= count
    }

    /// Checks that the feed showed every entry of `histories` (instances by key) exactly once, and
    /// nothing else, under ids that only grow.
    func expectEachEntryOnce(of histories: [String: [[String: Any]]], sourceLocation: SourceLocation = #_sourceLocation) {
        let received = lock.withLock { events }
        let seen = received.map { "\($0.entry["key"] as? String ?? "?")#\(JSONValue.int($0.entry["seq"]) ?? -1)" }
        let expected = histories.flatMap { key, history in history.map { "\(key)#\(JSONValue.int($0["seq"]) ?? -1)" } }
        #expect(seen.count == Set(seen).count, "the feed showed \(seen.count - Set(seen).count) entries twice", sourceLocation: sourceLocation)
        let missing = Set(expected).subtracting(seen)
        let extra = Set(seen).subtracting(expected)
        #expect(missing.isEmpty, "the feed missed \(missing.count) entries, e.g. \(missing.sorted().prefix(5))", sourceLocation: sourceLocation)
        #expect(extra.isEmpty, "the feed showed \(extra.count) entries no history holds, e.g. \(extra.sorted().prefix(5))", sourceLocation: sourceLocation)
        let ids = received.compactMap { $0.id.flatMap { Int64($0) } }
        #expect(ids.count == received.count && zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "the feed's ids went back", sourceLocation: sourceLocation)
    }
}
