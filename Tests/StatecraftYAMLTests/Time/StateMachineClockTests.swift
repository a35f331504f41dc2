import Statecraft
import StatecraftYAML
import TestSupport
import Testing

/// Machine files with timers run from Swift: `after:` transitions and delayed sends fire on the
/// clock given to the ``StateMachine``, a ``ManualClock`` here (deterministic), a real one in the
/// end-to-end test.
struct StateMachineClockTests {
    static let machines = URLPath.packageRoot + "/machines/"

    /// Every result `machine` publishes from now on, as `input: from -> to` (queued ones
    /// indented), each timer's with its delay.
    static func record(_ machine: StateMachine) -> (Log<String>, Observation) {
        let log = Log<String>()
        let observation = machine.observeResults { result in
            let input = result.input
            let line =
                switch result {
                case .success(let step): "\(input): \(step.from) -> \(step.to)"
                case .failure(let error): "\(input): \(error.kind.rawValue)"
                }
            log.append((input.isQueued ? "  " : "") + line + (input.after.map { " [after \($0)]" } ?? ""))
        }
        return (log, observation)
    }

    @Test func theTimedTrafficLightTurnsAsAManualClockAdvances() throws {
        let clock = ManualClock()
        let light = try StateMachine(YAMLFile.load(path: Self.machines + "timed-traffic-light.yaml"), clock: clock)
        let (log, observation) = Self.record(light)
        clock.advance(by: .seconds(29))
        #expect(light.state == "red")
        clock.advance(by: .seconds(1))
        #expect(light.state == "green")
        // The button schedules `cross` 5 seconds later, which ends green early.
        light.send("button")
        clock.advance(by: .seconds(5))
        withExtendedLifetime(observation) {}
        #expect(light.state == "yellow")
        #expect(
            log.elements == [
                "after 30s: red -> green [after 30.0 seconds]",
                "button: green -> green",
                "  cross: green -> yellow",
            ])
        #expect(light.context["cycles"] == .int(1))
    }

    @Test func leavingAStateCancelsItsDelayedSendThroughItsExitEffect() throws {
        let clock = ManualClock()
        let light = try StateMachine(YAMLFile.load(path: Self.machines + "timed-traffic-light.yaml"), clock: clock)
        clock.advance(by: .seconds(51))  // green since 30s, until 55s
        let (log, observation) = Self.record(light)
        light.send("button")  // cross due at 56s; green's exit effect cancels it at 55s
        clock.advance(by: .seconds(9))
        withExtendedLifetime(observation) {}
        #expect(
            log.elements == [
                "button: green -> green",
                "after 25s: green -> yellow [after 25.0 seconds]",
                "after 5s: yellow -> red [after 5.0 seconds]",
            ])
        #expect(light.context["waiting"] == .bool(false))
    }

    @Test func aLoginSessionRetriesAfter250Milliseconds() throws {
        let clock = ManualClock()
        let session = try StateMachine(YAMLFile.load(path: Self.machines + "login-session.yaml"), clock: clock)
        let (log, observation) = Self.record(session)
        session.send("logIn")
        session.send("refused")
        clock.advance(by: .milliseconds(249))
        #expect(session.state == "retrying")
        clock.advance(by: .milliseconds(1))
        #expect(session.state == "checking")
        clock.advance(by: .seconds(10))  // no answer: given up
        withExtendedLifetime(observation) {}
        #expect(session.state == "loggedOut")
        #expect(
            log.elements == [
                "logIn: loggedOut -> checking",
                "refused: checking -> retrying",
                "after 250ms: retrying -> checking [after 0.25 seconds]",
                "after 10s: checking -> loggedOut [after 10.0 seconds]",
            ])
    }

    @Test func theInitialStatesZeroDelayFiresWhenTheMachineStarts() throws {
        let machine = try StateMachine(
            YAMLFile.load(bytes: Array("""
                initial: booting
                states:
                  booting:
                  ready:
                transitions:
                  - after: 0s
                    from: booting
                    to: ready
                """.utf8), defaultName: "machine"), clock: ManualClock())
        #expect(machine.state == "ready")
    }

    @Test func aMachineWithoutTimersNeverReadsItsClock() throws {
        let clock = CountingClock()
        let light = try StateMachine(YAMLFile.load(path: Self.machines + "traffic-light.yaml"), clock: clock)
        light.send("green")
        #expect(light.state == "green")
        #expect(clock.reads == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func onARealClockTimersFireWhileNothingIsSent() async throws {
        // 60 seconds in `idle`, then, on `go`, 20 milliseconds in `running`: the driver's sleep
        // must be moved from the first timer to the earlier second one.
        let machine = try StateMachine(
            YAMLFile.load(bytes: Array("""
                initial: idle
                inputs: [go]
                states:
                  idle:
                  running:
                  expired:
                  done:
                transitions:
                  - go | idle => running
                  - after: 60s
                    from: idle
                    to: expired
                  - after: 20ms
                    from: running
                    to: done
                """.utf8), defaultName: "machine"), clock: ContinuousClock())
        let states = machine.states
        machine.send("go")
        let seen = await states.elements(through: { $0 == "done" || $0 == "expired" })
        #expect(seen == ["idle", "running", "done"])
    }
}
