import Statecraft

extension ScenarioRunner {
    /// What is wrong with starting a statechart with `states` as its active atomic states.
    static func chartStartProblem(_ states: [Int], in machine: CompiledMachine) -> String? {
        guard let tree = machine.chart?.tree else { return nil }
        return tree.configuration(ofAtomicStates: states).problem.map { "is no configuration the machine can be in: it \($0)" }
    }

    /// Whether `state` is a statechart's history pseudo-state, which is never active.
    static func isPseudoState(_ state: Int, in machine: CompiledMachine) -> Bool {
        machine.chart?.tree.kinds[state].isHistory ?? false
    }

    /// Drives a statechart's ``ChartRunner``.
    struct ChartDriver: Driver {
        var runner: ChartRunner

        init(_ machine: CompiledMachine) {
            runner = ChartRunner(machine)
        }

        mutating func start(in states: [Int]?, context: [Value], into results: inout StepResults, coverage: inout ScenarioCoverage) {
            let machine = runner.machine
            if let states {
                runner.restore(
                    MachineSnapshot(
                        machineName: machine.name, fingerprint: MachineFingerprint(machine), state: states[0], context: context,
                        configuration: states))
                runner.startTimersOfActiveStates()
            } else {
                if context != machine.initialContext {
                    // The context is set before the start, in the initial configuration.
                    runner.setContextBeforeStart(context)
                }
                runner.start(into: &results)
            }
            for state in 0..<machine.stateCount where runner.isActive(state) { coverage.enter(state) }
        }

        mutating func send(_ input: Int, argument: Value, into results: inout StepResults) {
            runner.send(input, argument: argument, into: &results)
        }

        mutating func wait(milliseconds: Int, into results: inout StepResults) {
            let (end, overflow) = runner.time.addingReportingOverflow(milliseconds)
            runner.advance(to: overflow ? Int.max : end, into: &results)
        }

        mutating func after() -> After {
            After(states: runner.activeAtomicStates, context: runner.context, isFinished: runner.isFinished)
        }
    }
}

extension StepResults: ChartResultSink {
    mutating func receive(_ result: ChartResult, from runner: borrowing ChartRunner) {
        let chart = runner.chart
        let isMain: Bool
        switch result.trigger {
        case .start, .external: isMain = !result.isTimer
        case .sent, .done, .eventless: isMain = false
        }
        append(
            input: result.input, isMain: isMain, timer: result.timer, isAccepted: result.isAccepted, rejection: result.rejection,
            effects: runner.effectsRun.lazy.map(Int.init), transitions: runner.transitionsTaken.lazy.map { Int(chart.transitions[Int($0)].compiled) },
            statesAfter: runner.activeAtomicStates, statesActive: (0..<runner.machine.stateCount).filter { runner.isActive($0) })
    }
}
