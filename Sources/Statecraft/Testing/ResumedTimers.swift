// A scenario that starts in a given state (`state:`) resumes the machine there without entry
// effects; the `after` timers of the states it is in start then, at the clock's time, as if
// they had just been entered (docs/testing-machines.md).

extension TableRunner {
    /// Starts the `after` timers of the current state, as entering it does.
    @usableFromInline package mutating func startTimersOfActiveStates() {
        startAfters(of: state)
    }
}

extension ChartRunner {
    /// Starts the `after` timers of every active state, in document order, as entering them does.
    @usableFromInline package mutating func startTimersOfActiveStates() {
        guard let info = machine.timers else { return }
        var dueNow = false
        for state in info.timedStates where isActive(state) {
            if timers.startAfters(info.afters[state], of: state, now: time) { dueNow = true }
        }
        if dueNow { queueDueMarker() }
    }
}

extension ChartRunner {
    @usableFromInline package mutating func setContextBeforeStart(_ context: [Value]) {
        precondition(context.count == machine.variableNames.count)
        for (slot, value) in context.enumerated() { values[slot] = value }
        contextVersion &+= 1
    }
}
