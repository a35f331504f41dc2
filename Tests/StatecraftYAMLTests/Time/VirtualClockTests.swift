import Statecraft
import Testing

/// The rules of `after` transitions, delayed sends and the virtual clock (docs/semantics.md),
/// on flat machines.
@Suite struct VirtualClockTests {
    static let light = """
        initial: red
        inputs: [stay, again, poke]
        states: [red, green, yellow]
        transitions:
          - after: 30s
            from: red
            to: green
          - after: 25s
            from: green
            to: yellow
          - after: 5s
            from: yellow
            to: red
          - stay  | red
          - again | red => red
          - poke  | red => yellow
        """

    @Test func anAfterFiresWhenItsStateHasBeenActiveThatLongAndNotBefore() throws {
        #expect(try TimedTrace.run(Self.light, ["@wait 29.999s"]) == [])
        #expect(try TimedTrace.run(Self.light, ["@wait 29999ms", "@wait 1ms"]) == ["after 30s@30000: red -> green"])
    }

    @Test func aWaitFiresEveryDueTimerInTimeOrderEachCountingFromTheLastOnesDueTime() throws {
        #expect(
            try TimedTrace.run(Self.light, ["@wait 1m"]) == [
                "after 30s@30000: red -> green", "after 25s@55000: green -> yellow", "after 5s@60000: yellow -> red",
            ])
    }

    @Test func leavingAStateCancelsItsTimer() throws {
        #expect(try TimedTrace.run(Self.light, ["@wait 20s", "poke", "@wait 25s"]) == [
            "poke: red -> yellow", "after 5s@25000: yellow -> red",
        ])
    }

    @Test func aSelfTransitionWithTargetRestartsTheTimerAndStayingDoesNot() throws {
        #expect(try TimedTrace.run(Self.light, ["@wait 20s", "again", "@wait 20s", "@wait 10s"]) == [
            "again: red -> red", "after 30s@50000: red -> green",
        ])
        #expect(try TimedTrace.run(Self.light, ["@wait 20s", "stay", "@wait 10s"]) == [
            "stay: red -> red", "after 30s@30000: red -> green",
        ])
    }

    @Test func aftersOfOneStateFireInTimeOrderTiesInDocumentOrderAndGuardsApply() throws {
        let yaml = """
            initial: a
            context: { n: 0 }
            states: [a, b, c]
            effects:
              count: { set: { n: n + 1 } }
            transitions:
              - after: 2s
                from: a
                effects: [count]
              - after: 1s
                from: a
                when: n > 5
                to: c
              - after: 2s
                from: a
                effects: [count]
              - after: 3s
                from: a
                when: n == 2
                to: b
            """
        // The guarded 1s timer is false when due: no result, never retried.
        #expect(try TimedTrace.run(yaml, ["@wait 10s"]) == ["after 2s@2000: a -> a", "after 2s #2@2000: a -> a", "after 3s@3000: a -> b"])
    }

    @Test func aZeroDelayFiresRightAfterTheInputsRunToCompletionBeforeTheNextInput() throws {
        let yaml = """
            initial: idle
            inputs: [go, next, ping]
            states: [idle, busy, done]
            effects:
              kick: { send: [ping, { input: next, delay: 0s }] }
            transitions:
              - go   | idle => busy | kick
              - ping | busy
              - after: 0s
                from: busy
                to: done
              - next | *
            """
        #expect(try TimedTrace.run(yaml, ["go", "next"]) == [
            "go: idle -> busy", "ping: busy -> busy", "next@0: busy -> busy", "after 0s@0: busy -> done", "next: done -> done",
        ])
    }

    @Test func aZeroDelayTimerThatReschedulesItselfEndsInStepLimit() throws {
        let yaml = """
            initial: a
            inputs: [go, tick]
            states: [a]
            effects:
              again: { send: { input: tick, delay: 0s } }
            transitions:
              - go   | a | again
              - tick | a | again
            """
        let lines = try TimedTrace.run(yaml, ["go", "@wait 1s", "go"], stepLimit: 3)
        #expect(lines == [
            "go: a -> a", "tick@0: a -> a", "tick@0: a -> a", "tick@0: a -> a", "tick@0: a: rejected: step-limit",
            "go: a -> a", "tick@1000: a -> a", "tick@1000: a -> a", "tick@1000: a -> a", "tick@1000: a: rejected: step-limit",
        ])
    }

    @Test func cancelDropsAPendingSendAndDoesNothingWhenNoneIsPending() throws {
        let yaml = """
            initial: a
            inputs: [arm, disarm, ring]
            states: [a]
            effects:
              schedule: { send: { input: ring, delay: 5s, id: alarm } }
              unschedule: { cancel: alarm }
            transitions:
              - arm    | a | schedule
              - disarm | a | unschedule
              - ring   | a
            """
        #expect(try TimedTrace.run(yaml, ["disarm", "arm", "@wait 4s", "disarm", "@wait 10s", "arm", "@wait 5s"]) == [
            "disarm: a -> a", "arm: a -> a", "disarm: a -> a", "arm: a -> a", "ring@19000: a -> a",
        ])
    }

    @Test func aTransitionThatWouldPassTheTimerCapIsRejectedAndChangesNothing() throws {
        let yaml = """
            initial: a
            context: { n: 0 }
            inputs: [arm, ring]
            states: [a]
            effects:
              schedule: { set: { n: n + 1 }, send: { input: ring, delay: 1h } }
            transitions:
              - arm  | a | schedule
              - ring | a
            """
        let machine = try TimedTrace.machine(yaml)
        var runner = TableRunner(machine, timerLimit: 2)
        var trace = TimedTrace<TableRunner>()
        for _ in 0..<3 { runner.send(0, into: &trace) }
        #expect(trace.lines == ["arm: a -> a", "arm: a -> a", "arm: a: rejected: timer-limit"])
        #expect(runner.context == [.int(2)] && runner.pendingTimerCount == 2)
    }

    @Test func aMillionPendingTimersStopAtTheDefaultCapWithAnErrorResult() throws {
        let yaml = """
            initial: a
            inputs: [arm, ring]
            states: [a]
            effects:
              schedule: { send: { input: ring, delay: 1h } }
            transitions:
              - arm  | a | schedule
              - ring | a
            """
        struct Counter: ResultSink {
            var accepted = 0
            var limited = 0
            mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
                if result.isAccepted { accepted += 1 } else if result.rejection == .timerLimit { limited += 1 }
            }
        }
        var runner = TableRunner(try TimedTrace.machine(yaml))
        var counter = Counter()
        for _ in 0..<1_000_000 { runner.send(0, into: &counter) }
        #expect(counter.accepted == RunLimits.defaultTimerLimit && counter.limited == 1_000_000 - RunLimits.defaultTimerLimit)
        #expect(runner.pendingTimerCount == RunLimits.defaultTimerLimit)
    }

    /// Counts results, for runs too long to record.
    struct Counter: ResultSink {
        var results = 0
        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) { results += 1 }
    }

    @Test func aMillionWaitsOfAnHourRunInBoundedMemory() throws {
        let yaml = """
            initial: a
            states: [a, b]
            transitions:
              - after: 2h
                from: a
                to: b
              - after: 2h
                from: b
                to: a
            """
        var runner = TableRunner(try TimedTrace.machine(yaml))
        var counter = Counter()
        runner.start(into: &counter)
        for _ in 0..<1_000_000 { runner.advance(to: runner.time + 3_600_000, into: &counter) }
        // One timer fires every other hour; one is pending at a time, and the heap holds only it.
        #expect(counter.results == 500_000)
        #expect(runner.pendingTimerCount == 1 && runner.timers.storedCount == 1 && runner.time == 3_600_000_000_000)
    }

    @Test func leavingAndReenteringManyTimesKeepsThePendingTimersBounded() throws {
        var runner = TableRunner(try TimedTrace.machine(Self.light))
        var trace = TimedTrace<TableRunner>()
        runner.start(into: &trace)
        let again = try #require(runner.machine.inputNames.firstIndex(of: "again"))
        for _ in 0..<200_000 { runner.send(again, into: &trace) }
        #expect(runner.pendingTimerCount == 1)
        #expect(runner.timers.storedCount < 1_000)
    }
}
