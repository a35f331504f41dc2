import Logging
import ServiceLifecycle
import SmrunCore
import StatecraftStore

/// Fires the instances' timers on the real clock when they fall due, with no request: each
/// round asks the store which instances have a timer due, fires them (each instance in its own
/// transaction, each timer its own history entry), then sleeps until the next due time, at most
/// a second, or until a commit leaves timers pending (``InstanceService/timerWakes``). Overdue
/// timers found at start-up fire the same way, while the server already serves. On a
/// virtual-clock server it fires nothing: a request moves each instance's clock. It also drops
/// expired idempotency records, and keeps the metrics' gauges current.
struct TimerService: Service {
    let service: InstanceService
    let metrics: ServerMetrics
    let logger: Logger
    /// Instances fired at once in one round.
    var batch = 64
    /// On a store that several servers share, each round picks its batch at random among this
    /// many times as many of the earliest due instances, so that the servers mostly fire
    /// different instances rather than all wait for the same locks.
    var spread = 4

    func run() async throws {
        let store = service.store
        await cancelWhenGracefulShutdown {
            var lastCleanup = 0
            while !Task.isCancelled {
                do {
                    let seen = service.timerWakes.generation
                    // Timers are due by the store's clock (a database's may differ from this
                    // server's, which would fire them late or early by the difference).
                    let now = service.clock == .real ? try await store.now() : WallClock.now()
                    let ahead = now - WallClock.now()
                    metrics.noteStoreClock(ahead: ahead)
                    // Timers on virtual clocks fire when a request moves them, never by themselves.
                    let due = service.clock == .real ? try await dueBatch(now: now) : []
                    if !due.isEmpty {
                        // Instances that other transactions hold (another server firing them)
                        // stay due until those commit: wait a moment rather than spin.
                        if await fire(due) == 0 { await sleep(milliseconds: 20, orUntilCommitAfter: seen) }
                        continue
                    }
                    if now - lastCleanup > 60_000 {
                        lastCleanup = now
                        _ = try await store.removeExpiredIdempotency(now: now)
                        let counts = try await store.counts()
                        metrics.update(instances: counts.instances, timers: counts.timers)
                    }
                    let next = service.clock == .real ? try await store.nextTimerDue() : nil
                    let wait = min(max((next ?? Int.max) - (WallClock.now() + ahead), 1), 1_000)
                    await sleep(milliseconds: wait, orUntilCommitAfter: seen)
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("firing timers: \(error)")
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    /// The instances this round fires: the earliest due, or on a shared store a random batch of
    /// the earliest few batches.
    private func dueBatch(now: Int) async throws -> [InstanceID] {
        let store = service.store
        guard store.isShared else { return try await store.dueInstances(now: now, limit: batch) }
        return Array(try await store.dueInstances(now: now, limit: batch * spread).shuffled().prefix(batch))
    }

    /// Fires the due timers of these instances, a few at a time; how many fired.
    private func fire(_ due: [InstanceID]) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for id in due {
                group.addTask {
                    do {
                        let fired = try await service.fireDueTimers(of: id)
                        for due in fired { metrics.recordTimerLateness(due: due) }
                        return fired.count
                    } catch {
                        logger.error("firing the timers of \(id.machine)/\(id.key): \(error)")
                        return 0
                    }
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// Sleeps `milliseconds`, or less when a commit leaves timers pending (one may be due
    /// sooner), or another server commits.
    private func sleep(milliseconds: Int, orUntilCommitAfter seen: Int) async {
        let commits = service.timerWakes
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await commits.wait(after: seen) }
            group.addTask { try? await Task.sleep(for: .milliseconds(milliseconds)) }
            await group.next()
            group.cancelAll()
        }
    }
}
