import SmrunCore

/// A run on the wall clock (`--clock real`, docs/cli.md): timers fire as real time passes,
/// while smrun waits for input, sleeps on `@wait`, or waits for the last timers
/// (`--wait-pending`). ``RunSession`` provides the steps; the waiting is written here.
protocol WallClockSession: ~Copyable {
    /// Whether the machine has timers and runs on the wall clock.
    var firesOnWallClock: Bool { get }
    /// Moves the machine's clock to now, firing what fell due, each with its result.
    mutating func catchUp()
    /// When the next timer is due, in milliseconds since the Unix epoch, or `nil`.
    mutating func nextTimerDue() -> Int?
    /// Saves (under `--state`) and writes out the results so far, before smrun waits: a
    /// signal from now on exits at once.
    mutating func pause()
}

extension WallClockSession where Self: ~Copyable {
    /// Before a read that may wait for input: fires what is due, saves and shows the results;
    /// returns how long to wait for input before the next timer falls due (-1: no timer).
    mutating func pauseForInput() -> Int32 {
        var timeout: Int32 = -1
        if firesOnWallClock && !StopSignals.shouldStop() {
            catchUp()
            timeout = WallClock.timeout(until: nextTimerDue())
        }
        pause()
        return timeout
    }

    /// `@wait DURATION` or `--wait DURATION` on the wall clock: sleeps that long, firing the
    /// timers that fall due meanwhile as they do. A stop signal ends it.
    mutating func sleepOnWallClock(milliseconds: Int) {
        let (end, overflow) = WallClock.now().addingReportingOverflow(milliseconds)
        while !StopSignals.shouldStop() {
            if firesOnWallClock { catchUp() }
            let now = WallClock.now()
            guard now < (overflow ? Int.max : end) else { return }
            let next = min(nextTimerDue() ?? Int.max, overflow ? Int.max : end)
            pause()
            WallClock.sleep(milliseconds: next - now)
        }
    }

    /// `--wait-pending`: at the end of input, waits on the wall clock until no timer is
    /// pending, firing each as it falls due. A stop signal ends it.
    mutating func waitForPendingTimers() {
        guard firesOnWallClock else { return }
        while !StopSignals.shouldStop() {
            catchUp()
            guard let due = nextTimerDue() else { return }
            pause()
            WallClock.sleep(milliseconds: due - WallClock.now())
        }
    }
}
