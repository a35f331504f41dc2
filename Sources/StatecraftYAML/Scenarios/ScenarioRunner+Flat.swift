import Statecraft

extension ScenarioRunner {
    /// Drives a flat machine's ``Runner``.
    struct FlatDriver: Driver {
        var runner: Runner

        private struct Recorder: ResultSink {
            var records: [StepRecord] = []

            mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
                let machine = runner.machine
                records.append(
                    StepRecord(
                        input: result.input, isMain: !result.isTimer && (result.isStart || result.sentBy < 0), timer: result.timer,
                        isAccepted: result.isAccepted,
                        rejection: result.rejection, effects: Array(machine.effectsRun(by: result)),
                        transitions: result.transition >= 0 && (result.isAccepted || result.rejection == .refused) ? [result.transition] : [],
                        statesAfter: [result.to], statesActive: [result.to]))
            }
        }

        mutating func start(in states: [Int]?, context: [Value], coverage: inout ScenarioCoverage) -> [StepRecord] {
            var recorder = Recorder()
            if let states {
                runner.restore(state: states[0], context: context)
            } else {
                if context != runner.machine.initialContext { runner.restore(state: runner.machine.initialState, context: context) }
                runner.start(into: &recorder)
            }
            coverage.enter(states?[0] ?? runner.machine.initialState)
            return recorder.records
        }

        mutating func send(_ input: Int, argument: Value) -> [StepRecord] {
            var recorder = Recorder()
            runner.send(input, argument: argument, into: &recorder)
            return recorder.records
        }

        mutating func wait(milliseconds: Int) -> [StepRecord] {
            var recorder = Recorder()
            let (end, overflow) = runner.time.addingReportingOverflow(milliseconds)
            runner.advance(to: overflow ? Int.max : end, into: &recorder)
            return recorder.records
        }

        var after: After {
            After(states: [runner.state], context: runner.context, isFinished: runner.machine.isFinal[runner.state])
        }
    }
}
