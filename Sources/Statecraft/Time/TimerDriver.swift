/// Runs a machine's timers on a clock: the time elapsed since the machine started, in the
/// milliseconds the engine's timers count, and the task that sleeps until the next timer is
/// due. Made only for a machine that has timers; a machine without them does no clock work.
///
/// Under a ``ManualClock`` there is no task: the clock fires the machine's timers as it is
/// advanced. Under any other clock one task at a time sleeps until the next due time; it is
/// cancelled and another started whenever that time changes.
///
/// Its `var`s are guarded by the machine's lock.
@usableFromInline
final class TimerDriver: @unchecked Sendable {
    /// The time elapsed on the clock since the machine started.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps until the machine's clock reads the given milliseconds; nil under a manual clock.
    private let sleep: (@Sendable (Int) async throws -> Void)?
    /// The sleeping task, and the due time it sleeps until.
    private var task: Task<Void, Never>?
    private var scheduledDue: Int?
    /// Counts the tasks started: a task that wakes after it was replaced does nothing.
    private var generation = 0

    /// A driver on `clock`, which reads `resumedAt` milliseconds now (0 for a machine that starts
    /// now; a restored snapshot's time for one that resumes); `machine` is attached to a
    /// ``ManualClock``.
    init(clock: any Clock<Duration>, machine: any ClockDrivenMachine, resumedAt time: Int = 0) {
        if let manual = clock as? ManualClock {
            let origin = manual.attach(machine, elapsed: .milliseconds(time))
            elapsed = { origin.duration(to: manual.now) }
            sleep = nil
        } else {
            (elapsed, sleep) = Self.functions(of: clock, elapsed: .milliseconds(time))
        }
    }

    /// The clock's functions, for its concrete type, `elapsed` having passed already.
    private static func functions<C: Clock<Duration>>(
        of clock: C, elapsed: Duration
    ) -> (@Sendable () -> Duration, @Sendable (Int) async throws -> Void) {
        let origin = clock.now.advanced(by: .zero - elapsed)
        return (
            { origin.duration(to: clock.now) },
            { milliseconds in try await clock.sleep(until: origin.advanced(by: .milliseconds(milliseconds)), tolerance: nil) }
        )
    }

    /// The time elapsed since the machine started, in whole milliseconds, never before `floor`
    /// (the machine's clock, which moves forward only).
    func now(notBefore floor: Int) -> Int {
        max(floor, min(elapsed().wholeMilliseconds, Int.max / 2))
    }

    /// Sleeps until `nextDue` (the machine's next timer), unless a task already does; then has
    /// `machine` fire what fell due. Call with the machine's lock held, after every change to
    /// its timers.
    func schedule(nextDue: Int?, for machine: any ClockDrivenMachine) {
        guard let sleep, nextDue != scheduledDue else { return }
        task?.cancel()
        task = nil
        scheduledDue = nextDue
        generation &+= 1
        guard let nextDue else { return }
        let generation = generation
        task = Task { [weak machine] in
            do { try await sleep(nextDue) } catch { return }
            machine?.fireDueTimers(wokenBy: generation)
        }
    }

    /// Whether the task of `generation` is the current one; if so, it is over. Call with the
    /// machine's lock held.
    func takeWake(generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        task = nil
        scheduledDue = nil
        return true
    }

    /// Stops the sleeping task (the machine is going away).
    func stop() {
        task?.cancel()
    }
}
