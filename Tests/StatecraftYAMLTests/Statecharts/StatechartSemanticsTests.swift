import Statecraft
import Testing

/// One scenario per rule in which a statechart behaves differently from a flat machine, each
/// written from the W3C SCXML algorithm (and XState where SCXML is silent).
struct StatechartSemanticsTests {
    // Two regions that both take `e`: exits run innermost and last region first (reverse
    // document order), the transitions' own effects in document order, entries in document order.
    static let twoRegions = """
        initial: p
        states:
          p:
            parallel: true
            states:
              left: { states: { a1: { exit: [leaveA1] }, a2: { entry: [enterA2] } } }
              right: { states: { b1: { exit: [leaveB1] }, b2: { entry: [enterB2] } } }
        transitions:
          - input: e
            from: b1
            to: b2
            effects: [stepB]
          - input: e
            from: a1
            to: a2
            effects: [stepA]
        """

    @Test func regionsTakeTheirTransitionsInDocumentOrder() throws {
        #expect(
            try ChartTrace.run(Self.twoRegions, ["e"]) == [
                "e: a1, b1 -> a2, b2 / leaveB1, leaveA1, stepA, stepB, enterA2, enterB2"
            ])
    }

    @Test func enteringAndLeavingAParallelStateOrdersRegionsByDocument() throws {
        let yaml = """
            initial: off
            states:
              off:
              on:
                parallel: true
                entry: [enterOn]
                exit: [leaveOn]
                states:
                  left: { entry: [enterLeft], exit: [leaveLeft], states: { a: { entry: [enterA], exit: [leaveA] } } }
                  right: { entry: [enterRight], exit: [leaveRight], states: { b: { entry: [enterB], exit: [leaveB] } } }
            transitions:
              - start | off => on
              - stop | on => off
            """
        #expect(
            try ChartTrace.run(yaml, ["start", "stop"]) == [
                "start: off -> a, b / enterOn, enterLeft, enterA, enterRight, enterB",
                "stop: a, b -> off / leaveB, leaveRight, leaveA, leaveLeft, leaveOn",
            ])
    }

    @Test func aChildsTransitionPreemptsItsAncestorsOnTheSameInput() throws {
        let yaml = """
            initial: idle
            states:
              idle:
              busy: { states: [working, paused] }
            transitions:
              - go | idle => busy
              - pause | busy => idle
              - pause | working => paused
            """
        // `working` is selected from first (innermost): its own transition wins over `busy`'s.
        #expect(
            try ChartTrace.run(yaml, ["go", "pause", "pause"]) == [
                "go: idle -> working",
                "pause: working -> paused",
                "pause: paused -> idle",
            ])
    }

    @Test func conflictingTransitionsOfTwoRegionsKeepTheFirstInDocumentOrder() throws {
        // Both regions take `e`; `right`'s transition leaves the parallel state, so its exit set
        // holds `a`, which `left`'s transition exits too: neither source is inside the other,
        // and the one selected first (document order) wins.
        let leftFirst = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a, a2] }
                  right: { states: [b] }
              out:
            transitions:
              - e | a => a2
              - e | b => out
            """
        #expect(try ChartTrace.run(leftFirst, ["e"]) == ["e: a, b -> a2, b"])
        // Swapped: the first region's transition leaves, and wins over the second's.
        let leavingFirst = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a] }
                  right: { states: [b, b2] }
              out:
            transitions:
              - e | b => b2
              - e | a => out
            """
        #expect(try ChartTrace.run(leavingFirst, ["e"]) == ["e: a, b -> out"])
    }

    @Test func aTransitionFromADeeperStatePreemptsAnOverlappingOneSelectedEarlier() throws {
        // `left` region is first in the document; its atomic state `a` has no `e`, so its
        // ancestor `p` is tried and chooses `p => done`. `right`'s `b` chooses `b => b2`. The
        // exit sets meet (p's domain holds b); `b` is a descendant of `p`, so it preempts.
        let yaml = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a] }
                  right: { states: [b, b2] }
              done:
            transitions:
              - e | p => done
              - e | b => b2
            """
        #expect(try ChartTrace.run(yaml, ["e", "e"]) == ["e: a, b -> a, b2", "e: a, b2 -> done"])
    }

    static let history = """
        initial: off
        states:
          off:
          on:
            states:
              mode:
                states: [slow, fast]
              other:
              shallowMemory: { history: shallow }
              deepMemory: { history: deep }
        transitions:
          - power | off => on
          - faster | slow => fast
          - switch | mode => other
          - back | other => mode
          - down | on => off
          - shallow | off => shallowMemory
          - deep | off => deepMemory
        """

    @Test func shallowHistoryReentersTheChildDeepHistoryTheAtomicStates() throws {
        #expect(
            try ChartTrace.run(Self.history, ["power", "faster", "down", "shallow", "down", "deep"]) == [
                "power: off -> slow",
                "faster: slow -> fast",
                "down: fast -> off",
                // Shallow: `mode` was active, and entering it enters its initial child.
                "shallow: off -> slow",
                "down: slow -> off",
                // Deep history recorded `slow` on the last exit (shallow re-entry reset it).
                "deep: off -> slow",
            ])
        #expect(
            try ChartTrace.run(Self.history, ["power", "faster", "down", "deep"]) == [
                "power: off -> slow", "faster: slow -> fast", "down: fast -> off", "deep: off -> fast",
            ])
    }

    @Test func aHistoryNeverRecordedLeadsToItsDefaultOrTheParentsInitial() throws {
        #expect(try ChartTrace.run(Self.history, ["deep"]) == ["deep: off -> slow"])
        let withDefault = Self.history.replacing("deepMemory: { history: deep }", with: "deepMemory: { history: deep, default: other }")
        #expect(try ChartTrace.run(withDefault, ["deep"]) == ["deep: off -> other"])
    }

    @Test func enteringAFinalChildRaisesTheParentsDoneEvent() throws {
        let yaml = """
            initial: checkout
            states:
              checkout:
                states:
                  card:
                  paid: { final: true, entry: [receipt] }
              thanks:
            transitions:
              - pay | card => paid
              - input: done.state.checkout
                from: checkout
                to: thanks
            """
        #expect(
            try ChartTrace.run(yaml, ["pay"]) == [
                "pay: card -> paid / receipt",
                "  done.state.checkout: paid -> thanks",
            ])
    }

    @Test func aParallelStateIsDoneWhenEveryRegionIsInAFinalState() throws {
        let yaml = """
            initial: both
            states:
              both:
                parallel: true
                states:
                  upload: { states: { sending: , sent: { final: true } } }
                  scan: { states: { scanning: , clean: { final: true } } }
              ready:
            transitions:
              - uploaded | sending => sent
              - scanned | scanning => clean
              - done.state.both | both => ready
            """
        #expect(
            try ChartTrace.run(yaml, ["uploaded", "scanned"]) == [
                "uploaded: sending, scanning -> sent, scanning",
                "scanned: sent, scanning -> sent, clean",
                "  done.state.both: sent, clean -> ready",
            ])
    }

    @Test func eventlessTransitionsChainAfterEveryMicrostepBeforeQueuedInputs() throws {
        let yaml = """
            initial: a
            context: { n: 0 }
            states: [a, b, c, d]
            effects:
              count: { set: { n: n + 1 }, send: later }
            transitions:
              - go | a => b | count
              - from: b
                to: c
                when: n > 0
              - from: c
                to: d
              - later | d => a
            """
        #expect(
            try ChartTrace.run(yaml, ["go"]) == [
                "go: a -> b / count",
                "  (eventless): b -> c",
                "  (eventless): c -> d",
                "  later: d -> a",
            ])
    }

    @Test func eventlessTransitionsWhoseGuardsKeepHoldingStopAtTheStepLimit() throws {
        let yaml = """
            initial: ping
            context: { go: false }
            states: [ping, pong]
            effects:
              start: { set: { go: true } }
            transitions:
              - kick | ping => ping | start
              - { from: ping, to: pong, when: go }
              - { from: pong, to: ping, when: go }
            """
        let lines = try ChartTrace.run(yaml, ["kick"], stepLimit: 5)
        #expect(lines.count == 7)
        #expect(lines.last == "  (eventless): pong: rejected: step-limit")
    }

    /// A targetless eventless transition whose guard keeps holding ends at the step limit; the
    /// next input must then leave and enter states as usual (a selection cut short by the limit
    /// once left its domain behind, and the next step entered nothing: found by fuzzing).
    @Test func anInputAfterAStepLimitEntersItsTargetAsUsual() throws {
        let yaml = """
            initial: idle
            inputs: [restart]
            context: { n: 0 }
            effects:
              count: { set: { n: n + 1 } }
            states:
              idle: { entry: [count] }
            transitions:
              - restart | idle => idle
              - { from: idle, when: n < 2 }
            """
        let lines = try ChartTrace.run(yaml, ["restart", "restart"], stepLimit: 3)
        #expect(
            lines == [
                "start: -> idle / count",
                "  (eventless): idle -> idle", "  (eventless): idle -> idle", "  (eventless): idle -> idle",
                "  (eventless): idle: rejected: step-limit",
                "restart: idle -> idle / count",
                "restart: idle -> idle / count",
            ])
    }

    @Test func externalTransitionsLeaveTheirSourceInternalOnesDoNot() throws {
        let yaml = """
            initial: editor
            states:
              editor:
                entry: [open]
                exit: [close]
                states: [typing, saving]
            transitions:
              - save | editor => saving
              - input: quickSave
                from: editor
                to: saving
                type: internal
            """
        #expect(
            try ChartTrace.run(yaml, ["save", "quickSave"]) == [
                "start: -> typing / open",
                "save: typing -> saving / close, open",
                "quickSave: saving -> saving",
            ])
    }

    @Test func aTransitionMayTargetOneStateInEachRegion() throws {
        let yaml = """
            initial: off
            states:
              off:
              on:
                parallel: true
                states:
                  audio: { states: [loud, quiet] }
                  video: { states: [color, mono] }
            transitions:
              - input: night
                from: off
                to: [quiet, mono]
            """
        #expect(try ChartTrace.run(yaml, ["night"]) == ["night: off -> quiet, mono"])
    }

    @Test func inTestsWhetherAStateIsActive() throws {
        let yaml = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  door: { states: [closed, open] }
                  motor: { states: [stopped, running] }
            transitions:
              - toggle | closed => open
              - toggle | open => closed
              - input: start
                from: stopped
                to: running
                when: in(closed)
            """
        #expect(
            try ChartTrace.run(yaml, ["toggle", "start", "toggle", "start"]) == [
                "toggle: closed, stopped -> open, stopped",
                "start: open, stopped: rejected: guard-rejected",
                "toggle: open, stopped -> closed, stopped",
                "start: closed, stopped -> closed, running",
            ])
    }

    @Test func theRunnerSaysWhichStatesAreActiveByName() throws {
        var runner = ChartRunner(try ChartTrace.machine(Self.twoRegions))
        var trace = ChartTrace()
        runner.start(into: &trace)
        #expect(runner.activeStateNames == ["a1", "b1"])
        #expect(runner.isActive("p") && runner.isActive("left") && runner.isActive("b1"))
        #expect(!runner.isActive("a2") && !runner.isActive("no such state"))
    }

    @Test func inputPatternsMatchAFamilyOrEveryInput() throws {
        let yaml = """
            initial: ok
            inputs: [error, error.network, error.disk, errors, reset, poke]
            states: [ok, failed, poked]
            transitions:
              - input: "error.*"
                from: ok
                to: failed
              - reset | failed => ok
              - input: "*"
                from: ok
                to: poked
            """
        #expect(
            try ChartTrace.run(yaml.replacing("states: [ok, failed, poked]", with: "states: { ok: , failed: , poked: , x: { states: [y] } }"),
                ["error.disk", "reset", "error", "reset", "errors"]) == [
                "error.disk: ok -> failed", "reset: failed -> ok", "error: ok -> failed", "reset: failed -> ok", "errors: ok -> poked",
            ])
    }

    @Test func aRefusalChosenForAnyActiveStateRefusesTheInput() throws {
        let yaml = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a, a2] }
                  right: { states: [locked, open] }
            transitions:
              - go | a => a2
              - input: go
                from: locked
                reject: the door is locked
              - unlock | locked => open
            """
        var runner = ChartRunner(try ChartTrace.machine(yaml))
        var trace = ChartTrace()
        runner.start(into: &trace)
        let go = runner.machine.inputNames.firstIndex(of: "go")!
        runner.send(go, into: &trace)
        #expect(trace.lines == ["go: a, locked: rejected: refused"])
        runner.send(runner.machine.inputNames.firstIndex(of: "unlock")!, into: &trace)
        runner.send(go, into: &trace)
        #expect(trace.lines.last == "go: a, open -> a2, open")
    }

    @Test func aTopLevelFinalStateFinishesTheMachine() throws {
        let yaml = """
            initial: run
            states:
              run: { states: [step] }
              end: { final: true }
            transitions:
              - quit | run => end
              - again | end => run
            """
        #expect(try ChartTrace.run(yaml, ["quit", "quit"]) == ["quit: step -> end", "quit: end: rejected: finished"])
    }

    @Test func aGuardFailingToEvaluateRejectsTheInputAndChangesNothing() throws {
        let yaml = """
            initial: a
            context: { zero: 0 }
            states: { a: { states: [a1] }, b: }
            transitions:
              - input: go
                from: a1
                to: b
                when: 1 / zero == 1
            """
        #expect(try ChartTrace.run(yaml, ["go"]) == ["go: a1: rejected: expression-error"])
    }
}
