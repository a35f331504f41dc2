import Statecraft
import TestSupport
import Testing

/// The manual clock on its own: time moves only on `advance`, and tasks sleeping on it wake as
/// it passes their deadlines.
struct ManualClockTests {
    @Test func timeMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        clock.advance(by: .milliseconds(1500))
        #expect(clock.now.offset == .milliseconds(1500))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))  // the past: nothing
        #expect(clock.now.offset == .milliseconds(1500))
        #expect(clock.now.duration(to: clock.now.advanced(by: .seconds(2))) == .seconds(2))
    }

    @Test(.timeLimit(.minutes(1)))
    func aSleeperWakesOnceTheClockPassesItsDeadline() async throws {
        let clock = ManualClock()
        let woke = Log<Duration>()
        // A deadline on the clock, not a duration from whenever the task starts: the task may
        // start before or after the advances below, and wakes at 11s either way.
        let sleeper = Task {
            try await clock.sleep(until: ManualClock.Instant(offset: .seconds(10)), tolerance: nil)
            woke.append(clock.now.offset)
        }
        clock.advance(by: .seconds(9))
        clock.advance(by: .seconds(2))
        try await sleeper.value
        #expect(woke.elements == [.seconds(11)])
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledSleeperThrowsCancellationError() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSleepUntilThePastReturnsAtOnce() async throws {
        let clock = ManualClock(start: ManualClock.Instant(offset: .seconds(5)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1)), tolerance: nil)
    }

    @Test func aNegativeAdvanceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) { ManualClock().advance(by: .seconds(-1)) }
    }
}
