import Testing

@testable import Statecraft

/// Internal inputs (`inputs: { done: { internal: true } }`): only effects may send them.
@Suite struct InternalInputTests {
    static let job = MachineDefinition(
        name: "job", initial: "idle",
        inputs: [InputDeclaration("start"), InputDeclaration("finished", isInternal: true), InputDeclaration("fail", argumentType: .string, isInternal: true)],
        states: [StateDeclaration("idle"), StateDeclaration("running"), StateDeclaration("done")],
        effects: [EffectDefinition("work", sends: [.init("finished")])],
        transitions: [
            TransitionDefinition("start", from: .states(["idle"]), to: "running", effects: ["work"]),
            TransitionDefinition("finished", from: .states(["running"]), to: "done"),
            TransitionDefinition("fail", from: .states(["running"]), to: "idle"),
            TransitionDefinition("start", from: .states(["done"]), to: "idle"),
        ])

    @Test func effectsSendThemAsUsual() throws {
        let machine = try compile(Self.job)
        #expect(machine.inputIsInternal == [false, true, true])
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("start", into: &recorder)
        #expect(recorder.outcomes == ["0:accepted", "1:accepted"])
        #expect(recorder.entries.last?.state == "done")
    }

    @Test func theSwiftAPIRefusesThemFromOutside() throws {
        let machine = try StateMachine(try compile(Self.job))
        let result = machine.send("finished")
        #expect(result.error?.kind == .unknownInput)
        #expect(result.error?.message == "input 'finished' is internal: only effects may send it")
        #expect(machine.send("fail", .string("x")).error?.message == "input 'fail' is internal: only effects may send it")
        #expect(machine.state == "idle")
        // An unknown name is not told about internal inputs.
        #expect(machine.send("finishd").error?.message == "unknown input 'finishd'")
        #expect(machine.send("strt").error?.message == "unknown input 'strt' (did you mean 'start'?)")
    }

    /// A closure bound to an effect is the Swift side of that effect: it may send them.
    @Test func aBoundEffectClosureMaySendThem() throws {
        let definition = MachineDefinition(
            name: "job", initial: "idle", inputs: [InputDeclaration("start"), InputDeclaration("finished", isInternal: true)],
            states: [StateDeclaration("idle"), StateDeclaration("running"), StateDeclaration("done")],
            transitions: [
                TransitionDefinition("start", from: .states(["idle"]), to: "running", effects: ["work"]),
                TransitionDefinition("finished", from: .states(["running"]), to: "done"),
            ])
        let machine = try StateMachine(try compile(definition), effects: ["work": { call in call.machine.send("finished") }])
        #expect(machine.send("start").isSuccess)
        #expect(machine.state == "done")
    }

    @Test func theFingerprintCountsWhetherAnInputIsInternal() throws {
        var external = Self.job
        external.inputs![1].isInternal = false
        #expect(try compile(Self.job).fingerprint != (try compile(external).fingerprint))
    }

    @Test func theLinterDoesNotCallAnInternalInputThatTransitionsUseUnused() throws {
        let machine = try compile(Self.job)
        #expect(MachineLinter.lint(machine, definition: Self.job).isEmpty)
    }
}
