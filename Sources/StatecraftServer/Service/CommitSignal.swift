import Synchronization

/// Wakes whoever waits for new history (the events feeds, the timers) after a commit of this
/// server, or one heard of from another server on a shared store, and ends their waits
/// for good when the server stops. A missed wake-up costs nothing but a later one: the feeds
/// read history, not the signal.
package final class CommitSignal: Sendable {
    private struct State {
        var generation = 0
        var closed = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// How many signals were given: a waiter passes the one it saw last.
    package var generation: Int { state.withLock { $0.generation } }

    /// Whether the server is stopping: feeds end.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Wakes every waiter.
    package func signal() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume() }
    }

    /// Wakes every waiter, and every later one at once.
    package func close() {
        state.withLock { $0.closed = true }
        signal()
    }

    /// Returns once the generation has moved past `seen` (at once if it has), the signal is
    /// closed, or the task is cancelled.
    package func wait(after seen: Int) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.generation != seen || state.closed || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
