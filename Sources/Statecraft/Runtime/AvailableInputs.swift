/// The inputs that have a transition from the active states or their ancestors (for a flat
/// machine, from its dispatch table's row for the state), guards not evaluated: what
/// `smrun repl`'s `:inputs` lists and TAB offers first, and what the server's
/// `GET .../inputs` answers as enabled.
package struct AvailableInputs {
    package let machine: CompiledMachine
    /// Per state, whether it is active (atomic states and their ancestors).
    private let isActive: [Bool]
    /// The active atomic states, in document order.
    package let active: [Int]
    /// Whether the machine has finished: no input has a transition.
    package let isFinished: Bool

    package init(_ runner: some MachineRunner) {
        machine = runner.machine
        isActive = (0..<runner.machine.stateCount).map { runner.isActive($0) }
        active = runner.activeStates
        isFinished = runner.isFinished
    }

    /// One transition an input may select now: the input, the compiled transition and the
    /// active state it leaves, in the order they are tried (a flat machine's by input).
    package var candidates: [(input: Int, transition: Int, source: Int, targets: [Int32])] {
        guard !isFinished else { return [] }
        guard let chart = machine.chart else {
            let state = active[0]
            return (0..<machine.inputCount).flatMap { input in
                machine.candidates(state: state, input: input).map { (input, Int($0), state, []) }
            }
        }
        return chart.transitions.filter { $0.input >= 0 && isActive[Int($0.source)] }.map {
            (Int($0.input), Int($0.compiled), Int($0.source), $0.targets)
        }
    }

    /// Every input id, those with a transition from the active states first (TAB's order).
    package var inputsForCompletion: [Int] {
        var isFirst = [Bool](repeating: false, count: machine.inputCount)
        var first: [Int] = []
        for candidate in candidates where !isFirst[candidate.input] {
            isFirst[candidate.input] = true
            first.append(candidate.input)
        }
        return first + (0..<machine.inputCount).filter { !isFirst[$0] }
    }

    /// Whether each input, by id, has a transition from the active states or their ancestors.
    package var hasTransition: [Bool] {
        var has = [Bool](repeating: false, count: machine.inputCount)
        for candidate in candidates { has[candidate.input] = true }
        return has
    }

    /// Why `input` has no transition now, in a sentence naming the states it met: `no
    /// transition for 'pay' leaves 'idle'` (when states nest, the active atomic states or
    /// their ancestors). Says nothing of a finished machine (see ``isFinished``).
    package func noTransitionReason(_ input: Int) -> String {
        let states = active.map { "'\(machine.stateNames[$0])'" }
        let name = "no transition for '\(machine.inputNames[input])' leaves "
        guard machine.chart?.tree.parents.contains(where: { $0 >= 0 }) == true else { return name + states[0] }
        if states.count == 1 { return name + states[0] + " or its ancestors" }
        return name + states.dropLast().joined(separator: ", ") + " or " + states[states.count - 1] + " or their ancestors"
    }
}
