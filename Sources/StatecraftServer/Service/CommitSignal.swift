import Synchronization

/// Wakes whoever waits for new history (the events feeds) after a commit: a counter that
/// waiters compare, and continuations resumed on each signal. A missed wake-up costs at most
/// one poll interval: the feeds read history, not the signal.
package final class CommitSignal: Sendable {
    private let state = Mutex<(generation: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    package init() {}

    package var generation: Int { state.withLock { $0.generation } }

    /// Wakes every waiter.
    package func signal() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after the next signal once the generation has moved past `seen`, or at once if it has.
    package func wait(after seen: Int) async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.generation != seen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
