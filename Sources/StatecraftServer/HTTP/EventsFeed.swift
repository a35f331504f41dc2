import Hummingbird
import NIOCore
import StatecraftStore

/// The events feeds as Server-Sent Events: one event per history entry, `data:` the entry as
/// the history endpoint shows it with `machine` and `key`, `id:` its seq (an instance's feed)
/// or its position among the machine's entries (a machine's feed). A client that reconnects
/// with `Last-Event-ID` gets what it missed first. A comment every 15 seconds keeps the
/// connection open; a deleted instance's feed ends (also when another instance was made under
/// its key since), and every feed ends when the server stops (its connection closed when the
/// client stopped reading it).
struct EventsFeed: Sendable {
    let store: any InstanceStore
    let commits: CommitSignal
    /// The connections being written to, which a stopping server closes when they do not end.
    let connections: FeedConnections
    /// How long a feed goes without writing before it sends a comment.
    var keepAliveInterval: Duration = .seconds(15)
    /// How often a feed reads the store again when nothing wakes it: on a shared store, other
    /// servers' commits wake it through the database's notifications, and a notification lost
    /// with a connection is made up for at this check.
    var recheckInterval: Duration? = nil

    /// Where a feed stands, and how it reads what comes next.
    enum Source: Sendable {
        case instance(InstanceID)
        case machine(String)
    }

    func response(_ source: Source, after cursor: Int64) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            let connection = connections.began()
            defer { connections.ended(connection) }
            var cursor = cursor
            var lastWrite = ContinuousClock.now
            try await writer.write(ByteBuffer(string: ": statecraft events\n\n"))
            // The instance an instance's feed follows, told by its first entry's position: an
            // instance deleted and made again under its key starts a history of its own.
            let followed: Int64?
            if case .instance(let id) = source { followed = try await firstPosition(of: id) } else { followed = nil }
            feed: while !commits.isClosed && !Task.isCancelled {
                let seen = commits.generation
                let entries: [HistoryEntry]
                switch source {
                case .instance(let id):
                    entries = try await store.history(id, afterSeq: Int(cursor), limit: 100)
                    // Read after the entries: when they are a new instance's, so is its first
                    // entry by now. Deleted, or deleted and made again: the feed ends.
                    guard let followed, try await firstPosition(of: id) == followed else { break feed }
                case .machine(let name):
                    entries = try await store.machineHistory(machine: name, afterPosition: cursor, limit: 100)
                }
                if !entries.isEmpty {
                    var text = ""
                    for entry in entries {
                        let id: Int64
                        if case .instance = source { id = Int64(entry.seq) } else { id = entry.position }
                        text += "id: \(id)\ndata: \(InstanceJSON.entry(entry, identified: true))\n\n"
                        cursor = id
                    }
                    try await writer.write(ByteBuffer(string: text))
                    lastWrite = .now
                    continue
                }
                if ContinuousClock.now - lastWrite >= keepAliveInterval {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    lastWrite = .now
                }
                // At most until the next comment is due, however often other instances commit.
                let untilKeepAlive = keepAliveInterval - (ContinuousClock.now - lastWrite)
                await waitForCommit(after: seen, atMost: recheckInterval.map { min($0, untilKeepAlive) } ?? untilKeepAlive)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The position of instance `id`'s first entry (its start), `nil` when there is none.
    private func firstPosition(of id: InstanceID) async throws -> Int64? {
        try await store.history(id, afterSeq: 0, limit: 1).first?.position
    }

    /// Waits for a commit after generation `seen`, at most `interval`.
    private func waitForCommit(after seen: Int, atMost interval: Duration) async {
        let commits = commits
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await commits.wait(after: seen) }
            group.addTask { try? await Task.sleep(for: interval) }
            await group.next()
            group.cancelAll()
        }
    }
}
