import Statecraft
import TestSupport
import Testing

/// Delayed rows (`After(...) | .a => .b`) in typed machines: the shared machine on a
/// ``ManualClock``, the owned one advanced by its owner. Every test here is deterministic: time
/// moves only when a test moves it.
struct DelayedRowTests {
    enum Light: MachineState { case red, green, yellow, off }

    enum Inputs {
        static let button = Input("button")
        static let power = Input("power")
        static let again = Input("again")
        static let stay = Input("stay")
    }

    /// Results as `input: from -> to`, with `after 30s` for a timer's.
    static func line(_ result: StateTransitionResult<Light>) -> String {
        switch result {
        case .success(let step): "\(step.input): \(step.from) -> \(step.to)"
        case .failure(let error): "\(error.input): \(error.kind.rawValue)"
        }
    }

    /// Every result `machine` publishes from now on, as ``line(_:)``.
    static func record<Context>(_ machine: TypedStateMachine<Light, Context>) -> (Log<String>, Observation) {
        let log = Log<String>()
        let observation = machine.observeResults { log.append(line($0)) }
        return (log, observation)
    }

    // MARK: - The shared machine on a manual clock

    @Test func aDelayedRowFiresWhenItsStateHasBeenActiveForItsDurationAndNotBefore() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(30)) | .red => .green
            After(.seconds(25)) | .green => .yellow
            After(.seconds(5)) | .yellow => .red
        }
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(29))
        #expect(light.state == .red)
        clock.advance(by: .seconds(1))
        #expect(light.state == .green)
        // 55s more: green's 25s, then yellow's 5s, then 25 of red's 30.
        clock.advance(by: .seconds(55))
        withExtendedLifetime(observation) {}
        #expect(light.state == .red)
        #expect(log.elements == ["after 30s: red -> green", "after 25s: green -> yellow", "after 5s: yellow -> red"])
    }

    @Test func aFiredTimersResultNamesItsDelay() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.milliseconds(1500)) | .red => .green
        }
        let results = Log<StateTransitionResult<Light>>()
        let observation = light.observeResults { results.append($0) }
        clock.advance(by: .seconds(2))
        withExtendedLifetime(observation) {}
        let fired = results.elements
        #expect(fired.count == 1)
        #expect(fired.first?.input.after == .milliseconds(1500))
        #expect(fired.first?.input.name == "after 1500ms")
        #expect(fired.first?.input.isQueued == false)
    }

    @Test func leavingTheStateCancelsItsTimerAndReenteringItStartsItOver() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(30)) | .red => .green
            Inputs.power | .red => .off
            Inputs.power | .off => .red
            Inputs.again | .red => .red
        }
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(20))
        #expect(light.send(Inputs.power).input.after == nil)  // red is left: its timer is cancelled
        clock.advance(by: .seconds(20))
        #expect(light.state == .off)
        light.send(Inputs.power)  // red again, at 40s: due at 70s
        clock.advance(by: .seconds(20))
        light.send(Inputs.again)  // a row back to red starts the timer over: due at 90s
        clock.advance(by: .seconds(29))
        #expect(light.state == .red)
        clock.advance(by: .seconds(1))
        withExtendedLifetime(observation) {}
        #expect(light.state == .green)
        #expect(log.elements == ["power: red -> off", "power: off -> red", "again: red -> red", "after 30s: red -> green"])
    }

    @Test func aStatesDelayedRowsFireInTimeOrderTiesInTheOrderWritten() {
        let clock = ManualClock()
        let order = Log<String>()
        let light = TypedStateMachine(initial: Light.red, context: 0, clock: clock) {
            // The first to fire leaves red and cancels the others; so each is tried alone.
            After(.seconds(10)) | .red => .yellow | .when { _ in order.append("10s"); return false }
            After(.seconds(5)) | .red => .yellow | .when { _ in order.append("5s first"); return false }
            After(.seconds(5)) | .red => .green | .when { _ in order.append("5s second"); return false }
        }
        clock.advance(by: .seconds(10))
        #expect(light.state == .red)
        #expect(order.elements == ["5s first", "5s second", "10s"])
    }

    @Test func aDelayedRowsGuardIsCheckedWhenItFiresAndAFalseOneSpendsTheTimerWithoutAResult() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: false, clock: clock) {
            After(.seconds(5)) | .red => .green | .when { $0.context }
            Inputs.button | .red => .red | { $0.context = true }
        }
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(5))  // the guard is false: nothing
        #expect(light.state == .red)
        light.send(Inputs.button)  // back to red, guard now true: due in 5s
        clock.advance(by: .seconds(5))
        withExtendedLifetime(observation) {}
        #expect(light.state == .green)
        #expect(log.elements == ["button: red -> red", "after 5s: red -> green"])
    }

    @Test func aZeroDelayFiresOnceTheInputThatEnteredTheStateHasRunToCompletion() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            Inputs.button | .red => .yellow | { $0.send(Inputs.stay) }
            Inputs.stay | .yellow => .yellow
            After(.zero) | .yellow => .green
        }
        let (log, observation) = Self.record(light)
        let result = light.send(Inputs.button)
        withExtendedLifetime(observation) {}
        #expect(result.transition?.to == .yellow)
        #expect(light.state == .green)
        // `stay` re-enters yellow, which starts its timer over: still due at once.
        #expect(log.elements == ["button: red -> yellow", "stay: yellow -> yellow", "after 0s: yellow -> green"])
    }

    @Test func aZeroDelayStillFiresAfterALivelockDiscardedTheLastOne() {
        let light = TypedStateMachine(initial: Light.red, context: true, stepLimit: 10, clock: ManualClock()) {
            Inputs.button | .red => .yellow | { if $0.context { $0.send(Inputs.again) } }
            // Re-entering yellow without end: a livelock, whose step limit discards the queue,
            // the place where yellow's `.zero` timer was to fire included.
            Inputs.again | .yellow => .yellow | { $0.send(Inputs.again) }
            Inputs.power | .yellow => .red | { $0.context = false }
            After(.zero) | .yellow => .green
        }
        #expect(light.send(Inputs.button).isSuccess)
        #expect(light.state == .yellow)
        light.send(Inputs.power)
        light.send(Inputs.button)  // no loop this time
        #expect(light.state == .green)
    }

    @Test func aDelayedRowFromSeveralStatesGivesEachStateATimerOfItsOwn() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(10)) | .matching { $0 != .off } => .off
            Inputs.button | .red => .green
        }
        clock.advance(by: .seconds(6))
        light.send(Inputs.button)  // green's own 10 seconds start now
        clock.advance(by: .seconds(6))
        #expect(light.state == .green)
        clock.advance(by: .seconds(4))
        #expect(light.state == .off)
    }

    @Test func theInitialStatesTimersStartWhenTheMachineIsMade() {
        let clock = ManualClock()
        clock.advance(by: .seconds(100))  // before the machine: its clock starts at its making
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(1)) | .red => .green
        }
        #expect(light.state == .red)
        clock.advance(by: .seconds(1))
        #expect(light.state == .green)
    }

    @Test func aDelayedRowsEffectsRunAndWhatTheySendRunsToCompletion() {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: 0, clock: clock) {
            After(.seconds(1)) | .red => .green | { $0.context += 1; $0.send(Inputs.button) }
            Inputs.button | .green => .yellow
        }
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(1))
        withExtendedLifetime(observation) {}
        #expect(light.state == .yellow)
        #expect(light.context == 1)
        #expect(log.elements == ["after 1s: red -> green", "button: green -> yellow"])
    }

    @Test func timersOfSeveralMachinesOnOneClockFireInTimeOrder() {
        let clock = ManualClock()
        let order = Log<String>()
        let first = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(10)) | .red => .green | { _ in order.append("first at 10s") }
        }
        let second = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(5)) | .red => .green | { _ in order.append("second at 5s") }
            After(.seconds(10)) | .green => .yellow | { _ in order.append("second at 15s") }
        }
        let third = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(10)) | .red => .green | { _ in order.append("third at 10s") }
        }
        clock.advance(by: .seconds(20))
        withExtendedLifetime((first, second, third)) {}
        #expect(order.elements == ["second at 5s", "first at 10s", "third at 10s", "second at 15s"])
    }

    @Test func aTimerOverdueWhenAnInputArrivesFiresBeforeTheInput() {
        // A clock read by the machine but moved without telling it: as a real clock does while
        // the machine's task has not woken yet.
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, clock: StealthClock(clock)) {
            After(.seconds(5)) | .red => .green
            Inputs.button | [.red, .green] => .yellow
        }
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(6))
        #expect(light.state == .red)
        light.send(Inputs.button)
        withExtendedLifetime(observation) {}
        #expect(log.elements == ["after 5s: red -> green", "button: green -> yellow"])
    }

    @Test func aMachineWithoutDelayedRowsNeverReadsItsClock() {
        let clock = CountingClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            Inputs.button | .red => .green
            Inputs.button | .green => .red
        }
        for _ in 0..<3 { light.send(Inputs.button) }
        #expect(clock.reads == 0)
    }

    @Test func aMachineWithDelayedRowsReadsItsClock() {
        // The check above fails for the right reason: reading the clock is observable.
        let clock = CountingClock()
        let light = TypedStateMachine(initial: Light.red, clock: clock) {
            After(.seconds(5)) | .red => .green
            Inputs.button | .red => .yellow
        }
        light.send(Inputs.button)
        #expect(clock.reads > 0)
    }

    @Test func afterDescribesItselfAsResultsNameIt() {
        #expect(After(.seconds(90)).description == "after 90s")
        #expect(After(.seconds(300)).description == "after 5m")
        #expect(After(.seconds(7200)).description == "after 2h")
        #expect(After(.milliseconds(250)).description == "after 250ms")
        #expect(After(.zero).description == "after 0s")
        #expect(After(.seconds(30)).duration == .seconds(30))
    }

    @Test func aDelayFinerThanAMillisecondOrNegativeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) { _ = After(.microseconds(1500)) }
        await #expect(processExitsWith: .failure) { _ = After(.seconds(-1)) }
    }

    @Test(.timeLimit(.minutes(1)))
    func onARealClockADelayedRowFiresWhileNothingIsSent() async {
        // A minute in red; on `button`, 20 milliseconds in yellow: the machine's sleep moves
        // from the first timer to the earlier second one, and fires it with no input arriving.
        let light = TypedStateMachine(initial: Light.red, clock: ContinuousClock()) {
            After(.seconds(60)) | .red => .off
            Inputs.button | .red => .yellow
            After(.milliseconds(20)) | .yellow => .green
        }
        let states = light.states
        light.send(Inputs.button)
        let seen = await states.elements(through: { $0 == .green || $0 == .off })
        #expect(seen == [.red, .yellow, .green])
    }

    // MARK: - The owned machine

    @Test func anOwnedMachinesTimersFireWhenItsOwnerAdvancesIt() {
        var light = OwnedStateMachine(initial: Light.red) {
            After(.seconds(30)) | .red => .green
            After(.seconds(25)) | .green => .yellow
            Inputs.power | [.red, .green, .yellow] => .off
        }
        #expect(light.advance(by: .seconds(29)).isEmpty)
        #expect(light.state == .red)
        let fired = light.advance(by: .seconds(56))
        #expect(fired.map(Self.line) == ["after 30s: red -> green", "after 25s: green -> yellow"])
        #expect(light.time == .seconds(85))
        #expect(light.state == .yellow)
        light.advance(to: .seconds(80))  // the past: nothing
        #expect(light.time == .seconds(85))
        light.send(Inputs.power)
        #expect(light.advance(by: .seconds(100)).isEmpty)
    }

    @Test func advancingAnOwnedMachineBackwardsStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var light = OwnedStateMachine(initial: Light.red) { After(.seconds(1)) | .red => .green }
            light.advance(by: .seconds(-1))
        }
    }

    @Test func anOwnedMachinesZeroDelayFiresWithinSendAndReachesTheQueuedResultHandler() {
        var light = OwnedStateMachine(initial: Light.red) {
            Inputs.button | .red => .yellow
            After(.zero) | .yellow => .green
        }
        let queued = Log<String>()
        light.queuedResultHandler = { queued.append(Self.line($0)) }
        let result = light.send(Inputs.button)
        #expect(result.state == .yellow)
        #expect(light.state == .green)
        #expect(queued.elements == ["after 0s: yellow -> green"])
    }

    @Test func anOwnedMachineInsideAnActorRunsOnItsOwnersTime() async {
        let crossing = Crossing()
        await crossing.press()
        #expect(await crossing.state == .yellow)
        #expect(await crossing.wait(.seconds(5)).map(Self.line) == ["after 5s: yellow -> red"])
        #expect(await crossing.state == .red)
    }

    /// The DocC article's example (Statecraft.docc/Time.md), with `state` for the test.
    actor Crossing {
        private var light = OwnedStateMachine(initial: Light.green) {
            Inputs.button       | .green  => .yellow
            After(.seconds(5))  | .yellow => .red
            After(.seconds(20)) | .red    => .green
        }

        var state: Light { light.state }

        func press() { light.send(Inputs.button) }

        /// Called by the actor's owner: a ticking task in the app, the test directly.
        func wait(_ duration: Duration) -> [StateTransitionResult<Light>] {
            light.advance(by: duration)
        }
    }
}


/// A manual clock's time, under another type: a machine given it runs it as any clock (with a
/// sleeping task), so that the manual clock's `advance` does not fire the machine's timers.
struct StealthClock: Clock {
    let base: ManualClock
    init(_ base: ManualClock) { self.base = base }

    var now: ManualClock.Instant { base.now }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        // Never wakes: the test's input is what finds the overdue timer.
        try await base.sleep(until: deadline.advanced(by: .seconds(1_000_000)), tolerance: tolerance)
    }
}
