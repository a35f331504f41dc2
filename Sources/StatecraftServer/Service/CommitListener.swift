import ServiceLifecycle
import StatecraftStore

/// Wakes this server's events feeds and timers when another server commits to a shared store
/// (PostgreSQL's notifications), so that they read it at once rather than at their next check.
struct CommitListener: Service {
    let store: any InstanceStore
    let commits: CommitSignal

    func run() async throws {
        let commits = commits
        await cancelWhenGracefulShutdown {
            await store.watchOtherCommits { commits.signal() }
        }
    }
}
