import Statecraft
import StatecraftYAML
import Testing

/// Every mistake in a statechart's shape is an error naming where it is and what is wrong.
struct StatechartDiagnosticsTests {
    @Test func anUnknownKeyInAStateIsNamedWithASuggestion() {
        let yaml = """
            initial: a
            states:
              a: { intial: b, states: [b] }
            transitions: []
            """
        let found = ChartTrace.diagnostics(yaml)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("3:8 unknown-key: unknown key 'intial' in state 'a' (did you mean 'initial'?)") == true)
    }

    @Test func aChildNamedLikeAnotherStateIsADuplicate() {
        let yaml = """
            initial: a
            states:
              a: { states: [b] }
              b:
            transitions: []
            """
        #expect(ChartTrace.diagnostics(yaml) == ["4:3 duplicate-state: state 'b' is declared twice (first at line 3)"])
    }

    @Test func initialMustBeADescendantOfACompoundState() {
        let yaml = """
            initial: a
            states:
              a: { initial: c, states: [b] }
              c: { initial: d }
              d: { initial: b2, states: [b2] }
              p: { parallel: true, initial: x, states: [x, y] }
              q: { initial: nope, states: [r] }
            transitions: []
            """
        #expect(
            ChartTrace.diagnostics(yaml) == [
                "3:17 invalid-initial: initial of 'a' is 'c', which is not inside 'a'",
                "4:17 invalid-initial: 'initial' of state 'c', which has no children",
                "6:33 invalid-initial: parallel state 'p' enters every region; it takes no 'initial' (name the states in a transition's 'to' instead)",
                "7:17 undefined-state: initial of 'q' refers to undefined state 'nope'",
            ])
    }

    @Test func historyFinalAndParallelStatesHaveTheirShapes() {
        let yaml = """
            initial: a
            states:
              a: { states: { b: , h: { history: shalow } } }
              top: { history: shallow }
              end: { final: true, states: [inside] }
              p: { parallel: true }
            transitions: []
            """
        #expect(
            ChartTrace.diagnostics(yaml) == [
                "3:37 invalid-value: 'history' is 'shallow' or 'deep', not 'shalow' (did you mean 'shallow'?)",
                "4:3 invalid-state: history state 'top' is at the top level; a history state is a child of the state whose past it recalls",
                "5:3 invalid-state: final state 'end' has children; a final state is atomic",
                "6:3 invalid-state: parallel state 'p' has no regions; give it child states under 'states'",
            ])
    }

    @Test func inOfAnUnknownStateIsAnError() {
        let yaml = """
            initial: a
            states: [a, b]
            transitions:
              - input: go
                from: a
                to: stopped
                when: in(stoped)
            """
        #expect(
            ChartTrace.diagnostics(yaml.replacing("states: [a, b]", with: "states: [a, stopped]")) == [
                "7:11 expression-type: in a guard 'in(stoped)': in() refers to undefined state 'stoped' (did you mean 'stopped'?)"
            ])
    }

    @Test func targetsOfOneTransitionMustBeInDifferentRegions() {
        let yaml = """
            initial: off
            states:
              off:
              p: { parallel: true, states: { r1: { states: [a, b] }, r2: { states: [c] } } }
            transitions:
              - input: go
                from: off
                to: [a, b]
              - input: in
                from: off
                to: [p, c]
            """
        #expect(
            ChartTrace.diagnostics(yaml) == [
                "6:5 invalid-target: transition's targets cannot be entered together: 'a' and 'b' are in the same region ('r1'), where only one state is active at a time",
                "9:5 invalid-target: transition's targets cannot be entered together: 'p' and 'c' are one inside the other; name the innermost",
            ])
    }

    @Test func anEventlessTransitionWithNoTargetAndNoGuardLoops() {
        let yaml = """
            initial: a
            states: [a]
            effects: { tick: }
            transitions:
              - { from: a, effects: [tick] }
            """
        #expect(ChartTrace.diagnostics(yaml) == ["5:5 eventless-cycle: eventless transitions without guards loop forever: 'a' -> 'a'; give one a guard or an input"])
    }

    /// `levels` states each inside the last, in flow style (a small file): `{s0: {states: ...}}`.
    static func nested(_ levels: Int) -> String {
        var yaml = "initial: s0\nstates: "
        for level in 0..<levels { yaml += "{s\(level): {states: " }
        return yaml + "[leaf]" + String(repeating: "}}", count: levels) + "\ntransitions: []\n"
    }

    @Test func statesNestedTenThousandDeepAreRefusedAtOnce() {
        let clock = ContinuousClock()
        var found: [Diagnostic] = []
        let elapsed = clock.measure { found = YAMLFile.load(bytes: Array(Self.nested(10_000).utf8), defaultName: "deep").diagnostics }
        #expect(found.map(\.code) == [.limitExceeded])
        #expect(elapsed < .seconds(1))
    }

    @Test func statesNestMostAHundredDeepEvenWhenTheDocumentMayNestDeeper() {
        let found = YAMLFile.load(bytes: Array(Self.nested(150).utf8), defaultName: "deep", limits: LoadLimits(maximumDepth: 1_000)).diagnostics
        #expect(found.map(\.message) == ["states nest more than 100 levels deep"])
        #expect(YAMLFile.load(bytes: Array(Self.nested(99).utf8), defaultName: "deep", limits: LoadLimits(maximumDepth: 1_000)).machine != nil)
    }

    @Test func twentyParallelRegionsOfTenStatesLoadAndRunWithoutTheProductOfRegions() throws {
        var yaml = "initial: p\nstates:\n  p:\n    parallel: true\n    states:\n"
        for region in 0..<20 {
            yaml += "      r\(region): { states: [" + (0..<10).map { "s\(region)_\($0)" }.joined(separator: ", ") + "] }\n"
        }
        yaml += "transitions:\n"
        for region in 0..<20 {
            for state in 0..<10 { yaml += "  - next | s\(region)_\(state) => s\(region)_\((state + 1) % 10)\n" }
        }
        let clock = ContinuousClock()
        var machine: CompiledMachine?
        let elapsed = clock.measure { machine = YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "wide").machine }
        #expect(elapsed < .seconds(1))
        var runner = ChartRunner(try #require(machine))
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(0, into: &trace)
        #expect(runner.activeAtomicStates.map { runner.machine.stateNames[$0] } == (0..<20).map { "s\($0)_1" })
    }
}

/// Statechart options in a machine without nesting are checked as in any statechart.
struct FlatStatechartOptionTests {
    @Test func severalTargetsAtTheTopLevelAreAnError() {
        let yaml = """
            initial: a
            states: [a, b, c]
            transitions:
              - input: go
                from: a
                to: [b, c]
            """
        #expect(
            ChartTrace.diagnostics(yaml) == [
                "4:5 invalid-target: transition's targets cannot be entered together: 'b', 'c' are states of the top level, where only one state is active at a time"
            ])
    }

    @Test func aHistoryOrParallelStateWithoutAParentOrChildrenIsAnError() {
        let yaml = """
            initial: a
            states:
              a:
              h: { history: deep }
              p: { parallel: true }
            transitions: []
            """
        #expect(
            ChartTrace.diagnostics(yaml) == [
                "4:3 invalid-state: history state 'h' is at the top level; a history state is a child of the state whose past it recalls",
                "5:3 invalid-state: parallel state 'p' has no regions; give it child states under 'states'",
            ])
    }
}
