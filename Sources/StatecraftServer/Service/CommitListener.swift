import ServiceLifecycle
import StatecraftStore

/// Wakes this server's events feeds and timers when another server commits to a shared store
/// (PostgreSQL's notifications), so that they read it at once rather than at their next check.
struct CommitListener: Service {
    let store: any InstanceStore
    /// What a commit heard of wakes: the feeds' signal and the timers'.
    let signals: [CommitSignal]

    func run() async throws {
        let signals = signals
        await cancelWhenGracefulShutdown {
            await store.watchOtherCommits {
                for signal in signals { signal.signal() }
            }
        }
    }
}
