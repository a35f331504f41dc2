import Statecraft
import Testing

@testable import StatecraftYAML

/// Scenario files (docs/testing-machines.md) decoded, checked against their machine, and run.
struct ScenarioFileDecoderTests {
    static let machine: CompiledMachine = {
        let loaded = YAMLFile.load(
            bytes: Array(
                """
                initial: idle
                context: { count: 0, ratio: 0.5, label: null }
                inputs: { start: , add: int, scale: double, name: string }
                states: { idle: , busy: { entry: [light] }, done: { final: true } }
                effects:
                  bump: { set: { count: count + arg } }
                  rescale: { set: { ratio: arg } }
                  rename: { set: { label: arg } }
                  finish: { send: [start] }
                transitions:
                  - start | idle => busy
                  - add   | busy | bump
                  - scale | busy | rescale
                  - name  | busy | rename
                  - start | busy => done
                """.utf8), defaultName: "m")
        return loaded.machine!
    }()

    func load(_ text: String) -> ScenarioFileLoader.LoadResult {
        ScenarioFileLoader.load(bytes: Array(text.utf8))
    }

    /// `code@line:column` for each problem, decoding and checking against the machine.
    func problems(_ text: String) -> [String] {
        let loaded = load(text)
        let checked = loaded.file.map { ScenarioFileLoader.check($0, against: Self.machine) } ?? []
        return (loaded.diagnostics + checked).map { "\($0.code.rawValue)@\($0.position.map { "\($0)" } ?? "-")" }
    }

    @Test func everyKeyIsDecodedWithItsPosition() throws {
        let loaded = load(
            """
            machine: ../m.yaml
            scenarios:
              - name: all keys
                context: { count: 2 }
                state: busy
                steps:
                  - send: { input: add, arg: 3 }
                    expect: { ok: true, state: busy, effects: [bump], context: { count: 5 }, finished: false }
                  - send: start
                    expect: { error: finished, sent: [{ input: start, state: done, error: no-transition }] }
                  - expect: { state: done }
            """)
        #expect(loaded.diagnostics.isEmpty)
        let file = try #require(loaded.file)
        #expect(file.machinePath == "../m.yaml" && file.machinePathPosition == SourcePosition(line: 1, column: 10))
        let scenario = try #require(file.scenarios.first)
        #expect(scenario.name == "all keys" && scenario.position == SourcePosition(line: 3, column: 5))
        #expect(scenario.state?.map(\.name) == ["busy"])
        #expect(scenario.context.map(\.variable.name) == ["count"] && scenario.context.map(\.value) == [.int(2)])
        #expect(scenario.steps.count == 3)
        let first = scenario.steps[0]
        #expect(first.position == SourcePosition(line: 7, column: 9))
        #expect(first.send?.input.name == "add" && first.send?.argument == .int(3))
        #expect(first.expectation.ok?.value == true && first.expectation.state?.value.name == "busy")
        #expect(first.expectation.effects?.value.map(\.name) == ["bump"] && first.expectation.finished?.value == false)
        #expect(first.expectation.context?.value.map(\.value) == [.int(5)])
        let second = scenario.steps[1].expectation
        #expect(second.error?.value == .finished)
        #expect(second.sent?.value.map { [$0.input?.name, $0.state?.name, $0.error?.value.rawValue] } == [["start", "done", "no-transition"]])
        #expect(scenario.steps[2].send == nil && scenario.steps[2].expectation.state?.value.name == "done")
        #expect(ScenarioFileLoader.check(file, against: Self.machine).isEmpty)
    }

    @Test func machinePathsAreRelativeToTheScenarioFile() throws {
        let file = try #require(load("machine: m.yaml\nscenarios: []\n").file)
        #expect(ScenarioFileLoader.machinePath(of: file, scenarioPath: "tests/m.test.yaml") == "tests/m.yaml")
        #expect(ScenarioFileLoader.machinePath(of: file, scenarioPath: "m.test.yaml") == "m.yaml")
        let absolute = try #require(load("machine: /x/m.yaml\nscenarios: []\n").file)
        #expect(ScenarioFileLoader.machinePath(of: absolute, scenarioPath: "tests/m.test.yaml") == "/x/m.yaml")
    }

    @Test func schemaProblemsArePositioned() {
        #expect(problems("") == ["missing-key@1:1"])
        #expect(problems("[]") == ["wrong-kind@1:1"])
        #expect(problems("machine: m\n") == ["missing-key@1:1"])
        #expect(problems("machine: m\nscenarios: {}\n") == ["wrong-kind@2:12"])
        #expect(problems("machine: m\nscenarios: []\nmachine: n\n") == ["duplicate-key@3:1"])
        #expect(problems("machine: m\nscenarios: []\nextra: 1\n") == ["unknown-key@3:1"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    stepz: []\n") == ["missing-key@3:5", "unknown-key@4:5"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    steps: [{ send: start, expect: { ok: 1 } }]\n") == ["wrong-kind@4:42"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    steps: [{ send: start, expect: { sent: start } }]\n") == ["wrong-kind@4:44"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    steps: [{ send: start, expect: { error: nope } }]\n") == ["invalid-value@4:45"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    steps: [{ send: { input: add, arg: 99999999999999999999 } }]\n") == ["invalid-value@4:40"])
        #expect(problems("machine: m\nscenarios:\n  - name: a\n    steps: [{ send: start, after: 3s }]\n") == ["unknown-key@4:28"])
    }

    @Test func namesAndTypesAreCheckedAgainstTheMachine() {
        let base = "machine: m\nscenarios:\n  - name: a\n"
        #expect(problems(base + "    state: bsy\n    steps: []\n") == ["undefined-state@4:12"])
        // A flat machine is in one state; `states` is checked against the machine's names too.
        #expect(problems(base + "    state: [idle, busy]\n    steps: []\n") == ["invalid-value@4:13"])
        #expect(problems(base + "    steps: [{ expect: { states: [busy, dne] } }]\n") == ["undefined-state@4:40"])
        #expect(problems(base + "    context: { cont: 1 }\n    steps: []\n") == ["undefined-variable@4:16"])
        #expect(problems(base + "    context: { count: 1.5 }\n    steps: []\n") == ["argument-type@4:23"])
        // An int is a double; a variable that starts as null takes null or its assigned type.
        #expect(problems(base + "    context: { ratio: 1, label: null }\n    steps: []\n") == [])
        #expect(problems(base + "    context: { label: x }\n    steps: []\n") == [])
        #expect(problems(base + "    steps: [{ send: strat }]\n") == ["undefined-input@4:21"])
        #expect(problems(base + "    steps: [{ send: add }]\n") == ["argument-type@4:21"])
        #expect(problems(base + "    steps: [{ send: { input: start, arg: 1 } }]\n") == ["argument-type@4:42"])
        #expect(problems(base + "    steps: [{ send: { input: name, arg: 1 } }]\n") == ["argument-type@4:41"])
        #expect(problems(base + "    steps: [{ send: { input: scale, arg: 2 } }]\n") == [])
        #expect(problems(base + "    steps: [{ expect: { state: don, effects: [lite], sent: [{ input: strt, state: bsy }] } }]\n")
            == ["undefined-state@4:32", "invalid-value@4:47", "undefined-input@4:70", "undefined-state@4:83"])
    }

    @Test func scenariosRunOnTheEngine() throws {
        let file = try #require(
            load(
                """
                machine: m
                scenarios:
                  - name: passes
                    steps:
                      - expect: { state: idle, effects: [] }
                      - send: start
                        expect: { state: busy, effects: [light] }
                      - send: { input: scale, arg: 2 }
                        expect: { context: { ratio: 2 } }
                  - name: fails at step 2
                    steps:
                      - send: start
                      - send: { input: add, arg: 4 }
                        expect: { state: idle, context: { count: 4 } }
                      - send: start
                """
            ).file)
        let runner = ScenarioRunner(Self.machine)
        var coverage = ScenarioCoverage(Self.machine)
        let passed = runner.run(file.scenarios[0], coverage: &coverage)
        #expect(passed.passed && passed.inputs == ["start", "scale 2.0"])
        let failed = runner.run(file.scenarios[1], coverage: &coverage)
        let failure = try #require(failed.failure)
        #expect(failure.step == 2 && failure.position == SourcePosition(line: 13, column: 9) && failure.action == "send add 4")
        #expect(failure.mismatches == [.init(key: "state", expected: "idle", actual: "busy")])
        #expect(failed.inputs == ["start", "add 4"])
        #expect(coverage.transitionsTaken == [true, true, true, false, false])
        #expect(coverage.statesEntered == [true, true, false])
        // Effects by id: the defined ones (bump, rescale, rename, finish), then the hook light.
        #expect(coverage.effectsRun == [true, true, false, false, true])
    }
}
