import StatecraftPostgres
import Testing

/// The PostgreSQL store's wait for a connection counts only time in which the process ran: a
/// watch that wakes late (the process stopped, or its threads all busy with other work) counts
/// the step it slept for, not the time it did not run, so that a stall never makes a database
/// that answers look away.
struct RunningTimeTests {
    private let start = ContinuousClock.now

    @Test func stepsWokenOnTimeCountAsMeasured() {
        var waited = RunningTime(from: start)
        for second in 1...10 {
            let planned = start + .seconds(second)
            waited.woke(at: planned + .milliseconds(20), planned: planned)
        }
        #expect(waited.counted == .seconds(10) + .milliseconds(20))
    }

    @Test func aStepWokenLateCountsOnlyAsLongAsItWasMeantToLast() {
        var waited = RunningTime(from: start)
        waited.woke(at: start + .seconds(1), planned: start + .seconds(1))
        // Stopped for nine seconds past the next wake.
        waited.woke(at: start + .seconds(11), planned: start + .seconds(2))
        #expect(waited.counted == .seconds(2))
        waited.woke(at: start + .seconds(12), planned: start + .seconds(12))
        #expect(waited.counted == .seconds(3))
    }

    @Test func aWakeJustWithinTheLatenessCountsWhole() {
        var waited = RunningTime(from: start)
        let planned = start + .seconds(1)
        waited.woke(at: planned + RunningTime.lateness, planned: planned)
        #expect(waited.counted == .seconds(1) + RunningTime.lateness)
    }

    @Test func restartingKeepsNoMoreThanTheTimeSinceWhatHappened() {
        var waited = RunningTime(from: start)
        for second in 1...8 {
            waited.woke(at: start + .seconds(second), planned: start + .seconds(second))
        }
        waited.restart(since: start + .seconds(5), now: start + .seconds(8))
        #expect(waited.counted == .seconds(3))
        // What happened before the wait began leaves it as it is.
        waited.restart(since: start - .seconds(30), now: start + .seconds(8))
        #expect(waited.counted == .seconds(3))
    }
}
