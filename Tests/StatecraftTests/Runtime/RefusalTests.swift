import Testing

@testable import Statecraft

/// `reject: MESSAGE`: a transition that, when selected, rejects its input as `refused` with its
/// message and changes nothing.
@Suite struct RefusalTests {
    /// A review: `approve` is refused when the reviewer is the author (a guarded refusal before
    /// the transition it protects), and `withdraw` is always refused from `approved` (an
    /// unguarded refusal, the cell's only candidate).
    static let review = MachineDefinition(
        name: "review", initial: "open", context: [ContextVariable("author", .string("ann")), ContextVariable("n", .int(0))],
        inputs: [InputDeclaration("approve", argumentType: .string), InputDeclaration("withdraw"), InputDeclaration("ping")],
        states: [StateDeclaration("open", exit: ["leaving"]), StateDeclaration("approved", entry: ["entering"])],
        effects: [EffectDefinition("count", assignments: [.init("n", "n + 1")], sends: [.init("ping")])],
        transitions: [
            TransitionDefinition("approve", from: .states(["open"]), to: nil, when: "arg == author", rejecting: "self-approval is not allowed"),
            TransitionDefinition("approve", from: .states(["open"]), to: "approved", effects: ["count"]),
            TransitionDefinition("withdraw", from: .states(["approved"]), to: nil, rejecting: "an approved review stays approved"),
            TransitionDefinition("withdraw", from: .states(["open"]), to: nil),
            TransitionDefinition("ping", from: .anyNonFinal(.unknown), to: nil),
        ])

    @Test func aSelectedRefusalRejectsAndChangesNothing() throws {
        let machine = try compile(Self.review)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("approve", .string("ann"), into: &recorder)
        let refused = try #require(recorder.entries.last)
        #expect(refused.result.rejection == .refused)
        #expect(refused.state == "open" && refused.context == machine.initialContext)
        #expect(refused.effects.isEmpty, "no exit, transition or entry effect runs")
        #expect(recorder.entries.count == 1, "nothing is queued")
        #expect(machine.message(for: refused.result) == "self-approval is not allowed")
    }

    @Test func aRefusalWhoseGuardIsFalseIsPassedOverInFileOrder() throws {
        let machine = try compile(Self.review)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("approve", .string("bob"), into: &recorder)
        #expect(recorder.outcomes == ["0:accepted", "2:accepted"])
        #expect(recorder.entries[0].state == "approved" && recorder.entries[0].context == [.string("ann"), .int(1)])
    }

    @Test func anUnguardedLoneRefusalIsSettledByTheTableAlone() throws {
        let machine = try compile(Self.review)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("approve", .string("bob"), into: &recorder)
        let withdraw = machine.inputNames.firstIndex(of: "withdraw")!
        #expect(runner.sendSettled(withdraw, argument: { .null }) == .rejected(.refused))
        #expect(machine.stateNames[runner.state] == "approved")
        runner.send("withdraw", into: &recorder)
        let result = try #require(recorder.entries.last?.result)
        #expect(result.rejection == .refused)
        #expect(machine.message(for: result) == "an approved review stays approved")
        // From `open` the cell's candidate is an ordinary transition.
        var fresh = TableRunner(machine)
        #expect(fresh.sendSettled(withdraw, argument: { .null }) == .accepted)
        #expect(fresh.state == 0)
    }

    @Test func aQueuedInputCanBeRefused() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
                effects: [EffectDefinition("poke", sends: [.init("no")])],
                transitions: [
                    TransitionDefinition("go", from: .states(["a"]), to: "b", effects: ["poke"]),
                    TransitionDefinition("no", from: .states(["b"]), to: nil, rejecting: "not now"),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        #expect(recorder.outcomes == ["0:accepted", "1:refused"])
        #expect(recorder.entries[1].result.sentBy >= 0)
    }

    @Test func theSwiftAPIReportsARefusalAsItsOwnKind() throws {
        let machine = try compile(Self.review)
        let fileMachine = try StateMachine(machine)
        let result = fileMachine.send("approve", .string("ann"))
        #expect(result.error?.kind == .refused)
        #expect(result.error?.message == "self-approval is not allowed")
        #expect(fileMachine.state == "open")
    }

    @Test func aRefusalWithATargetOrEffectsIsAnError() {
        let output = MachineCompiler.compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a")],
                transitions: [
                    TransitionDefinition("go", from: .states(["a"]), to: "a", rejecting: "no", at: SourcePosition(line: 3, column: 5))
                ]))
        #expect(output.machine == nil)
        #expect(output.diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" } == ["invalid-value@3:5"])
    }

    @Test func theFingerprintCountsTheRefusalButNotWhereItIsWritten() throws {
        var withOtherMessage = Self.review
        withOtherMessage.transitions[0].refusal = "authors may not approve"
        var withoutRefusal = Self.review
        withoutRefusal.transitions.remove(at: 0)
        let base = try compile(Self.review).fingerprint
        #expect(try compile(withOtherMessage).fingerprint != base)
        #expect(try compile(withoutRefusal).fingerprint != base)
    }

    @Test func theLinterCountsARefusalAsACandidateButNotAsAWayOut() throws {
        let definition = MachineDefinition(
            name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
            transitions: [
                TransitionDefinition("go", from: .states(["a"]), to: nil, rejecting: "never", at: SourcePosition(line: 5, column: 5)),
                TransitionDefinition("go", from: .states(["a"]), to: "b", at: SourcePosition(line: 8, column: 5)),
                TransitionDefinition("back", from: .states(["b"]), to: nil, rejecting: "no way back", at: SourcePosition(line: 11, column: 5)),
            ])
        let machine = try compile(definition)
        let warnings = MachineLinter.lint(machine, definition: definition)
        // `go` to b is shadowed by the unguarded refusal before it.
        #expect(warnings.contains { $0.code == .shadowedTransition && $0.position?.line == 8 })
        // b's only transition refuses: it is not a way out.
        #expect(warnings.filter { $0.code == .trapState }.map(\.message) == [
            "state 'b' is not final but has no transition to another state; mark it 'final: true' or add a way out"
        ])
    }
}
