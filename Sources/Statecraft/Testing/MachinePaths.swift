/// Shortest input sequences from a machine's start to each of its states and transitions
/// (model-based testing), found by a breadth-first search over the configurations the machine
/// rests in (a flat machine's: one state), trying the inputs that transitions from the active
/// states take, with the argument values the guards compare against (``ArgumentCandidates``).
/// Each try runs the runner the machine's compiler chose (``CompiledMachine/visitRunner(_:)``),
/// so a guard decides as it would at run time; the search is linear in the transitions (times
/// the few argument values tried). A state is reached when a step enters it, a transition when
/// a step takes it (eventless transitions and done events included, as they follow an input).
///
/// From the start, every input of an active state is tried; from a configuration reached
/// later, the inputs of the states its step entered (the others were tried where those states
/// were entered; a flat machine's state the step stayed in too, see `Search.retried`), and,
/// from every active state, those of guarded
/// transitions (the context or the configuration may now let them through) and of transitions
/// not taken yet (another region's choice may have preempted them before). So a node costs
/// what its step changed, not the whole configuration's transitions.
///
/// A machine with timers is searched on its virtual clock: from where it rests with timers
/// pending, one more step waits until the next falls due (an `after` transition, a delayed
/// send), so states and transitions reached only by timers are reached too. Parallel
/// regions multiply configurations, so a configuration whose step reached nothing new is
/// searched from only within a budget linear in the machine's size.
///
/// A state is searched from with the context of the first (shortest) path that left the
/// machine resting there; while some transition is still untaken, also with up to
/// ``extraContextsPerState`` other contexts that the search left it in (a `set` of a flag
/// that a later guard reads), within a budget of one such extra visit per state in all, so
/// that the search stays linear. A transition whose guard holds only for contexts beyond
/// those is reported as not reached.
package struct MachinePaths: Sendable {
    /// One step of a path: an input with its argument (`.null` for none), or a wait on the
    /// virtual clock until the next timer falls due (an `after` transition, a delayed send).
    package struct Step: Sendable, Hashable {
        /// The input sent; -1 for a wait.
        package var input: Int
        package var argument: Value
        /// For a wait, how far the clock moves, in milliseconds; -1 for an input.
        package var waitMilliseconds = -1

        /// Sends `input` with `argument`.
        package init(input: Int, argument: Value) {
            self.input = input
            self.argument = argument
        }

        /// Moves the clock `milliseconds` forward.
        package static func wait(_ milliseconds: Int) -> Step {
            var step = Step(input: -1, argument: .null)
            step.waitMilliseconds = milliseconds
            return step
        }

        /// Whether the step is a wait.
        package var isWait: Bool { waitMilliseconds >= 0 }

        /// `30s`, `250ms`: a wait's duration in the largest unit that writes it whole.
        package var waitText: String { Delay.text(milliseconds: waitMilliseconds) }
    }

    /// Per state id, the shortest path to it, or `nil` when no path reaches it.
    package private(set) var toState: [[Step]?]
    /// Per transition id, the shortest path whose last input takes it, or `nil`.
    package private(set) var toTransition: [[Step]?]
    /// Per unreached state id, why no path reaches it; `nil` for a reached state.
    package private(set) var whyUnreached: [String?]

    /// The most contexts, beyond the first, that a state is searched from.
    package static let extraContextsPerState = 4

    /// Searches `machine`, on the runner its compiler chose.
    package init(_ machine: CompiledMachine) {
        self = machine.visitRunner(Searcher(machine: machine))
    }

    /// Runs the search with the runner type of the machine.
    private struct Searcher: RunnerVisitor {
        let machine: CompiledMachine

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> MachinePaths {
            var search = Search<Runner>(machine)
            search.run()
            let reached = search.stateReach.map { $0 != nil }
            let taken = search.transitionReach.map { $0 != nil }
            return MachinePaths(
                toState: search.stateReach.map { $0.map(search.path) },
                toTransition: search.transitionReach.map { $0.map(search.path) },
                whyUnreached: machine.stateNames.indices.map { state in
                    reached[state] ? nil : MachinePaths.why(state, machine: machine, reached: reached, taken: taken)
                })
        }
    }

    private init(toState: [[Step]?], toTransition: [[Step]?], whyUnreached: [String?]) {
        self.toState = toState
        self.toTransition = toTransition
        self.whyUnreached = whyUnreached
    }

    /// Why no path enters `state`: from the state tree (history, parent, default entries) and
    /// the transitions into it.
    private static func why(_ state: Int, machine: CompiledMachine, reached: [Bool], taken: [Bool]) -> String {
        guard let tree = machine.chart?.tree else { return whyInto(state, machine: machine, reached: reached) }
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

    /// Why no path enters `state` of a machine without a state tree: from the transitions into
    /// it, their sources and guards.
    private static func whyInto(_ state: Int, machine: CompiledMachine, reached: [Bool]) -> String {
        let into = machine.transitions.indices.filter { machine.transitions[$0].target == state }
        if into.isEmpty { return "no transition leads to it" }
        let fromReached = into.filter { machine.transitions[$0].sources.contains { reached[$0] } }
        if fromReached.isEmpty {
            let sources = Set(into.flatMap { machine.transitions[$0].sources }).sorted().map { machine.stateNames[$0] }
            return "only transitions from unreachable states lead to it (from \(sources.joined(separator: ", ")))"
        }
        let reasons = fromReached.map { index -> String in
            let transition = machine.transitions[index]
            let line = "line \(transition.position.line)"
            if let text = transition.guardText { return "\(line): its guard '\(text)' held for no argument value tried" }
            return "\(line): an earlier transition or an effect always moves the machine on first"
        }
        return "the transitions into it from reachable states are never taken (" + reasons.joined(separator: "; ") + ")"
    }

    /// The search: nodes are the configurations the machine rests in (with the context, timers
    /// and history records of the path that got there), each with the runner that got there.
    private struct Search<Runner: MachineRunner> {
        /// How a node was reached: from which node, with which step.
        struct Node {
            var parent: Int
            var step: Step?
            var runner: Runner
            /// The states whose inputs are all tried from the node (``retried(_:)``).
            var entered: [Int]
        }

        /// A path: a node's path, then one more step (or none).
        struct Reach {
            var node: Int
            var step: Step?
        }

        /// Where a node rests: its configuration, context and pending timers (those of a
        /// machine without timers: none).
        struct Rest: Hashable {
            var configuration: Runner.Configuration
            var context: [Value]
            var timers: [PendingTimer]
        }

        let machine: CompiledMachine
        let candidates: ArgumentCandidates
        /// Per state, the transitions leaving it, in file order.
        let transitionsFrom: [[Int]]
        /// Per state, the inputs of the transitions leaving it that a path may send, in file
        /// order, each once.
        let inputsFrom: [[Int]]
        /// Per input, whether a path may send it: not internal, not a done event (the machine
        /// raises those itself).
        let isSendable: [Bool]
        var nodes: [Node] = []
        /// Per configuration, how many nodes rest in it.
        var visits: [Runner.Configuration: Int] = [:]
        var seen: Set<Rest> = []
        /// How many more nodes may rest in a configuration that already has one.
        var extraBudget: Int
        /// How many more new configurations may be searched from though the step that reached
        /// them entered no new state and took no new transition: parallel regions multiply
        /// configurations, and the search must stay linear in the machine's size. (A flat
        /// machine has fewer configurations than this.)
        var plainBudget: Int
        var untaken: Int
        var stateReach: [Reach?]
        var transitionReach: [Reach?]
        /// Per input, the node whose inputs last chose it (``inputs(at:)``).
        var chosenAt: [Int]
        /// Whether a step that stays in a state retries all its inputs (``retried(_:)``).
        let retriesStays: Bool

        init(_ machine: CompiledMachine) {
            self.machine = machine
            candidates = ArgumentCandidates(machine)
            var isSendable = machine.inputIsInternal.map { !$0 }
            for input in machine.chart?.doneInputs ?? [] where input >= 0 { isSendable[Int(input)] = false }
            self.isSendable = isSendable
            var transitionsFrom = [[Int]](repeating: [], count: machine.stateCount)
            for (index, transition) in machine.transitions.enumerated() {
                for source in transition.sources { transitionsFrom[source].append(index) }
            }
            self.transitionsFrom = transitionsFrom
            var isListed = [Bool](repeating: false, count: machine.inputCount)
            inputsFrom = transitionsFrom.map { transitions in
                var inputs: [Int] = []
                for index in transitions {
                    let input = machine.transitions[index].input
                    if input >= 0 && isSendable[input] && !isListed[input] {
                        isListed[input] = true
                        inputs.append(input)
                    }
                }
                for input in inputs { isListed[input] = false }
                return inputs
            }
            extraBudget = machine.stateCount
            plainBudget = 4 * (machine.stateCount + machine.transitions.count)
            untaken = machine.transitions.count
            stateReach = Array(repeating: nil, count: machine.stateCount)
            transitionReach = Array(repeating: nil, count: machine.transitions.count)
            chosenAt = Array(repeating: -1, count: machine.inputCount)
            retriesStays = machine.chart == nil
        }

        mutating func run() {
            var runner = Runner(machine, stepLimit: RunLimits.defaultStepLimit, timerLimit: RunLimits.defaultTimerLimit)
            var collector = StepCollector<Runner>()
            runner.start(into: &collector)
            // The configuration the start rests in, whether or not a start result showed it.
            runner.forEachActiveState { collector.entered.append($0) }
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
                        if admits(next, novel: novel) { nodes.append(Node(parent: node, step: step, runner: next, entered: retried(collector))) }
                    }
                }
                var next = current
                if let due = next.nextTimerDue() {
                    collector.clear()
                    let step = Step.wait(due - next.time)
                    next.advance(to: due, into: &collector)
                    let novel = record(collector, node: node, step: step)
                    if admits(next, novel: novel) { nodes.append(Node(parent: node, step: step, runner: next, entered: retried(collector))) }
                }
            }
        }

        /// The states whose inputs are all tried again after a step: those it entered; for a
        /// flat machine, also the state it stayed in (a transition without target, or back to
        /// its source), whose other transitions' effects may now do otherwise (a flag that a
        /// later guard reads). A statechart's stays are not retried: across regions they are
        /// many, and retrying them spends the extra budget that paths through several contexts
        /// of one configuration need (checkout.yaml's three declined cards).
        private func retried(_ collector: StepCollector<Runner>) -> [Int] {
            retriesStays ? collector.entered + collector.stayedIn : collector.entered
        }

        /// The inputs worth trying from a node (see ``MachinePaths``): every input of the
        /// active states of its ``Node/entered``, then those of the guarded and untaken transitions of every
        /// active state; each once, in that order.
        private mutating func inputs(at node: Int) -> [Int] {
            let current = nodes[node].runner
            var inputs: [Int] = []
            for state in nodes[node].entered where current.isActive(state) {
                for input in inputsFrom[state] where chosenAt[input] != node {
                    chosenAt[input] = node
                    inputs.append(input)
                }
            }
            current.forEachActiveState { state in
                for index in transitionsFrom[state] {
                    let transition = machine.transitions[index]
                    let input = transition.input
                    guard input >= 0, isSendable[input], chosenAt[input] != node, transition.guardText != nil || transitionReach[index] == nil
                    else { continue }
                    chosenAt[input] = node
                    inputs.append(input)
                }
            }
            return inputs
        }

        /// Whether the search goes on from where `runner` rests: from a configuration not rested
        /// in yet when the step that reached it was `novel` (it entered a state or took a
        /// transition first) or while the plain budget lasts; from a new context (or new pending
        /// timers) of one while transitions are untaken and the extra budget lasts.
        private mutating func admits(_ runner: Runner, novel: Bool) -> Bool {
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

        /// Marks the states entered and transitions taken by a step, reached by `node`'s path
        /// and then `step`; whether any was new.
        private mutating func record(_ collector: StepCollector<Runner>, node: Int, step: Step?) -> Bool {
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

        /// The steps from the start to `reach`.
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

/// What one step (or the start) of a path entered and took, for the search and its replay: the
/// states it made active, the compiled transitions it took (or selected as a refusal) and their
/// sources.
struct StepCollector<Runner: MachineRunner>: ResultSink {
    /// The states the step's results made active, result by result.
    var entered: [Int] = []
    /// The transitions taken, by index in ``CompiledMachine/transitions``.
    var taken: [Int] = []
    /// The sources of the transitions taken that stay in them (no target, or the source).
    var stayedIn: [Int] = []

    mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
        if result.isAccepted || result.isStart { runner.forEachStateEntered(by: result) { entered.append($0) } }
        guard result.isAccepted || result.rejection == .refused else { return }
        runner.forEachTransitionTaken(of: result) { transition, source, targets in
            taken.append(transition)
            if targets.allSatisfy({ Int($0) == source }) { stayedIn.append(source) }
        }
    }

    /// Forgets the previous step.
    mutating func clear() {
        entered.removeAll(keepingCapacity: true)
        taken.removeAll(keepingCapacity: true)
        stayedIn.removeAll(keepingCapacity: true)
    }
}
