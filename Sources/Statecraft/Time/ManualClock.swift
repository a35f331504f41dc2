/// A clock that moves only when told to: tests give it to machines with timers and move it with
/// ``advance(by:)``, so that timed behaviour is checked without waiting and without flakiness.
///
/// ```swift
/// let clock = ManualClock()
/// let light = TypedStateMachine(initial: Light.red, clock: clock) {
///     After(.seconds(30)) | .red => .green
/// }
/// clock.advance(by: .seconds(29))     // still red
/// clock.advance(by: .seconds(1))      // green: the timer fired inside advance(by:)
/// ```
///
/// Machines (``TypedStateMachine``, ``StateMachine``) given a manual clock fire their timers
/// inside ``advance(by:)``, on the caller's thread, before it returns: every timer due by the
/// new time fires in time order, the clock standing at each one's due time while it fires, ties
/// in the order the timers were started, machines' ties in the order the machines were made.
/// Nothing runs in the background, so a test reads the machines' states and results right after
/// advancing. Tasks sleeping on the clock (``sleep(until:tolerance:)``) are resumed as it passes
/// their deadlines; they run later, as resumed tasks do.
///
/// Advance the clock from one task at a time. It is `Sendable`: an actor may own it, or share it
/// with the machines it drives.
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point on a ``ManualClock``: the time elapsed since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration

        /// The instant `offset` after the clock was made.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `left` is earlier than `right`.
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }

        /// The offset, as `Duration` prints it.
        public var description: String { "\(offset)" }
    }

    /// A task waiting in ``sleep(until:tolerance:)``.
    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A machine that the clock fires timers of, held weakly: the clock does not keep it alive.
    private struct Attached {
        weak var machine: (any ClockDrivenMachine)?
        /// Where the machine's clock, in milliseconds, starts on this one.
        let origin: Instant
    }

    // Everything below is guarded by `lock`.
    private let lock = MachineLock()
    private var current: Instant
    private var sleepers: [Sleeper] = []
    private var attached: [Attached] = []
    private var nextSleeperID = 0

    /// A clock at `start` (by default its zero).
    public init(start: Instant = Instant(offset: .zero)) {
        current = start
    }

    /// The current instant.
    public var now: Instant { lock.withLock { current } }

    /// The smallest step: none, as the clock moves only when told to.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock is advanced to `deadline` (at once if it is there already);
    /// throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            nextSleeperID += 1
            return nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock `duration` forward, firing the timers of the machines it drives that fall
    /// due on the way, in time order, before returning. A negative duration stops the program:
    /// time moves forward only.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock.advance(by:) takes a duration of zero or more: time moves forward only")
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `instant` (nothing happens if it is there or past it already),
    /// firing the timers of the machines it drives that fall due on the way, in time order,
    /// before returning.
    public func advance(to instant: Instant) {
        while true {
            // The machines are asked without the clock's lock held: a machine, while it runs
            // an input, reads the clock under its own lock.
            let machines = lock.withLock { () -> [(machine: any ClockDrivenMachine, origin: Instant)] in
                attached.removeAll { $0.machine == nil }
                return attached.compactMap { entry in entry.machine.map { ($0, entry.origin) } }
            }
            var earliest: (deadline: Instant, machine: any ClockDrivenMachine)?
            for (machine, origin) in machines {
                guard let due = machine.nextTimerDue() else { continue }
                let deadline = origin.advanced(by: .milliseconds(due))
                if deadline <= instant, earliest.map({ deadline < $0.deadline }) ?? true { earliest = (deadline, machine) }
            }
            guard let (deadline, machine) = earliest else { break }
            move(to: deadline)
            machine.fireDueTimers(wokenBy: nil)
        }
        move(to: instant)
    }

    /// Moves the clock to `instant` unless it is past it, and resumes the sleepers now due.
    private func move(to instant: Instant) {
        let due = lock.withLock { () -> [Sleeper] in
            if current < instant { current = instant }
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due.sorted(by: { $0.deadline < $1.deadline }) { sleeper.continuation.resume() }
    }

    /// Drives `machine`'s timers from now on: its clock's zero is `elapsed` before now (zero for
    /// a machine that starts now, a snapshot's time for one restored).
    func attach(_ machine: any ClockDrivenMachine, elapsed: Duration = .zero) -> Instant {
        lock.withLock {
            let origin = Instant(offset: current.offset - elapsed)
            attached.append(Attached(machine: machine, origin: origin))
            return origin
        }
    }
}
