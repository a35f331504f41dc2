/// A path of ``MachinePaths`` run again from the machine's start on a fresh ``TableRunner`` (or
/// ``ChartRunner`` for a statechart), its waits on the runner's virtual clock, so that what is
/// printed is what the engine does.
package struct PathReplay: Sendable {
    /// The state the machine rests in after each step: one state for a flat machine, a
    /// statechart's active atomic states.
    package private(set) var statesAfter: [[Int]] = []
    /// The state (or active atomic states) the machine starts in.
    package private(set) var statesAtStart: [Int] = []
    /// The states the last step (the start, for an empty path) entered.
    private var enteredLast: [Int] = []
    /// The compiled transitions the last step took, or selected as a refusal.
    private var takenLast: [Int] = []

    private struct Collector: ResultSink {
        var results: [TransitionResult] = []
        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) { results.append(result) }
    }

    /// Runs `path` on `machine` from its start.
    package init(_ path: [MachinePaths.Step], on machine: CompiledMachine) {
        if machine.isStatechart {
            replayChart(path, on: machine)
            return
        }
        var runner = TableRunner(machine)
        var collector = Collector()
        runner.start(into: &collector)
        statesAtStart = [runner.state]
        for step in path {
            collector.results.removeAll(keepingCapacity: true)
            if step.isWait {
                runner.advance(to: runner.time + step.waitMilliseconds, into: &collector)
            } else {
                runner.send(step.input, argument: step.argument, into: &collector)
            }
            statesAfter.append([runner.state])
        }
        enteredLast = path.isEmpty ? [machine.initialState] : collector.results.filter(\.isAccepted).map(\.to)
        takenLast = collector.results.filter { $0.isAccepted || $0.rejection == .refused }.map(\.transition)
    }

    private mutating func replayChart(_ path: [MachinePaths.Step], on machine: CompiledMachine) {
        var runner = ChartRunner(machine)
        var collector = MachinePaths.ChartSearch.Collector()
        runner.start(into: &collector)
        collector.entered.removeAll()
        MachinePaths.ChartSearch.forEachState(in: runner.configuration) { collector.entered.append($0) }
        statesAtStart = runner.activeAtomicStates
        for step in path {
            collector.clear()
            if step.isWait {
                runner.advance(to: runner.time + step.waitMilliseconds, into: &collector)
            } else {
                runner.send(step.input, argument: step.argument, into: &collector)
            }
            statesAfter.append(runner.activeAtomicStates)
        }
        enteredLast = collector.entered
        takenLast = collector.taken
    }

    /// Whether the path's last step entered `state` (an empty path: the start is in it).
    package func enters(_ state: Int) -> Bool { enteredLast.contains(state) }

    /// Whether the path's last step took `transition`.
    package func takes(_ transition: Int) -> Bool { takenLast.contains(transition) }
}
