import Testing

@testable import Statecraft

/// The semantics of docs/semantics.md, rule by rule, on machines built in Swift.
struct RunnerTests {
    func row(_ input: String, _ from: [String], _ to: String?, when: ExpressionSource? = nil, _ effects: [Named] = [])
        -> TransitionDefinition
    {
        TransitionDefinition(Named(input), from: .states(from.map { Named($0) }), to: to.map { Named($0) }, when: when, effects: effects)
    }

    @Test func selectionTakesTheFirstTrueGuardInFileOrder() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(5))],
                inputs: [InputDeclaration("go")], states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("c"), StateDeclaration("d")],
                transitions: [
                    row("go", ["a"], "b", when: "n > 10"),
                    row("go", ["a"], "c", when: "n > 1"),
                    row("go", ["a"], "d"),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        #expect(recorder.entries.last?.state == "c")
    }

    @Test func noCandidateGuardsFalseAndFinalAreDistinct() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("open", .bool(false))],
                states: [StateDeclaration("a"), StateDeclaration("done", isFinal: true)],
                transitions: [row("go", ["a"], "done", when: "open"), row("finish", ["a"], "done"), row("stay", ["done"], nil)]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("stay", into: &recorder)
        runner.send("go", into: &recorder)
        runner.send("finish", into: &recorder)
        runner.send("go", into: &recorder)
        runner.send("stay", into: &recorder)
        #expect(recorder.entries.map { $0.result.rejection?.rawValue ?? "ok" } == [
            "no-transition", "guard-rejected", "ok", "finished", "finished",
        ])
        #expect(recorder.entries.map(\.state) == ["a", "a", "done", "done", "done"])
    }

    @Test func effectsRunExitThenTransitionThenEntry() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a",
                states: [
                    StateDeclaration("a", entry: ["enterA"], exit: ["leaveA"]),
                    StateDeclaration("b", entry: ["enterB1", "enterB2"], exit: ["leaveB"]),
                ],
                transitions: [
                    row("go", ["a"], "b", ["t1", "t2"]),
                    row("again", ["b"], "b", ["t3"]),
                    row("stay", ["b"], nil, ["t4"]),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.start(into: &recorder)
        runner.send("go", into: &recorder)
        runner.send("again", into: &recorder)
        runner.send("stay", into: &recorder)
        #expect(recorder.entries.map(\.effects) == [
            ["enterA"],
            ["leaveA", "t1", "t2", "enterB1", "enterB2"],
            ["leaveB", "t3", "enterB1", "enterB2"],  // an explicit `to` equal to the source is external
            ["t4"],  // an omitted `to` stays without exit or entry
        ])
        #expect(recorder.entries[0].result.isStart)
    }

    @Test func noStartResultWithoutInitialEntryEffects() throws {
        let machine = try compile(
            MachineDefinition(name: "m", initial: "a", states: [StateDeclaration("a")], transitions: [row("go", ["a"], nil)]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.start(into: &recorder)
        #expect(recorder.entries.isEmpty)
    }

    @Test func wildcardSourceCoversEveryNonFinalState() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a",
                states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("end", isFinal: true)],
                transitions: [
                    row("next", ["a"], "b"),
                    TransitionDefinition("reset", from: .anyNonFinal(.unknown), to: "a"),
                    row("end", ["b"], "end"),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        for input in ["reset", "next", "reset", "next", "end", "reset"] { runner.send(input, into: &recorder) }
        #expect(recorder.entries.map(\.state) == ["a", "b", "a", "b", "end", "end"])
        #expect(recorder.entries.last?.result.rejection == .finished)
    }

    @Test func sentInputsRunToCompletionInFIFOOrder() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("log", .string(""))],
                states: [StateDeclaration("a")],
                effects: [
                    EffectDefinition("fanOut", sends: [.init("x"), .init("y")]),
                    EffectDefinition("fromX", assignments: [.init("log", "log + \"x\"")], sends: [.init("z")]),
                    EffectDefinition("fromY", assignments: [.init("log", "log + \"y\"")]),
                    EffectDefinition("fromZ", assignments: [.init("log", "log + \"z\"")]),
                ],
                transitions: [
                    row("go", ["a"], nil, ["fanOut"]), row("x", ["a"], nil, ["fromX"]), row("y", ["a"], nil, ["fromY"]),
                    row("z", ["a"], nil, ["fromZ"]),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        // go, then its queue x, y, then z queued by x: first in, first out.
        #expect(recorder.entries.map { machine.inputNames[$0.result.input] } == ["go", "x", "y", "z"])
        #expect(recorder.entries.map { $0.result.sentBy >= 0 ? machine.effectNames[$0.result.sentBy] : "-" } == [
            "-", "fanOut", "fanOut", "fromX",
        ])
        #expect(runner.context == [.string("xyz")])
    }

    @Test func aLivelockStopsAtTheStepLimit() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a")],
                effects: [EffectDefinition("again", sends: [.init("loop"), .init("loop")])],
                transitions: [row("loop", ["a"], nil, ["again"]), row("other", ["a"], nil)]))
        var runner = TableRunner(machine, stepLimit: 5)
        var recorder = Recorder()
        runner.send("loop", into: &recorder)
        #expect(recorder.entries.count == 7)  // the external input, 5 queued, and the one past the limit
        let last = try #require(recorder.entries.last?.result)
        #expect(last.rejection == .stepLimit)
        #expect(last.discarded > 0)
        #expect(machine.message(for: last, stepLimit: 5).contains("more than 5 queued inputs"))
        // The queue is empty afterwards: the next external input runs normally.
        recorder.entries.removeAll()
        runner.send("other", into: &recorder)
        #expect(recorder.outcomes == ["1:accepted"])
    }

    @Test func ignorePolicyReportsOnlyNoTransitionAsIgnored() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", onUnhandled: .ignore, context: [ContextVariable("ok", .bool(false))],
                states: [StateDeclaration("a"), StateDeclaration("b")],
                transitions: [row("go", ["a"], "b", when: "ok"), row("back", ["b"], "a")]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("back", into: &recorder)
        runner.send("go", into: &recorder)
        #expect(recorder.entries[0].result.outcome == .ignored)
        #expect(!recorder.entries[0].result.isRejected)
        #expect(recorder.entries[1].result.rejection == .guardRejected, "a false guard is still a rejection")
    }

    @Test func expressionErrorsChangeNothing() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(1)), ContextVariable("d", .int(0))],
                inputs: [InputDeclaration("divide"), InputDeclaration("check")],
                states: [StateDeclaration("a"), StateDeclaration("b")],
                effects: [EffectDefinition("bad", assignments: [.init("n", "n + 1"), .init("n", "n / d")], sends: [.init("check")])],
                transitions: [row("divide", ["a"], "b", ["bad"]), row("check", ["a"], nil, when: "n / d > 0")]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("divide", into: &recorder)
        runner.send("check", into: &recorder)
        #expect(recorder.entries.map { $0.result.rejection } == [.expressionError, .expressionError])
        #expect(runner.state == 0)
        #expect(runner.context == [.int(1), .int(0)], "the first assignment of the failed effect is not kept")
        #expect(machine.message(for: recorder.entries[0].result) == "division by zero in 'n / d' of effect 'bad'; nothing changed")
        #expect(machine.message(for: recorder.entries[1].result) == "division by zero in the guard 'n / d > 0'; nothing changed")
    }

    @Test func assignmentsRunInWrittenOrderAndSeeEachOther() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("x", .int(1)), ContextVariable("y", .int(0))],
                inputs: [InputDeclaration("go", argumentType: .int)], states: [StateDeclaration("a")],
                effects: [EffectDefinition("step", assignments: [.init("x", "x + arg"), .init("y", "x * 2")])],
                transitions: [row("go", ["a"], nil, ["step"])]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", .int(4), into: &recorder)
        #expect(runner.context == [.int(5), .int(10)])
        #expect(machine.argumentIsRead == [true])
    }

    /// Bodies that only copy constants, variables and the argument are taken straight from the
    /// dispatch table; they must behave as the bodies of a guarded row, which are evaluated.
    @Test func copyOnlyBodiesRunInOrderAndSeeEachOtherLikeEvaluatedOnes() throws {
        func run(guarded: Bool) throws -> [[Value]] {
            let machine = try compile(
                MachineDefinition(
                    name: "m", initial: "a",
                    context: [ContextVariable("x", .int(1)), ContextVariable("y", .int(0)), ContextVariable("s", .string(""))],
                    inputs: [InputDeclaration("go", argumentType: .int), InputDeclaration("name", argumentType: .string)],
                    states: [
                        StateDeclaration("a", exit: ["leaveA"]),
                        StateDeclaration("b", entry: ["enterB"]),
                    ],
                    effects: [
                        EffectDefinition("leaveA", assignments: [.init("y", "x"), .init("x", "arg")]),
                        EffectDefinition("own", assignments: [.init("y", "x"), .init("x", "7")]),
                        EffectDefinition("enterB", assignments: [.init("s", "\"entered\"")]),
                        EffectDefinition("rename", assignments: [.init("s", "arg")]),
                    ],
                    transitions: [
                        row("go", ["a"], "b", when: guarded ? "true" : nil, ["own"]),
                        row("go", ["b"], nil, when: guarded ? "true" : nil, ["own"]),
                        row("name", ["b"], nil, when: guarded ? "true" : nil, ["rename"]),
                    ]))
            #expect(machine.table.cells.contains { $0.code >= 0 } == !guarded)
            var runner = TableRunner(machine)
            var recorder = Recorder()
            runner.send("go", .int(5), into: &recorder)
            runner.send("go", .int(9), into: &recorder)
            runner.send("name", .string("z"), into: &recorder)
            #expect(recorder.outcomes == ["0:accepted", "0:accepted", "1:accepted"])
            return recorder.entries.map(\.context)
        }
        let direct = try run(guarded: false)
        #expect(direct == [
            [.int(7), .int(5), .string("entered")],  // leaveA: y = 1, x = 5; own: y = 5, x = 7; enterB
            [.int(7), .int(7), .string("entered")],  // a stay: no exit or entry
            [.int(7), .int(7), .string("z")],
        ])
        #expect(try run(guarded: true) == direct)
    }

    @Test func startEffectsCanSendBeforeTheFirstInput() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "idle", states: [StateDeclaration("idle", entry: ["boot"]), StateDeclaration("ready")],
                effects: [EffectDefinition("boot", sends: [.init("init")])], transitions: [row("init", ["idle"], "ready")]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.start(into: &recorder)
        #expect(recorder.outcomes == ["start:accepted", "0:accepted"])
        #expect(runner.state == 1)
    }
}
