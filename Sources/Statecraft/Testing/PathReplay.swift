/// A path of ``MachinePaths`` run again from the machine's start on a fresh ``Runner``, so
/// that what is printed is what the engine does.
package struct PathReplay: Sendable {
    /// The state the machine rests in after each step.
    package private(set) var statesAfter: [Int] = []
    /// The results of the last step (of the start, for an empty path).
    package private(set) var lastResults: [TransitionResult] = []

    private struct Collector: ResultSink {
        var results: [TransitionResult] = []
        mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) { results.append(result) }
    }

    /// Runs `path` on `machine` from its start.
    package init(_ path: [MachinePaths.Step], on machine: CompiledMachine) {
        var runner = Runner(machine)
        var collector = Collector()
        runner.start(into: &collector)
        for step in path {
            collector.results.removeAll(keepingCapacity: true)
            runner.send(step.input, argument: step.argument, into: &collector)
            statesAfter.append(runner.state)
        }
        lastResults = collector.results
    }

    /// Whether the path's last step entered `state` (an empty path: the start is in it).
    package func enters(_ state: Int, initial: Int) -> Bool {
        if statesAfter.isEmpty && state == initial { return true }
        return lastResults.contains { $0.isAccepted && $0.to == state }
    }

    /// Whether the path's last step took `transition`.
    package func takes(_ transition: Int) -> Bool {
        lastResults.contains { ($0.isAccepted || $0.rejection == .refused) && $0.transition == transition }
    }
}
