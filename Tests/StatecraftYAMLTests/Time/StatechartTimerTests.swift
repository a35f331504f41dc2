import Statecraft
import Testing

/// Timers in statecharts: an `after` belongs to its source state, nested or not, started when
/// the state is entered and cancelled when it is exited.
@Suite struct StatechartTimerTests {
    static let session = """
        initial: online
        inputs: [click, drop]
        states:
          online:
            initial: idle
            states:
              idle:
              busy:
          offline:
        transitions:
          - click | idle => busy
          - click | busy => idle
          - drop  | online => offline
          - after: 10s
            from: busy
            to: idle
          - after: 1m
            from: online
            to: offline
          - after: 5s
            from: offline
            to: online
        """

    @Test func aParentsTimerRunsWhileItsChildrenChangeAndAChildsStopsWhenItIsLeft() throws {
        #expect(try TimedTrace.run(Self.session, ["click", "@wait 5s", "click", "@wait 5s", "click", "@wait 55s"]) == [
            "click: idle -> busy", "click: busy -> idle", "click: idle -> busy",
            "after 10s@20000: busy -> idle", "after 1m@60000: idle -> offline", "after 5s@65000: offline -> idle",
        ])
    }

    @Test func leavingTheParentCancelsTheTimersOfItsDescendants() throws {
        #expect(try TimedTrace.run(Self.session, ["click", "drop", "@wait 20s"]) == [
            "click: idle -> busy", "drop: busy -> offline", "after 5s@5000: offline -> idle",
        ])
    }

    @Test func delayedSendsAndCancelsWorkInStatecharts() throws {
        let yaml = """
            initial: waiting
            inputs: [arm, disarm, ring]
            states:
              waiting:
                states:
                  quiet:
              rung: { final: true }
            effects:
              schedule: { send: { input: ring, delay: 3s, id: alarm } }
              unschedule: { cancel: alarm }
            transitions:
              - arm    | quiet | schedule
              - disarm | quiet | unschedule
              - ring   | quiet => rung
            """
        #expect(try TimedTrace.run(yaml, ["arm", "@wait 2s", "disarm", "@wait 2s", "arm", "@wait 3s"]) == [
            "arm: quiet -> quiet", "disarm: quiet -> quiet", "arm: quiet -> quiet", "ring@7000: quiet -> rung",
        ])
    }
}
