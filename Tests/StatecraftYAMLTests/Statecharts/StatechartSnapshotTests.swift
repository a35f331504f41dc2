import Statecraft
import Testing

/// Snapshots of statecharts in the engine: the configuration and every history record survive
/// a restore and a round trip through the snapshot document, and the fingerprint tells
/// statecharts apart by their shape.
struct StatechartSnapshotTests {
    @Test func aRestoredRunnerContinuesExactlyAsTheOriginal() throws {
        let machine = try ChartTrace.machine(StatechartSemanticsTests.history)
        func id(_ input: String) -> Int { machine.inputNames.firstIndex(of: input)! }
        var original = ChartRunner(machine)
        var trace = ChartTrace()
        original.start(into: &trace)
        for input in ["power", "faster", "down"] { original.send(id(input), into: &trace) }

        var restored = ChartRunner(machine)
        let codec = SnapshotCodec(machine)
        restored.restore(try codec.decode(codec.encode(codec.snapshot(of: original))))
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
        let codec = SnapshotCodec(machine)
        restored.restore(try codec.decode(codec.encode(codec.snapshot(of: runner))))
        restored.send(0, into: &trace)
        #expect(trace.lines.last == "quit: end: rejected: finished")
    }

    @Test func theDocumentHoldsTheConfigurationAndEachRecordedHistory() throws {
        let machine = try ChartTrace.machine(StatechartSemanticsTests.history)
        func id(_ input: String) -> Int { machine.inputNames.firstIndex(of: input)! }
        var runner = ChartRunner(machine)
        var trace = ChartTrace()
        runner.start(into: &trace)
        for input in ["power", "faster", "down"] { runner.send(id(input), into: &trace) }
        let codec = SnapshotCodec(machine)
        let text = String(decoding: codec.encode(codec.snapshot(of: runner)), as: UTF8.self)
        #expect(text.contains(#""state": ["off"]"#), "\(text)")
        #expect(text.contains("\"history\": {\n    \"shallowMemory\": [\"mode\"],\n    \"deepMemory\": [\"fast\"]\n  }"), "\(text)")
        #expect(try codec.decode(Array(text.utf8)) == codec.snapshot(of: runner))
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
