// Paths through a statechart: the breadth-first search of ``MachinePaths`` over the
// configurations a ``ChartRunner`` rests in.

extension MachinePaths {
    /// Why no path enters `state` of a statechart.
    static func whyChart(_ state: Int, machine: CompiledMachine, reached: [Bool]) -> String {
        guard let tree = machine.chart?.tree else { return "" }
        if tree.kinds[state].isHistory { return "a history state is never active: a transition into it enters what it recorded" }
        let parent = Int(tree.parents[state])
        if parent >= 0 && !reached[parent] { return "its parent '\(machine.stateNames[parent])' is never entered" }
        let into = machine.transitions.filter { transition in
            ([transition.target] + transition.moreTargets).contains { $0 >= 0 && ($0 == state || tree.isDescendant($0, of: state)) }
        }
        let byDefault = parent >= 0 && tree.kinds[parent] == .parallel || tree.defaultEntries.contains { $0.contains(Int32(state)) }
        if into.isEmpty && !byDefault { return "no transition leads to it, and no state enters it by default" }
        let lines = into.map { "line \($0.position.line)" }
        return "no input sequence tried enters it" + (lines.isEmpty ? "" : " (the transitions into it: " + lines.joined(separator: ", ") + ")")
    }

    /// The search over a statechart: nodes are the configurations the machine rests in (with
    /// the context and history records of the first path that got there), each with the runner.
    struct ChartSearch {
        struct Node {
            var parent: Int
            var step: Step?
            var runner: ChartRunner
            /// The states the step that reached the node entered.
            var entered: [Int]
        }

        /// A path: a node's path, then one more step (or none).
        struct Reach {
            var node: Int
            var step: Step?
        }

        /// What one step entered and took: states that became active, compiled transitions taken
        /// (or selected as a refusal).
        struct Collector: ResultSink {
            var entered: [Int] = []
            var taken: [Int] = []

            mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
                if result.rejection == .refused, result.refusingTransition >= 0 { taken.append(result.refusingTransition) }
                guard result.isAccepted else { return }
                for transition in runner.transitionsTaken { taken.append(Int(runner.chart.transitions[Int(transition)].compiled)) }
                let (now, before) = (runner.configuration, runner.previousConfiguration)
                ChartSearch.forEachState(in: now.indices.lazy.map { now[$0] & ~before[$0] }) { entered.append($0) }
            }

            mutating func clear() {
                entered.removeAll(keepingCapacity: true)
                taken.removeAll(keepingCapacity: true)
            }
        }

        /// Calls `body` with each state of a configuration's words, in id order: linear in the
        /// words and the states set, not in the machine's states.
        static func forEachState(in words: some Sequence<UInt64>, _ body: (Int) -> Void) {
            for (index, word) in words.enumerated() {
                var bits = word
                while bits != 0 {
                    body(index << 6 | bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
        }

        struct Rest: Hashable {
            var configuration: [UInt64]
            var context: [Value]
            var timers: [PendingTimer]
        }

        let machine: CompiledMachine
        let chart: StateChart
        let candidates: ArgumentCandidates
        /// Per state, the inputs that a transition from it takes, in file order (done events
        /// and internal inputs left out: the machine raises them itself).
        let inputsFrom: [[Int]]
        /// Per input, whether a path may send it (not a done event, not internal).
        let isSendable: [Bool]
        var nodes: [Node] = []
        /// Per configuration, how many nodes rest in it.
        var visits: [[UInt64]: Int] = [:]
        var seen: Set<Rest> = []
        /// How many more nodes may rest in a configuration that already has one.
        var extraBudget: Int
        /// How many more new configurations may be searched from though the step that reached
        /// them entered no new state and took no new transition: parallel regions multiply
        /// configurations, and the search must stay linear in the machine's size.
        var plainBudget: Int
        var untaken: Int
        var stateReach: [Reach?]
        var transitionReach: [Reach?]

        init(_ machine: CompiledMachine) {
            self.machine = machine
            let chart = machine.chart!
            self.chart = chart
            candidates = ArgumentCandidates(machine)
            let raised = Set(chart.doneInputs.filter { $0 >= 0 }.map(Int.init))
            let isSendable = (0..<machine.inputCount).map { !machine.inputIsInternal[$0] && !raised.contains($0) }
            self.isSendable = isSendable
            inputsFrom = (0..<machine.stateCount).map { state in
                var inputs: [Int] = []
                for transition in chart.transitions(from: state) {
                    let input = Int(chart.transitions[Int(transition)].input)
                    if input >= 0 && isSendable[input] && !inputs.contains(input) { inputs.append(input) }
                }
                return inputs
            }
            extraBudget = machine.stateCount
            plainBudget = 4 * (machine.stateCount + machine.transitions.count)
            untaken = machine.transitions.count
            stateReach = Array(repeating: nil, count: machine.stateCount)
            transitionReach = Array(repeating: nil, count: machine.transitions.count)
        }

        mutating func run() {
            var runner = ChartRunner(machine)
            var collector = Collector()
            runner.start(into: &collector)
            collector.entered.removeAll()
            ChartSearch.forEachState(in: runner.configuration) { collector.entered.append($0) }
            nodes.append(Node(parent: -1, step: nil, runner: runner, entered: collector.entered))
            _ = admits(runner, novel: true)
            _ = record(collector, node: 0, step: nil)
            var head = 0
            while head < nodes.count {
                let node = head
                head += 1
                let current = nodes[node].runner
                if current.isFinished { continue }
                for input in inputs(at: node) {
                    for argument in candidates.values(for: input, type: machine.argumentTypes[input], context: current.context) {
                        var next = current
                        collector.clear()
                        next.send(input, argument: argument, into: &collector)
                        let step = Step(input: input, argument: argument)
                        let novel = record(collector, node: node, step: step)
                        if admits(next, novel: novel) { nodes.append(Node(parent: node, step: step, runner: next, entered: collector.entered)) }
                    }
                }
                var next = current
                if let due = next.nextTimerDue() {
                    collector.clear()
                    let step = Step.wait(due - next.time)
                    next.advance(to: due, into: &collector)
                    let novel = record(collector, node: node, step: step)
                    if admits(next, novel: novel) { nodes.append(Node(parent: node, step: step, runner: next, entered: collector.entered)) }
                }
            }
        }

        /// The inputs worth trying from a node: those of the transitions leaving the states its
        /// step entered (the others were tried where their source was entered), and, from every
        /// active state, those of guarded transitions (the context or the configuration may now
        /// let them through) and of transitions not taken yet (another region's choice may have
        /// preempted them before). From the start, every input of an active state. So a node
        /// costs what its step changed, not the whole configuration's transitions.
        private func inputs(at node: Int) -> [Int] {
            let current = nodes[node].runner
            var isChosen = [Bool](repeating: false, count: machine.inputCount)
            var inputs: [Int] = []
            func choose(_ input: Int) {
                if !isChosen[input] {
                    isChosen[input] = true
                    inputs.append(input)
                }
            }
            for state in nodes[node].entered where current.isActive(state) {
                for input in inputsFrom[state] { choose(input) }
            }
            ChartSearch.forEachState(in: current.configuration) { state in
                for index in chart.transitions(from: state) {
                    let transition = chart.transitions[Int(index)]
                    let input = Int(transition.input)
                    guard input >= 0, isSendable[input], transition.isGuarded || transitionReach[Int(transition.compiled)] == nil else { continue }
                    choose(input)
                }
            }
            return inputs
        }

        /// Whether the search goes on from where `runner` rests, as in the flat search: from a
        /// configuration not rested in yet when the step that reached it was `novel` (it
        /// entered a state or took a transition first) or while the plain budget lasts; from a
        /// new context of one while transitions are untaken and the extra budget lasts.
        private mutating func admits(_ runner: ChartRunner, novel: Bool) -> Bool {
            let configuration = runner.configuration
            let visited = visits[configuration, default: 0]
            if visited == 0 && !novel {
                guard plainBudget > 0 else { return false }
                plainBudget -= 1
            }
            let rest = Rest(configuration: configuration, context: runner.context, timers: PendingTimer.all(of: runner))
            if visited > 0 {
                guard untaken > 0, extraBudget > 0, visited <= MachinePaths.extraContextsPerState, seen.insert(rest).inserted
                else { return false }
                extraBudget -= 1
            } else {
                seen.insert(rest)
            }
            visits[configuration] = visited + 1
            return true
        }

        /// Marks the states entered and transitions taken; whether any was new.
        private mutating func record(_ collector: Collector, node: Int, step: Step?) -> Bool {
            var novel = false
            for state in collector.entered where stateReach[state] == nil {
                stateReach[state] = Reach(node: node, step: step)
                novel = true
            }
            for transition in collector.taken where transitionReach[transition] == nil {
                transitionReach[transition] = Reach(node: node, step: step)
                untaken -= 1
                novel = true
            }
            return novel
        }

        func path(_ reach: Reach) -> [Step] {
            var steps: [Step] = reach.step.map { [$0] } ?? []
            var node = reach.node
            while node > 0 {
                steps.append(nodes[node].step!)
                node = nodes[node].parent
            }
            return steps.reversed()
        }
    }
}
