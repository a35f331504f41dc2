import Statecraft
import Testing

/// Pending timers in snapshots (docs/snapshots.md): a runner saved at any point between steps
/// and resumed from the decoded document fires what the uninterrupted runner fires, in the
/// same order, flat or statechart; a migration keeps the timers that still fit.
@Suite struct SnapshotTimerTests {
    static let flat = """
        initial: idle
        context: { total: 0 }
        inputs:
          start: { arg: int }
          remind: { arg: int, internal: true }
          poke:
          halt:
        states: [idle, waiting, resting]
        effects:
          schedule: { send: { input: remind, arg: arg * 2, delay: 10s, id: reminder } }
          soon: { send: { input: poke, delay: 0s } }
          add: { set: { total: total + arg } }
          forget: { cancel: reminder }
        transitions:
          - start | idle => waiting | schedule
          - remind | waiting, resting | add
          - after: 5s
            from: waiting
            effects: [soon]
          - after: 5s
            from: waiting
            to: resting
          - after: 1m
            from: resting
            to: idle
          - poke | waiting, resting
          - halt | waiting, resting => idle | forget
        """

    static let chart = """
        initial: online
        inputs: [click, ping]
        states:
          online:
            states:
              idle:
              busy:
          offline:
        effects:
          later: { send: { input: ping, delay: 15s } }
        transitions:
          - click | idle => busy | later
          - ping | online
          - after: 10s
            from: busy
            to: idle
          - after: 1m
            from: online
            to: offline
          - after: 2m
            from: offline
            to: online
        """

    static let steps = ["start 21", "@wait 3s", "@wait 4s", "poke", "@wait 3s", "start 1", "@wait 1m", "halt", "start 2", "@wait 10s"]
    static let chartSteps = ["click", "@wait 5s", "@wait 7s", "click", "@wait 1m", "@wait 2m", "click", "@wait 9s"]

    /// Runs `steps` on `runner` (`@wait DURATION`, `INPUT` or `INPUT INT`).
    private func run(_ steps: ArraySlice<String>, on runner: inout TableRunner, into trace: inout TimedTrace<TableRunner>) throws {
        for step in steps {
            if let wait = try TimedTrace.wait(step) {
                runner.advance(to: runner.time + wait, into: &trace)
                continue
            }
            let parts = step.split(separator: " ")
            let input = try #require(runner.machine.inputNames.firstIndex(of: String(parts[0])))
            runner.send(input, argument: parts.count > 1 ? .int(Int(parts[1])!) : .null, into: &trace)
        }
    }

    private func run(_ steps: ArraySlice<String>, on runner: inout ChartRunner, into trace: inout TimedTrace<ChartRunner>) throws {
        for step in steps {
            if let wait = try TimedTrace.wait(step) {
                runner.advance(to: runner.time + wait, into: &trace)
            } else {
                runner.send(try #require(runner.machine.inputNames.firstIndex(of: step)), into: &trace)
            }
        }
    }

    @Test func aFlatRunnerResumedAtAnyStepFiresWhatTheUninterruptedOneFires() throws {
        let machine = try TimedTrace.machine(Self.flat)
        var whole = TimedTrace<TableRunner>()
        var runner = TableRunner(machine)
        runner.start(into: &whole)
        try run(Self.steps[...], on: &runner, into: &whole)
        #expect(whole.lines.contains("remind@10000: waiting -> waiting") || whole.lines.contains("remind@10000: resting -> resting"))
        for split in 0...Self.steps.count {
            var trace = TimedTrace<TableRunner>()
            var first = TableRunner(machine)
            first.start(into: &trace)
            try run(Self.steps[..<split], on: &first, into: &trace)
            let document = SnapshotCodec(machine).encode(SnapshotCodec(machine).snapshot(of: first))
            var resumed = TableRunner(machine)
            resumed.restore(try SnapshotCodec(machine).decode(document))
            try run(Self.steps[split...], on: &resumed, into: &trace)
            #expect(trace.lines == whole.lines, "split before step \(split)")
            #expect(resumed.context == runner.context && resumed.time == runner.time)
        }
    }

    @Test func aStatechartResumedAtAnyStepFiresWhatTheUninterruptedOneFires() throws {
        let machine = try TimedTrace.machine(Self.chart)
        var whole = TimedTrace<ChartRunner>()
        var runner = ChartRunner(machine)
        runner.start(into: &whole)
        try run(Self.chartSteps[...], on: &runner, into: &whole)
        #expect(whole.lines.contains("after 1m@60000: idle -> offline"), "\(whole.lines)")
        for split in 0...Self.chartSteps.count {
            var trace = TimedTrace<ChartRunner>()
            var first = ChartRunner(machine)
            first.start(into: &trace)
            try run(Self.chartSteps[..<split], on: &first, into: &trace)
            let codec = SnapshotCodec(machine)
            var resumed = ChartRunner(machine)
            resumed.restore(try codec.decode(codec.encode(codec.snapshot(of: first))))
            try run(Self.chartSteps[split...], on: &resumed, into: &trace)
            #expect(trace.lines == whole.lines, "split before step \(split)")
        }
    }

    @Test func aMachineWithoutTimersSavesNoClock() throws {
        let machine = try TimedTrace.machine("initial: a\ninputs: [go]\nstates: [a, b]\ntransitions:\n  - go | a => b\n")
        let codec = SnapshotCodec(machine)
        let text = String(decoding: codec.encode(state: 0, context: []), as: UTF8.self)
        #expect(!text.contains("clock") && !text.contains("timers"), "\(text)")
        #expect(try codec.decode(Array(text.utf8)).timers.isEmpty)
    }

    @Test func aMigrationKeepsTheTimersThatStillFitAndNamesTheOthers() throws {
        let machine = try TimedTrace.machine(Self.flat)
        var runner = TableRunner(machine)
        var trace = TimedTrace<TableRunner>()
        runner.start(into: &trace)
        runner.send(machine.inputNames.firstIndex(of: "start")!, argument: .int(4), into: &trace)
        let saved = SnapshotCodec(machine).encode(SnapshotCodec(machine).snapshot(of: runner))

        let edited = try TimedTrace.machine(Self.flat.replacing("  - after: 5s\n    from: waiting\n    to: resting", with: "  - after: 6s\n    from: waiting\n    to: resting"))
        let migration = try SnapshotCodec(edited).migrate(saved)
        // The second 5 s became 6 s: its timer is kept as the state's other after, from the
        // state's entry at 0 (issue 35); the first 5 s and the 10 s are kept as saved.
        #expect(migration.snapshot.timers.map(\.due) == [5000, 6000, 10000])
        #expect(migration.droppedTimers.isEmpty)
        #expect(migration.rescheduledTimers.map { [$0.timer, $0.after, $0.state, String($0.due)] } == [["after 5s #2 of waiting", "after 6s", "waiting", "6000"]])
        #expect(migration.unstartedAfters.isEmpty)
        #expect(throws: SnapshotError.self) { try SnapshotCodec(edited).decode(saved) }
    }
}
