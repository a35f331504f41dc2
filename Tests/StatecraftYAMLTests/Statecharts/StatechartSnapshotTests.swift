import Statecraft
import Testing

/// Snapshots of statecharts in the engine: the configuration and every history record survive
/// a restore, and the fingerprint tells statecharts apart by their shape. (`smrun --state`
/// does not write them yet.)
struct StatechartSnapshotTests {
    @Test func aRestoredRunnerContinuesExactlyAsTheOriginal() throws {
        let machine = try ChartTrace.machine(StatechartSemanticsTests.history)
        func id(_ input: String) -> Int { machine.inputNames.firstIndex(of: input)! }
        var original = ChartRunner(machine)
        var trace = ChartTrace()
        original.start(into: &trace)
        for input in ["power", "faster", "down"] { original.send(id(input), into: &trace) }

        var restored = ChartRunner(machine)
        restored.restore(Self.snapshot(of: original))
        var originalTrace = ChartTrace()
        var restoredTrace = ChartTrace()
        for input in ["deep", "down", "shallow"] {
            original.send(id(input), into: &originalTrace)
            restored.send(id(input), into: &restoredTrace)
        }
        #expect(restoredTrace.lines == originalTrace.lines)
        #expect(restoredTrace.lines == ["deep: off -> fast", "down: fast -> off", "shallow: off -> slow"])
    }

    @Test func aFinishedStatechartStaysFinishedAfterARestore() throws {
        let yaml = """
            initial: run
            states:
              run: { states: [step] }
              end: { final: true }
            transitions:
              - quit | run => end
            """
        let machine = try ChartTrace.machine(yaml)
        var runner = ChartRunner(machine)
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(0, into: &trace)
        var restored = ChartRunner(machine)
        restored.restore(Self.snapshot(of: runner))
        restored.send(0, into: &trace)
        #expect(trace.lines.last == "quit: end: rejected: finished")
    }

    /// What a snapshot of `runner` holds.
    static func snapshot(of runner: borrowing ChartRunner) -> MachineSnapshot {
        let (configuration, histories) = runner.savedState
        return MachineSnapshot(
            machineName: runner.machine.name, fingerprint: runner.machine.fingerprint, state: configuration[0], context: runner.context,
            configuration: configuration, histories: histories)
    }

    @Test func theFingerprintCoversTheTreeAndTheTransitionsKinds() throws {
        let base = """
            initial: a
            states:
              a: { states: [a1, a2] }
              b: { states: [b1, b2] }
            transitions:
              - input: go
                from: a
                to: a2
            """
        let fingerprints = try [
            base,
            base.replacing("a: { states: [a1, a2] }", with: "a: { initial: a2, states: [a1, a2] }"),
            base.replacing("b: { states: [b1, b2] }", with: "b: { parallel: true, states: [b1, b2] }"),
            base + "\n    type: internal",
            base.replacing("to: a2", with: "to: [a2]\n  - { from: b1, to: b2, when: 'false' }"),
        ].map { try ChartTrace.machine($0).fingerprint }
        #expect(Set(fingerprints).count == fingerprints.count)
    }
}
