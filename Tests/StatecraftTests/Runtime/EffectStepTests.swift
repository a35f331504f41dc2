import Synchronization
import Testing

@testable import Statecraft

/// Effect bodies as steps (docs/semantics.md#effect-steps): branches, loops, log lines and the
/// external queue, on machines built in Swift and run by ``TableRunner``.
struct EffectStepTests {
    typealias Step = EffectDefinition.Step

    /// A one-state machine whose input `go` (argument `argumentType`) runs `effect`, with more
    /// inputs that only run effects of their own.
    func machine(
        context: [ContextVariable], argumentType: ValueType? = .int, effects: [EffectDefinition],
        more: [(input: String, effect: String)] = []
    ) throws -> CompiledMachine {
        try compile(
            MachineDefinition(
                name: "m", initial: "a", context: context,
                inputs: [InputDeclaration("go", argumentType: argumentType)] + more.map { InputDeclaration(Named($0.input)) },
                states: [StateDeclaration("a")], effects: effects,
                transitions: [TransitionDefinition("go", from: .states(["a"]), to: nil, effects: [Named(effects[0].name.name)])]
                    + more.map { TransitionDefinition(Named($0.input), from: .states(["a"]), to: nil, effects: [Named($0.effect)]) }))
    }

    func set(_ variable: String, _ expression: String) -> Step { .assign(.init(Named(variable), ExpressionSource(expression))) }

    // MARK: - if / elif / else

    @Test func aConditionalRunsTheFirstBranchThatHoldsElseItsOtherwise() throws {
        let classify = EffectDefinition(
            "classify",
            steps: [
                .conditional(
                    .init(
                        [.init("arg > 10", [set("size", "\"big\"")]), .init("arg > 5", [set("size", "\"medium\"")])],
                        otherwise: [set("size", "\"small\"")]))
            ])
        var runner = TableRunner(try machine(context: [ContextVariable("size", .string(""))], effects: [classify]))
        var recorder = Recorder()
        for n in [3, 7, 12, 20] { runner.send("go", .int(n), into: &recorder) }
        #expect(recorder.entries.map { $0.context[0] } == [.string("small"), .string("medium"), .string("big"), .string("big")])
    }

    @Test func aConditionalWithoutOtherwiseDoesNothingWhenNoBranchHolds() throws {
        let effect = EffectDefinition("e", steps: [.conditional(.init([.init("arg > 0", [set("n", "arg")])])), set("after", "after + 1")])
        var runner = TableRunner(try machine(context: [ContextVariable("n", .int(0)), ContextVariable("after", .int(0))], effects: [effect]))
        var recorder = Recorder()
        runner.send("go", .int(-1), into: &recorder)
        runner.send("go", .int(4), into: &recorder)
        #expect(recorder.entries.map(\.context) == [[.int(0), .int(1)], [.int(4), .int(2)]])
    }

    @Test func stepsRunInWrittenOrderEachSeeingTheOnesBefore() throws {
        // A branch after a set sees the new value.
        let effect = EffectDefinition("e", steps: [set("n", "arg"), .conditional(.init([.init("n == 2", [set("seen", "true")])]))])
        var runner = TableRunner(try machine(context: [ContextVariable("n", .int(0)), ContextVariable("seen", .bool(false))], effects: [effect]))
        var recorder = Recorder()
        runner.send("go", .int(2), into: &recorder)
        #expect(recorder.entries.last?.context == [.int(2), .bool(true)])
    }

    @Test func aConditionThatIsNotABoolIsATypeErrorAtItsPosition() {
        let effect = EffectDefinition(
            "e", steps: [.conditional(.init([.init(ExpressionSource("arg + 1", at: SourcePosition(line: 7, column: 11)), [])]))])
        let output = MachineCompiler.compile(
            MachineDefinition(
                name: "m", initial: "a", inputs: [InputDeclaration("go", argumentType: .int)], states: [StateDeclaration("a")],
                effects: [effect], transitions: [TransitionDefinition("go", from: .states(["a"]), to: nil, effects: ["e"])]))
        #expect(output.diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "-")" } == ["expression-type@7:11"])
        #expect(output.diagnostics.first?.message == "the condition of 'if' must be a bool, but 'arg + 1' is int")
    }

    // MARK: - log

    @Test func logStepsReachTheHandlerInOrderWithLabelAndValue() throws {
        let effect = EffectDefinition(
            "report",
            steps: [
                .log(.init(label: "start")), set("n", "arg * 2"), .log(.init(label: "n", expression: "n")),
                .log(.init(label: nil, expression: "\"done\"")),
            ])
        let lines = Mutex<[String]>([])
        var runner = TableRunner(try machine(context: [ContextVariable("n", .int(0))], effects: [effect]))
        runner.logHandler = { entry in lines.withLock { $0.append("\(entry.effect) \(entry)") } }
        var recorder = Recorder()
        runner.send("go", .int(21), into: &recorder)
        #expect(lines.withLock { $0 } == ["report start", "report n: 42", "report \"done\""])
    }

    @Test func withoutAHandlerLogStepsAreDropped() throws {
        let effect = EffectDefinition("e", steps: [.log(.init(label: "x", expression: "arg")), set("n", "arg")])
        var runner = TableRunner(try machine(context: [ContextVariable("n", .int(0))], effects: [effect]))
        var recorder = Recorder()
        runner.send("go", .int(5), into: &recorder)
        #expect(recorder.entries.last?.context == [.int(5)])
    }

    // MARK: - foreach

    @Test func foreachOverAnIntCountsFromZero() throws {
        let effect = EffectDefinition(
            "sum",
            steps: [set("total", "0"), .forEach(.init("arg", item: "i", index: "at", steps: [set("total", "total + i * 10 + at")]))])
        var runner = TableRunner(
            try machine(context: [ContextVariable("total", .int(0)), ContextVariable("i", .int(0)), ContextVariable("at", .int(0))], effects: [effect]))
        var recorder = Recorder()
        runner.send("go", .int(4), into: &recorder)
        #expect(recorder.entries.last?.context == [.int(66), .int(3), .int(3)])
        runner.send("go", .int(-2), into: &recorder)
        #expect(recorder.entries.last?.context == [.int(0), .int(3), .int(3)], "no iteration: the item keeps its value")
    }

    @Test func foreachOverAStringTakesItsCharacters() throws {
        let effect = EffectDefinition(
            "reverse", steps: [set("out", "\"\""), .forEach(.init("arg", item: "c", steps: [set("out", "c + out")]))])
        var runner = TableRunner(
            try machine(context: [ContextVariable("out", .string("")), ContextVariable("c", .string(""))], argumentType: .string, effects: [effect]))
        var recorder = Recorder()
        runner.send("go", .string("héllo"), into: &recorder)
        #expect(recorder.entries.last?.context == [.string("olléh"), .string("o")])
    }

    @Test func foreachOverMoreItemsThanTheStepLimitFailsAndAssignsNothing() throws {
        let effect = EffectDefinition("e", steps: [set("n", "1"), .forEach(.init("arg", item: "i", steps: []))])
        var runner = TableRunner(try machine(context: [ContextVariable("n", .int(0)), ContextVariable("i", .int(0))], effects: [effect]), stepLimit: 100)
        var recorder = Recorder()
        runner.send("go", .int(100), into: &recorder)
        #expect(recorder.entries.last?.result.isAccepted == true)
        runner.send("go", .int(101), into: &recorder)
        let failed = try #require(recorder.entries.last)
        #expect(failed.result.rejection == .expressionError)
        #expect(failed.result.evaluationError == .tooManyIterations(count: 101, limit: 100))
        #expect(failed.result.failedExpression == .effect(0, expression: 1), "the foreach's expression, after the set's")
        #expect(failed.context == [.int(1), .int(99)], "the values of the run before")
    }

    // MARK: - The external queue

    /// `go` sends `x1` (external), `i1` (internal); `i1`'s effect sends `x2` (external) and `i2`
    /// (internal); `x1`'s sends `i3`. Each effect appends its input's name to `trail`.
    func queueMachine(failAfterSending: Bool = false) throws -> CompiledMachine {
        func mark(_ name: String, _ sends: [EffectDefinition.Send] = []) -> EffectDefinition {
            EffectDefinition(Named("on_\(name)"), steps: [set("trail", "trail + \"\(name) \"")] + sends.map(Step.send))
        }
        var go = mark("go", [.init("x1", queue: .external), .init("i1")])
        if failAfterSending { go.steps.append(set("trail", "string(1 / 0)")) }
        return try machine(
            context: [ContextVariable("trail", .string(""))], argumentType: nil,
            effects: [
                go, mark("i1", [.init("x2", queue: .external), .init("i2")]), mark("i2"), mark("x1", [.init("i3")]), mark("i3"), mark("x2"),
            ],
            more: ["i1", "i2", "i3", "x1", "x2"].map { ($0, "on_\($0)") })
    }

    @Test func externalSendsRunOnceTheInternalQueueIsEmptyEachFollowedByWhatItSends() throws {
        var runner = TableRunner(try queueMachine())
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        #expect(recorder.entries.last?.context == [.string("go i1 i2 x1 i3 x2 ")])
        #expect(recorder.entries.map { runner.machine.inputNames[$0.result.input] } == ["go", "i1", "i2", "x1", "i3", "x2"])
    }

    @Test func aFailedTransitionQueuesNothingOnEitherQueue() throws {
        var runner = TableRunner(try queueMachine(failAfterSending: true))
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        runner.send("i2", into: &recorder)
        #expect(recorder.outcomes == ["0:expression-error", "2:accepted"])
        #expect(recorder.entries.last?.context == [.string("i2 ")])
    }

    @Test func aBodyWrittenAsAssignmentsAndSendsRunsAssignmentsFirst() throws {
        let effect = EffectDefinition("e", assignments: [.init("n", "arg")], sends: [.init("again")])
        #expect(effect.steps.count == 2)
        guard case .assign = effect.steps[0], case .send = effect.steps[1] else {
            Issue.record("assignments, then sends: \(effect.steps)")
            return
        }
    }
}
