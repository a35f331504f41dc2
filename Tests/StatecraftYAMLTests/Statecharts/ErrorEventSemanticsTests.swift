import Statecraft
import StatecraftYAML
import Testing

/// `on_error: raise` on ``ChartRunner`` (docs/semantics.md#error-events): where
/// `error.execution` joins the queue, what a failing step keeps, and the warnings loading gives.
struct ErrorEventSemanticsTests {
    /// `go`'s first effect queues `first` and fails; the second effect still runs and queues
    /// `second`: the error sits between them, where it happened.
    static let machine = """
        initial: a
        on_error: raise
        context: { n: 0, trail: "" }
        inputs: { go: , first: , second: , never: , error.execution: }
        states: [a, b]
        effects:
          failing:
            - send: first
            - set: { n: 1 / n }
            - send: never
          after: { send: second }
          mark: { set: { trail: 'trail + input() + ";"' } }
        transitions:
          - go | a => b | failing, after
          - first | b | mark
          - second | b | mark
          - error.execution | b | mark
          - never | b | mark
        """

    @Test func theErrorIsQueuedWhereTheStepFailed() throws {
        #expect(
            try ChartTrace.run(Self.machine, ["go"]) == [
                "go: a -> b / failing, after",
                "  first: b -> b / mark",
                "  error.execution: b -> b / mark",
                "  second: b -> b / mark",
            ])
    }

    @Test func theStepsBeforeTheFailureKeepWhatTheyDid() throws {
        var runner = try ChartRunner(ChartTrace.machine(Self.machine))
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(try #require(runner.machine.inputNames.firstIndex(of: "go")), into: &trace)
        #expect(runner.context == [.int(0), .string("first;error.execution;second;")])
    }

    /// Nobody takes `error.execution`: the failure prints no result, and the input is accepted.
    @Test func anErrorNobodyTakesIsDropped() throws {
        let machine = Self.machine.replacingOccurrences(of: "  - error.execution | b | mark\n", with: "")
        #expect(
            try ChartTrace.run(machine, ["go"]) == [
                "go: a -> b / failing, after",
                "  first: b -> b / mark",
                "  second: b -> b / mark",
            ])
    }

    @Test func aFailingGuardIsFalseAndTheNextCandidateIsTried() throws {
        let machine = """
            initial: a
            on_error: raise
            context: { n: 0 }
            states: [a, b, c, d]
            transitions:
              - input: go
                from: a
                to: b
                when: 1 / n > 0
              - go | a => c
              - error.* | c => d
            """
        #expect(try ChartTrace.run(machine, ["go"]) == ["go: a -> c", "  error.execution: c -> d"])
    }

    @Test func loadMistakesAreWarningsThatSayTheyRaise() {
        let machine = """
            initial: a
            on_error: raise
            states: [a, b]
            effects:
              broken: { set: { missing: 1 } }
            transitions:
              - input: go
                from: a
                to: b
                when: 1 +
                effects: [broken]
            """
        #expect(
            ChartTrace.diagnostics(machine) == [
                "5:20 undefined-variable: effect 'broken' sets undefined context variable 'missing'; it raises error.execution when it runs (on_error: raise)",
                "10:14 expression-syntax: in a guard '1 +': expected a value, a name, '(', '[', '!' or '-', found the end of the expression; it raises error.execution when it runs (on_error: raise)",
            ])
        // Without on_error: raise, the same mistakes are errors.
        let rejecting = YAMLFile.load(bytes: Array(machine.replacingOccurrences(of: "on_error: raise\n", with: "").utf8), defaultName: "test")
        #expect(rejecting.machine == nil)
        #expect(rejecting.diagnostics.map(\.severity) == [.error, .error])
    }

    /// `input()` keeps the last input's name in the eventless steps that follow it.
    @Test func inputKeepsTheLastInputInEventlessSteps() throws {
        let machine = """
            initial: a
            context: { seen: "" }
            states: [a, b, c]
            effects:
              note: { set: { seen: input() } }
            transitions:
              - go | a => b
              - from: b
                to: c
                when: input() == "go"
                effects: [note]
            """
        var runner = try ChartRunner(ChartTrace.machine(machine))
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(0, into: &trace)
        #expect(trace.lines == ["go: a -> b", "  (eventless): b -> c / note"])
        #expect(runner.context == [.string("go")])
    }
}
