import Statecraft
import Testing

/// Effect steps in statecharts, run by ``ChartRunner``: the external queue waits for the internal
/// queue and for eventless transitions, and branches see the context of the step.
struct StatechartEffectStepTests {
    static let machine = """
        initial: top
        context: { trail: "" }
        inputs: { go: , inner: , outer: , late: }
        states:
          top:
            initial: a
            states: [a, b, c]
        effects:
          fanOut:
            - send: { input: outer, queue: external }
            - send: inner
          markInner: { set: { trail: 'trail + "i"' }, send: { input: late, queue: external } }
          markOuter:
            - set: { trail: 'trail + "o"' }
            - if: in(c)
              do: { set: { trail: 'trail + "c"' } }
              else: { set: { trail: 'trail + "?"' } }
          markLate: { set: { trail: 'trail + "l"' } }
        transitions:
          - go | a | fanOut
          - inner | a => b | markInner
          - from: b
            to: c
          - outer | c | markOuter
          - late | c | markLate
        """

    @Test func externalInputsWaitForTheInternalQueueAndEventlessTransitions() throws {
        #expect(
            try ChartTrace.run(Self.machine, ["go"]) == [
                "go: a -> a / fanOut",
                "  inner: a -> b / markInner",
                "  (eventless): b -> c",
                "  outer: c -> c / markOuter",
                "  late: c -> c / markLate",
            ])
    }

    @Test func aBranchSeesTheConfigurationThroughIn() throws {
        var runner = ChartRunner(try ChartTrace.machine(Self.machine))
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(try #require(runner.machine.inputNames.firstIndex(of: "go")), into: &trace)
        #expect(runner.context == [.string("iocl")])
    }
}
