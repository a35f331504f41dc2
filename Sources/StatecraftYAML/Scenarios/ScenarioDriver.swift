import Statecraft

extension ScenarioRunner {
    /// What is wrong with starting a statechart with `states` as its active atomic states.
    static func chartStartProblem(_ states: [Int], in machine: CompiledMachine) -> String? {
        guard let tree = machine.chart?.tree else { return nil }
        if let parent = states.first(where: { tree.kinds[$0] == .compound || tree.kinds[$0] == .parallel }) {
            return startInParentProblem(parent, in: machine, tree)
        }
        return tree.configuration(ofAtomicStates: states).problem.map { "is no configuration the machine can be in: it \($0)" }
    }

    /// A start that names a compound or parallel state: a scenario starts in atomic states, so
    /// the message names those inside it (one of them for a compound state of atomic states;
    /// one per region, `[a, b]`, for a parallel state).
    private static func startInParentProblem(_ parent: Int, in machine: CompiledMachine, _ tree: StateTree) -> String {
        let names = machine.stateNames
        let atomic = (0..<machine.stateCount).filter { tree.kinds[$0] == .atomic && tree.isDescendant($0, of: parent) }
        let kind = tree.kinds[parent] == .parallel ? "a parallel state" : "a compound state"
        return "names '\(names[parent])', \(kind); a scenario starts in atomic states, and those inside it are "
            + atomic.map { "'\(names[$0])'" }.joined(separator: ", ")
            + (tree.kinds[parent] == .parallel ? " (one of each region, as a list)" : "")
    }

    /// Whether `state` is a statechart's history pseudo-state, which is never active.
    static func isPseudoState(_ state: Int, in machine: CompiledMachine) -> Bool {
        machine.chart?.tree.kinds[state].isHistory ?? false
    }

    /// Drives the machine's runner one step at a time, recording its results into a
    /// ``StepResults`` that the scenario reuses.
    struct Driver<Runner: MachineRunner> {
        var runner: Runner
        init(_ machine: CompiledMachine) {
            runner = Runner(machine, stepLimit: RunLimits.defaultStepLimit, timerLimit: RunLimits.defaultTimerLimit)
        }

        /// Starts the machine (its results into `results`), or resumes it in `states` with `context`.
        mutating func start(in states: [Int]?, context: [Value], into results: inout StepResults, coverage: inout ScenarioCoverage) {
            let machine = runner.machine
            if let states {
                runner.restore(
                    MachineSnapshot(
                        machineName: machine.name, fingerprint: MachineFingerprint(machine), state: states[0], context: context,
                        configuration: machine.isStatechart ? states : []))
                runner.startTimersOfActiveStates()
            } else {
                // The context is set before the start, in the initial configuration.
                if context != machine.initialContext { runner.setContextBeforeStart(context) }
                recording(into: &results) { $0.start(into: &$1) }
            }
            for state in 0..<machine.stateCount where runner.isActive(state) { coverage.enter(state) }
        }

        /// Sends an input: the results of its run to completion.
        mutating func send(_ input: Int, argument: Value, into results: inout StepResults) {
            recording(into: &results) { $0.send(input, argument: argument, into: &$1) }
        }

        /// Moves the clock forward, firing the timers due by then: their results, each
        /// followed by those of its run to completion.
        mutating func wait(milliseconds: Int, into results: inout StepResults) {
            let (end, overflow) = runner.time.addingReportingOverflow(milliseconds)
            recording(into: &results) { $0.advance(to: overflow ? Int.max : end, into: &$1) }
        }

        /// The machine now; with `active`, every active state too (compound ones included), which
        /// only an `in:` expectation reads.
        func after(active: Bool = false) -> After {
            After(
                states: runner.activeStates, context: runner.context, isFinished: runner.isFinished,
                active: active ? (0..<runner.machine.stateCount).filter { runner.isActive($0) } : [])
        }

        /// Runs `body` on the runner with this driver as its sink, recording into `results`.
        private mutating func recording(into results: inout StepResults, _ body: (inout Runner, inout Recorder<Runner>) -> Void) {
            var recorder = Recorder<Runner>()
            swap(&recorder.results, &results)
            body(&runner, &recorder)
            swap(&recorder.results, &results)
        }
    }

    /// Records a runner's results into ``StepResults``.
    struct Recorder<Runner: MachineRunner>: ResultSink {
        var results = StepResults()

        mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
            results.record(result, from: runner)
        }
    }
}

extension StepResults {
    /// Records one result as `runner` shows it: the effects it ran, the transitions it took (a
    /// refusal, `reject:`, counts as taken: coverage counts it when selected), the active atomic
    /// states after it, and every active state (ancestors included).
    mutating func record<Runner: MachineRunner>(_ result: TransitionResult, from runner: Runner) {
        let isMain = !result.isTimer && (result.trigger == .start || result.trigger == .external)
        var effects: [Int] = []
        runner.forEachEffect(of: result) { effects.append($0) }
        var transitions: [Int] = []
        runner.forEachTransitionTaken(of: result) { transition, _, _ in transitions.append(transition) }
        let after = runner.activeStates
        var active: [Int]?
        if let parents = runner.machine.chart?.tree.parents {
            var states = after
            for atomic in after {
                var state = Int(parents[atomic])
                while state >= 0 {
                    if !states.contains(state) { states.append(state) }
                    state = Int(parents[state])
                }
            }
            active = states
        }
        append(
            input: result.input, isMain: isMain, timer: result.timer, isAccepted: result.isAccepted, rejection: result.rejection,
            effects: effects, transitions: transitions, statesAfter: after, statesActive: active)
    }
}
