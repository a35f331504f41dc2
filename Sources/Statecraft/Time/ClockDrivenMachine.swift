/// A machine whose pending timers a clock fires: a ``TimerDriver`` (for any clock) or a
/// ``ManualClock`` (as it advances) calls it.
protocol ClockDrivenMachine: AnyObject, Sendable {
    /// When the machine's next timer is due, in milliseconds on its clock (since it started);
    /// `nil` when none is pending, or when this thread is inside one of the machine's runs (an
    /// effect advancing the clock), which cannot fire timers until it is over. Takes the
    /// machine's lock.
    func nextTimerDue() -> Int?

    /// Fires every timer due by the clock's current time, each result published as the
    /// machine publishes results, and the inputs each queued run to completion; then has its
    /// ``TimerDriver`` sleep until the next. With a `generation`, the driver's task of that
    /// generation woke: nothing happens unless it is still the current one. Takes the
    /// machine's lock (and does nothing when this thread is inside one of its runs); delivers
    /// to observers after releasing it.
    func fireDueTimers(wokenBy generation: Int?)
}
