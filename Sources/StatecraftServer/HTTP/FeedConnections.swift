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

    /// The connections written to, by identity: HTTP/1.1 answers one request of a connection at
    /// a time, so a connection has one feed at most.
    private let open = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Notes that a feed writes to ``current``, and returns it; `nil` when there is none. Pass
    /// it to ``ended(_:)`` when the feed ends.
    func began() -> (any Channel)? {
        guard let channel = Self.current else { return nil }
        open.withLock { $0[ObjectIdentifier(channel)] = channel }
        return channel
    }

    /// Notes that the feed writing to `channel` ended.
    func ended(_ channel: (any Channel)?) {
        guard let channel else { return }
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Waits up to `grace` for the feeds to end by themselves (ending cleanly, as they do once
    /// told the server stops), then closes the connections of those still writing.
    func closeRemaining(after grace: Duration) async {
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline, open.withLock({ !$0.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let remaining = open.withLock { open in
            defer { open = [:] }
            return Array(open.values)
        }
        for channel in remaining { channel.close(promise: nil) }
    }
}
