import NIOCore
import Synchronization

/// The connections that the server's events feeds are writing to, so that a stopping server
/// can close those whose feed did not end in time: a feed whose client stopped reading waits in
/// a write that no end of the feed reaches, and would hold the server's shutdown for its whole
/// grace period.
///
/// A feed knows its connection from ``current``, which the server's own connections set
/// (``DeadlineHTTP1Channel``); routes embedded in an application of one's own see none, and
/// their feeds end with that application's graceful shutdown.
final class FeedConnections: Sendable {
    /// The connection of the request being answered, on the server's own connections.
    @TaskLocal static var current: (any Channel)?

    private struct State {
        var nextID = 0
        var open: [Int: any Channel] = [:]
    }

    private let state = Mutex(State())

    /// Notes that a feed writes to ``current``; `nil` when there is none. Pass the number to
    /// ``ended(_:)`` when the feed ends.
    func began() -> Int? {
        guard let channel = Self.current else { return nil }
        return state.withLock { state in
            defer { state.nextID += 1 }
            state.open[state.nextID] = channel
            return state.nextID
        }
    }

    /// Notes that feed `id` ended.
    func ended(_ id: Int?) {
        guard let id else { return }
        _ = state.withLock { $0.open.removeValue(forKey: id) }
    }

    /// Waits up to `grace` for the feeds to end by themselves (ending cleanly, as they do once
    /// told the server stops), then closes the connections of those still writing.
    func closeRemaining(after grace: Duration) async {
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline, state.withLock({ !$0.open.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let remaining = state.withLock { state in
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for channel in remaining { channel.close(promise: nil) }
    }
}
