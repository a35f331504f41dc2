import Statecraft

/// A statechart in `smrun repl`: the prompt shows the configuration (the active atomic states,
/// as results print it), `:undo` goes back to an earlier runner (configuration, history and
/// context), and `:inputs` lists the transitions that leave an active state.
extension ChartSession: InteractiveSession {
    var machine: CompiledMachine { current.machine }

    var stateDescription: String {
        let runner = current
        return runner.activeAtomicStates.map { runner.machine.stateNames[$0] }.joined(separator: ", ")
    }

    var contextValues: [Value] { current.context }

    var saved: ChartRunner { current }

    mutating func flush() { finish() }

    /// The chart's transitions that leave an active state (atomic or not), in document order.
    private var enabledTransitions: [StateChart.Transition] {
        let runner = current
        guard let chart = runner.machine.chart, !runner.isFinished else { return [] }
        return chart.transitions.filter { $0.input >= 0 && runner.isActive(Int($0.source)) }
    }

    var inputsForCompletion: [Int] {
        let machine = current.machine
        var isFirst = [Bool](repeating: false, count: machine.inputCount)
        var first: [Int] = []
        for transition in enabledTransitions where !isFirst[Int(transition.input)] {
            isFirst[Int(transition.input)] = true
            first.append(Int(transition.input))
        }
        return first + (0..<machine.inputCount).filter { !isFirst[$0] }
    }

    var availableInputs: String {
        let runner = current
        let machine = runner.machine
        if runner.isFinished { return "the statechart has finished: every input is rejected (finished)\n" }
        var text = ""
        for transition in enabledTransitions {
            let input = Int(transition.input)
            let compiled = machine.transitions[Int(transition.compiled)]
            text += machine.inputNames[input]
            if let type = machine.argumentTypes[input] { text += " <\(type.rawValue)>" }
            text += " (from \(machine.stateNames[Int(transition.source)]))"
            text += transition.targets.isEmpty
                ? " stays" : " -> " + transition.targets.map { machine.stateNames[Int($0)] }.joined(separator: ", ")
            if let guardText = compiled.guardText { text += " when " + guardText }
            if !compiled.effects.isEmpty { text += " / " + compiled.effects.map { machine.effectNames[$0] }.joined(separator: ", ") }
            text += "\n"
        }
        if text.isEmpty { text = "no input has a transition from the active states\n" }
        return text
    }

    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String {
        let runner = current
        let active = (0..<runner.machine.stateCount).filter { runner.isActive($0) }
        return Diagram.render(runner.machine, definition: definition, format: format, highlighting: active)
    }
}
