/// A timer that was pending when a snapshot was taken: when it falls due and what it fires, so
/// that a resumed run fires it as the run that saved it would have (docs/snapshots.md).
package struct SnapshotTimer: Hashable, Sendable {
    /// When it is due, in milliseconds on the machine's clock (``MachineSnapshot/clock``).
    package var due: Int
    /// For an `after` timer, the id of the state it belongs to (its transition's source); -1 for
    /// a delayed send.
    package var state: Int
    /// The input processed when it fires: an `after` transition's internal input, or the input
    /// a delayed send sends.
    package var input: Int
    /// A delayed send's argument (`.null` for an `after` timer and an input without one).
    package var argument: Value
    /// The effect whose delayed send scheduled it; -1 for an `after` timer.
    package var sentBy: Int
    /// A delayed send's id (an index into the machine's send ids, in order of first mention),
    /// or -1.
    package var timer: Int

    /// A timer due at `due` that fires `input`, scheduled by the `after` transitions of `state`
    /// (`sentBy` -1) or by effect `sentBy`'s delayed send (`state` -1).
    package init(due: Int, state: Int, input: Int, argument: Value = .null, sentBy: Int, timer: Int = -1) {
        self.due = due
        self.state = state
        self.input = input
        self.argument = argument
        self.sentBy = sentBy
        self.timer = timer
    }

    /// Whether it is an `after` transition's timer (else a delayed send).
    package var isAfter: Bool { state >= 0 }

    package init(_ pending: TimerQueue.Timer) {
        self.init(
            due: pending.due, state: pending.state, input: pending.input, argument: pending.argument, sentBy: pending.sentBy,
            timer: pending.timer)
    }

    /// The timer queue's entry (its order among timers of the same due time is its place in the
    /// list it is restored from).
    var queued: TimerQueue.Timer {
        TimerQueue.Timer(due: due, sequence: 0, state: state, input: input, argument: argument, sentBy: sentBy, timer: timer, epoch: 0)
    }
}

extension MachineSnapshot {
    /// Which clock a snapshot's times are on.
    package enum Clock: String, Hashable, Sendable {
        /// A virtual clock, in milliseconds since the machine started; it stands still while no
        /// run is going.
        case virtual
        /// The wall clock, in milliseconds since the Unix epoch: time passes while no run is
        /// going, and what fell due meanwhile fires when a run resumes.
        case real
    }
}
