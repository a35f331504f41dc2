import StatecraftYAML
import Testing

@testable import Statecraft

/// Which statecharts run on a leaf table (``LeafDispatchTable``): those whose states nest but
/// that have no parallel state, history, eventless transition or `in()`; and that each rule a
/// cell's plans follow gives SCXML's results on it.
@Suite struct LeafTableTests {
    static func hasLeafTable(_ yaml: String) throws -> Bool {
        try ChartTrace.machine(yaml).chart?.leafTable != nil
    }

    // MARK: - What qualifies

    static let nested = """
        initial: idle
        inputs: [go, back]
        states:
          idle:
          outer: { states: { inner: { states: [leaf, other] } } }
        transitions:
          - go | idle => leaf
          - back | outer => idle

        """

    @Test func aMachineWhoseStatesOnlyNestRunsOnALeafTable() throws {
        #expect(try Self.hasLeafTable(Self.nested))
        #expect(try ChartTrace.run(Self.nested, ["go", "back", "back"]) == ["go: idle -> leaf", "back: leaf -> idle", "back: idle: rejected: no-transition"])
    }

    @Test(arguments: [
        ("a parallel state", "  both: { parallel: true, states: { left: { states: [l1] }, right: { states: [r1] } } }\n", ""),
        ("a history state", "  again: { states: { step: {}, was: { history: shallow } } }\n", ""),
        ("an eventless transition", "", "  - { from: other, to: idle }\n"),
        ("in() in a guard", "", "  - { input: go, from: leaf, to: other, when: in(inner) }\n"),
    ])
    func anyOtherStatechartFeatureKeepsTheGeneralRunner(feature: String, states: String, transitions: String) throws {
        let yaml = Self.nested.replacingOccurrences(of: "transitions:\n", with: states + "transitions:\n") + transitions
        #expect(try !Self.hasLeafTable(yaml), "\(feature)")
    }

    @Test func inInAnEffectKeepsTheGeneralRunner() throws {
        let yaml = """
            initial: idle
            context: { seen: false }
            inputs: [go]
            states:
              idle:
              outer: { states: [leaf] }
            effects:
              look: { set: { seen: in(outer) } }
            transitions:
              - go | idle => leaf | look
            """
        #expect(try !Self.hasLeafTable(yaml))
    }

    @Test func aTableOverTheCellLimitKeepsTheGeneralRunner() throws {
        let definition = try #require(YAMLFile.load(bytes: Array(Self.nested.utf8), defaultName: "nested").definition)
        // 5 states and 2 inputs (with done.state.outer and done.state.inner: 4) make 20 cells.
        #expect(MachineCompiler.compile(definition, maximumTableCells: 20).machine?.chart?.leafTable != nil)
        let machine = try #require(MachineCompiler.compile(definition, maximumTableCells: 19).machine)
        #expect(machine.chart?.leafTable == nil)
        var runner = ChartRunner(machine)
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(machine.inputNames.firstIndex(of: "go")!, into: &trace)
        #expect(trace.lines == ["go: idle -> leaf"])
    }

    /// With `--max-table-cells 1048576`, at most 65,536 plans: 300 states under a parent of 300
    /// transitions would be 90,000; 200 such states are 60,000.
    @Test(arguments: [(200, true), (300, false)])
    func aTableOfTooManyPlansKeepsTheGeneralRunner(leaves: Int, runsOnATable: Bool) throws {
        var yaml = "initial: box\nstates:\n  box:\n    states: [\((0..<leaves).map { "l\($0)" }.joined(separator: ", "))]\n  out:\ntransitions:\n"
        for input in 0..<300 { yaml += "  - i\(input) | box => out\n" }
        let definition = try #require(YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "wide").definition)
        let machine = try #require(MachineCompiler.compile(definition, maximumTableCells: 1 << 20).machine)
        #expect((machine.chart?.leafTable != nil) == runsOnATable)
        var runner = ChartRunner(machine)
        var trace = ChartTrace()
        runner.start(into: &trace)
        for _ in 0..<2 { runner.send(machine.inputNames.firstIndex(of: "i7")!, into: &trace) }
        #expect(trace.lines == ["i7: l0 -> out", "i7: out: rejected: no-transition"])
    }

    // MARK: - What a cell does

    /// A cell's candidates are the leaf's transitions, then its parent's, outwards, each
    /// state's in file order; the first whose guard holds wins.
    @Test func theInnermostEnabledTransitionWins() throws {
        let yaml = """
            initial: idle
            context: { n: 0 }
            inputs: [go, bump]
            states:
              idle:
              outer: { states: { inner: { states: [leaf, other] } } }
            effects:
              inc: { set: { n: n + 1 } }
            transitions:
              - go | idle => leaf
              - { input: bump, from: leaf, to: other, when: n >= 2 }
              - { input: bump, from: inner, to: idle, when: n == 3 }
              - bump | outer | inc
              - bump | outer => idle
            """
        #expect(try Self.hasLeafTable(yaml))
        #expect(
            try ChartTrace.run(yaml, ["go", "bump", "bump", "bump", "bump", "bump"]) == [
                "go: idle -> leaf", "bump: leaf -> leaf / inc", "bump: leaf -> leaf / inc", "bump: leaf -> other",
                "bump: other -> other / inc", "bump: other -> idle",
            ])
    }

    /// Every guard false is `guard-rejected`; a guard that fails to evaluate, `expression-error`.
    @Test func guardsThatFailOrFailToEvaluateRejectTheInput() throws {
        let yaml = """
            initial: leaf
            context: { n: 0 }
            inputs: [poke, load]
            states:
              outer: { states: [leaf, other] }
            effects:
              twenty: { set: { n: 20 } }
            transitions:
              - { input: poke, from: leaf, to: other, when: n > 50 }
              - { input: poke, from: outer, when: 10 / n > 1 }
              - load | outer | twenty
            """
        #expect(try Self.hasLeafTable(yaml))
        #expect(
            try ChartTrace.run(yaml, ["poke", "load", "poke"]) == [
                "poke: leaf: rejected: expression-error", "load: leaf -> leaf / twenty", "poke: leaf: rejected: guard-rejected",
            ])
    }

    /// Default entries with their `default_effects`, an internal transition (its source is not
    /// left), a self-transition of a compound state (left and entered again), a done event
    /// taken, and a top-level final state that finishes the machine.
    @Test func entriesExitsDoneEventsAndTheFinishAreThoseOfTheMicrostep() throws {
        let yaml = """
            initial: idle
            inputs: [begin, finish, again, inside, quit]
            states:
              idle:
              task:
                entry: [enterTask]
                exit: [exitTask]
                initial: step2
                default_effects: [byDefault]
                states:
                  step1:
                  step2: { entry: [enterStep2], exit: [exitStep2] }
                  complete: { final: true }
              over: { final: true }
            transitions:
              - begin | idle => task
              - finish | step2 => complete
              - { input: done.state.task, from: task, to: idle, effects: [celebrate] }
              - again | task => task
              - { input: inside, from: task, to: step1, type: internal }
              - quit | idle => over
            """
        #expect(try Self.hasLeafTable(yaml))
        #expect(
            try ChartTrace.run(yaml, ["begin", "inside", "again", "finish", "quit", "begin"]) == [
                "begin: idle -> step2 / enterTask, byDefault, enterStep2",
                "inside: step2 -> step1 / exitStep2",
                "again: step1 -> step2 / exitTask, enterTask, byDefault, enterStep2",
                "finish: step2 -> complete / exitStep2",
                "  done.state.task: complete -> idle / exitTask, celebrate",
                "quit: idle -> over",
                "begin: over: rejected: finished",
            ])
    }

    /// A refusal chosen for the leaf refuses the input; a transition of the leaf comes before
    /// its parent's refusal.
    @Test func refusalsAreChosenInTheSameOrder() throws {
        let yaml = """
            initial: box
            inputs: [next, leave]
            states:
              box: { states: [a, b] }
              out:
            transitions:
              - next | a => b
              - leave | a => out
              - { input: leave, from: box, reject: stay in the box }
            """
        #expect(try Self.hasLeafTable(yaml))
        #expect(try ChartTrace.run(yaml, ["leave"]) == ["leave: a -> out"])
        #expect(try ChartTrace.run(yaml, ["next", "leave"]) == ["next: a -> b", "leave: b: rejected: refused"])
    }

    /// `after` timers of nested states start when their state is entered and stop when it is
    /// left, as on the general runner.
    @Test func timersOfNestedStatesStartAndStop() throws {
        let yaml = """
            initial: idle
            inputs: [go]
            states:
              idle:
              waiting: { states: [first, second] }
            transitions:
              - go | idle => first
              - { after: 1s, from: first, to: second }
              - { after: 2500ms, from: waiting, to: idle }
            """
        let machine = try ChartTrace.machine(yaml)
        #expect(machine.chart?.leafTable != nil)
        var runner = ChartRunner(machine)
        var trace = ChartTrace()
        runner.start(into: &trace)
        runner.send(machine.inputNames.firstIndex(of: "go")!, into: &trace)
        runner.advance(to: 5000, into: &trace)
        #expect(trace.lines == ["go: idle -> first", "after 1s: first -> second", "after 2500ms: second -> idle"])
        #expect(runner.pendingTimerCount == 0)
    }
}
