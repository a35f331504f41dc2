/// Shortest input sequences from a machine's start to each of its states and transitions
/// (model-based testing), found by a breadth-first search over the states the machine rests
/// in, trying each input that some transition takes from the state with the argument values
/// the guards compare against (``ArgumentCandidates``). Each try runs the engine's ``TableRunner``,
/// so a guard decides as it would at run time; the search is linear in the transitions (times
/// the few argument values tried).
///
/// A statechart is searched the same way over the configurations it rests in
/// (``ChartSearch``): a state is reached when a step enters it, a transition when a step takes
/// it (eventless transitions and done events included, as they follow an input).
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

    /// Searches `machine`.
    package init(_ machine: CompiledMachine) {
        if machine.isStatechart {
            var search = ChartSearch(machine)
            search.run()
            toState = search.stateReach.map { $0.map(search.path) }
            toTransition = search.transitionReach.map { $0.map(search.path) }
            whyUnreached = (0..<machine.stateCount).map { state in
                search.stateReach[state] != nil ? nil : Self.whyChart(state, machine: machine, reached: search.stateReach.map { $0 != nil })
            }
            return
        }
        var search = Search(machine)
        search.run()
        toState = search.stateReach.map { $0.map(search.path) }
        toTransition = search.transitionReach.map { $0.map(search.path) }
        whyUnreached = Array(repeating: nil, count: machine.stateCount)
        for state in 0..<machine.stateCount where toState[state] == nil {
            whyUnreached[state] = Self.why(state, machine: machine, reached: toState.map { $0 != nil }, taken: toTransition.map { $0 != nil })
        }
    }

    private static func why(_ state: Int, machine: CompiledMachine, reached: [Bool], taken: [Bool]) -> String {
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

    /// The search: nodes are the states the machine rests in, each with the runner that got there.
    private struct Search {
        /// How a node was reached: from which node, with which input.
        struct Node {
            var parent: Int
            var step: Step?
            var runner: TableRunner
        }

        /// A path: a node's path, then one more step (or none).
        struct Reach {
            var node: Int
            var step: Step?
        }

        struct Collector: ResultSink {
            var results: [TransitionResult] = []
            mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) { results.append(result) }
        }

        let machine: CompiledMachine
        let candidates: ArgumentCandidates
        /// Per state, the inputs that some transition takes from it, in first-use order.
        let inputsFrom: [[Int]]
        var nodes: [Node] = []
        /// Per state, how many nodes rest in it.
        var visits: [Int]
        /// The (state, context) pairs of the nodes.
        var seen: Set<StateContext> = []
        /// How many more nodes may rest in a state that already has one.
        var extraBudget: Int
        var untaken: Int

        /// Where a node rests: its state, context and pending timers (those of a machine
        /// without timers: none).
        struct StateContext: Hashable {
            var state: Int
            var context: [Value]
            var timers: [PendingTimer]
        }
        var stateReach: [Reach?]
        var transitionReach: [Reach?]

        init(_ machine: CompiledMachine) {
            self.machine = machine
            candidates = ArgumentCandidates(machine)
            var inputsFrom = [[Int]](repeating: [], count: machine.stateCount)
            var seen = Set<Int>()
            for transition in machine.transitions {
                // An internal input is sent only by effects, never from outside.
                guard !machine.inputIsInternal[transition.input] else { continue }
                for source in transition.sources where seen.insert(source &* machine.inputCount &+ transition.input).inserted {
                    inputsFrom[source].append(transition.input)
                }
            }
            self.inputsFrom = inputsFrom
            visits = Array(repeating: 0, count: machine.stateCount)
            extraBudget = machine.stateCount
            untaken = machine.transitions.count
            stateReach = Array(repeating: nil, count: machine.stateCount)
            transitionReach = Array(repeating: nil, count: machine.transitions.count)
        }

        mutating func run() {
            var runner = TableRunner(machine)
            var collector = Collector()
            runner.start(into: &collector)
            stateReach[machine.initialState] = Reach(node: 0, step: nil)
            nodes.append(Node(parent: -1, step: nil, runner: runner))
            visits[runner.state] = 1
            seen.insert(StateContext(state: runner.state, context: runner.context, timers: PendingTimer.all(of: runner)))
            record(collector.results, node: 0, step: nil)
            var head = 0
            while head < nodes.count {
                let node = head
                head += 1
                let state = nodes[node].runner.state
                for input in inputsFrom[state] {
                    let values = candidates.values(for: input, type: machine.argumentTypes[input], context: nodes[node].runner.context)
                    for argument in values {
                        var next = nodes[node].runner
                        collector.results.removeAll(keepingCapacity: true)
                        next.send(input, argument: argument, into: &collector)
                        let step = Step(input: input, argument: argument)
                        record(collector.results, node: node, step: step)
                        if admits(next) { nodes.append(Node(parent: node, step: step, runner: next)) }
                    }
                }
                if let due = nodes[node].runner.nextTimerDue() {
                    var next = nodes[node].runner
                    collector.results.removeAll(keepingCapacity: true)
                    let step = Step.wait(due - next.time)
                    next.advance(to: due, into: &collector)
                    record(collector.results, node: node, step: step)
                    if admits(next) { nodes.append(Node(parent: node, step: step, runner: next)) }
                }
            }
        }

        /// Whether the search goes on from where `runner` rests: always from a state not rested
        /// in yet; from a new context (or new pending timers) of one, while transitions are
        /// untaken and budget lasts.
        private mutating func admits(_ runner: TableRunner) -> Bool {
            let state = runner.state
            let rest = StateContext(state: state, context: runner.context, timers: PendingTimer.all(of: runner))
            if visits[state] > 0 {
                guard untaken > 0, extraBudget > 0, visits[state] <= MachinePaths.extraContextsPerState, seen.insert(rest).inserted
                else { return false }
                extraBudget -= 1
            } else {
                seen.insert(rest)
            }
            visits[state] += 1
            return true
        }

        /// Marks the states entered and transitions taken by `results`, reached by `node`'s
        /// path and then `step`.
        private mutating func record(_ results: [TransitionResult], node: Int, step: Step?) {
            for result in results where result.isAccepted || result.rejection == .refused {
                if stateReach[result.to] == nil { stateReach[result.to] = Reach(node: node, step: step) }
                // A refusal (`reject:`) is reached when selected.
                if result.transition >= 0 && transitionReach[result.transition] == nil {
                    transitionReach[result.transition] = Reach(node: node, step: step)
                    untaken -= 1
                }
            }
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
