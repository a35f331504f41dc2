import Statecraft

extension ScenarioRunner {
    /// Drives a flat machine's ``Runner``.
    struct FlatDriver: Driver {
        var runner: Runner
        /// The state ``after()`` reports, in an array reused from step to step.
        private var stateAfter = [0]

        init(runner: Runner) {
            self.runner = runner
        }

        mutating func start(in states: [Int]?, context: [Value], into results: inout StepResults, coverage: inout ScenarioCoverage) {
            if let states {
                runner.restore(state: states[0], context: context)
                runner.startTimersOfCurrentState()
            } else {
                if context != runner.machine.initialContext { runner.restore(state: runner.machine.initialState, context: context) }
                runner.start(into: &results)
            }
            coverage.enter(states?[0] ?? runner.machine.initialState)
        }

        mutating func send(_ input: Int, argument: Value, into results: inout StepResults) {
            runner.send(input, argument: argument, into: &results)
        }

        mutating func wait(milliseconds: Int, into results: inout StepResults) {
            let (end, overflow) = runner.time.addingReportingOverflow(milliseconds)
            runner.advance(to: overflow ? Int.max : end, into: &results)
        }

        mutating func after() -> After {
            stateAfter[0] = runner.state
            return After(states: stateAfter, context: runner.context, isFinished: runner.machine.isFinal[runner.state])
        }
    }
}

extension StepResults: ResultSink {
    mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
        // A refusal (`reject:`) is recorded as taken: coverage counts it when selected.
        let took = result.transition >= 0 && (result.isAccepted || result.rejection == .refused)
        append(
            input: result.input, isMain: !result.isTimer && (result.isStart || result.sentBy < 0), timer: result.timer,
            isAccepted: result.isAccepted, rejection: result.rejection, effects: runner.machine.effectsRun(by: result),
            transitions: CollectionOfOne(result.transition).prefix(took ? 1 : 0), statesAfter: CollectionOfOne(result.to), statesActive: nil)
    }
}
