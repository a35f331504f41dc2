/// A path of ``MachinePaths`` run again from the machine's start on a fresh runner of the kind
/// its compiler chose (``CompiledMachine/visitRunner(_:)``), its waits on the runner's virtual
/// clock, so that what is printed is what the engine does.
package struct PathReplay: Sendable {
    /// The active atomic states after each step (a flat machine's: its one state).
    package private(set) var statesAfter: [[Int]] = []
    /// The active atomic states the machine starts in.
    package private(set) var statesAtStart: [Int] = []
    /// The states the last step (the start, for an empty path) entered.
    private var enteredLast: [Int] = []
    /// The compiled transitions the last step took, or selected as a refusal.
    private var takenLast: [Int] = []

    /// Runs `path` on `machine` from its start.
    package init(_ path: [MachinePaths.Step], on machine: CompiledMachine) {
        self = machine.visitRunner(Replayer(machine: machine, path: path))
    }

    private init() {}

    /// Replays with the runner type of the machine.
    private struct Replayer: RunnerVisitor {
        let machine: CompiledMachine
        let path: [MachinePaths.Step]

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> PathReplay {
            var replay = PathReplay()
            var runner = Runner(machine, stepLimit: RunLimits.defaultStepLimit, timerLimit: RunLimits.defaultTimerLimit)
            var collector = StepCollector<Runner>()
            runner.start(into: &collector)
            // The configuration the start rests in, whether or not a start result showed it.
            runner.forEachActiveState { collector.entered.append($0) }
            replay.statesAtStart = runner.activeStates
            for step in path {
                collector.clear()
                if step.isWait {
                    runner.advance(to: runner.time + step.waitMilliseconds, into: &collector)
                } else {
                    runner.send(step.input, argument: step.argument, into: &collector)
                }
                replay.statesAfter.append(runner.activeStates)
            }
            replay.enteredLast = collector.entered
            replay.takenLast = collector.taken
            return replay
        }
    }

    /// Whether the path's last step entered `state` (an empty path: the start is in it).
    package func enters(_ state: Int) -> Bool { enteredLast.contains(state) }

    /// Whether the path's last step took `transition`.
    package func takes(_ transition: Int) -> Bool { takenLast.contains(transition) }
}
