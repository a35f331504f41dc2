/// How long a wait has lasted while this process ran. The wait's watch sleeps a short step at a
/// time and counts each step as long as it measured it, except a step it woke from more than
/// ``lateness`` late: that one counts only as long as it was meant to last. The time past that
/// is time in which the process did not run (stopped, or its threads all busy with other
/// work), which says nothing of what the wait is for, such as a database that does not answer.
package struct RunningTime {
    /// How late a watch may wake and still count the whole step.
    package static let lateness: Duration = .milliseconds(250)

    /// The time counted so far.
    package private(set) var counted: Duration = .zero
    private var last: ContinuousClock.Instant

    /// Counts from `start`.
    package init(from start: ContinuousClock.Instant) {
        last = start
    }

    /// The watch woke at `now` from a sleep meant to end at `planned`.
    package mutating func woke(at now: ContinuousClock.Instant, planned: ContinuousClock.Instant) {
        let end = now - planned > Self.lateness ? max(planned, last) : now
        counted += end - last
        last = now
    }

    /// Keeps no more than the time since `instant` (when what the wait is measured against last
    /// happened), as of `now`.
    package mutating func restart(since instant: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        counted = min(counted, now - instant)
    }
}
