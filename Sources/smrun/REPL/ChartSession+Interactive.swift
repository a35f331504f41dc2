import Statecraft

/// A statechart in `smrun repl`: the prompt shows the configuration (the active atomic states,
/// as results print it), `:undo` goes back to an earlier runner (configuration, history records
/// and context), and `:inputs` lists the transitions that leave an active state.
extension ChartSession: InteractiveSession {
    var machine: CompiledMachine { current.machine }

    var stateDescription: String { current.activeStateNames.joined(separator: ", ") }

    var activeStates: [Int] { current.activeAtomicStates }

    var contextValues: [Value] { current.context }

    var saved: ChartRunner { current }

    mutating func flush() { finish() }

    /// The transitions with an input that leave an active state (atomic or not), in file order:
    /// those an input may select now, guards permitting.
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

    /// One line per transition an input can take from the configuration: `INPUT [<TYPE>] (from
    /// SOURCE) -> TARGETS [when GUARD] [/ EFFECTS]`, `stays` for one without a target, `rejected:
    /// MESSAGE` for a refusal, a done event marked as raised by the machine; then what happens
    /// to other inputs.
    var availableInputs: String {
        let runner = current
        let machine = runner.machine
        if runner.isFinished { return "the statechart has finished: every input is rejected (finished)\n" }
        var text = ""
        var hasTransition = [Bool](repeating: false, count: machine.inputCount)
        for transition in enabledTransitions {
            let input = Int(transition.input)
            hasTransition[input] = true
            let compiled = machine.transitions[Int(transition.compiled)]
            text += machine.inputNames[input]
            if let type = machine.argumentTypes[input] { text += " <\(type.rawValue)>" }
            let raised = machine.chart?.doneInputs.contains(Int32(input)) == true ? "; raised when it completes" : ""
            text += " (from \(machine.stateNames[Int(transition.source)])\(raised))"
            if let refusal = compiled.refusal {
                text += " rejected: " + refusal
            } else {
                text += transition.targets.isEmpty ? " stays" : " -> " + transition.targets.map { machine.stateNames[Int($0)] }.joined(separator: ", ")
            }
            if let guardText = compiled.guardText { text += " when " + guardText }
            if !compiled.effects.isEmpty { text += " / " + compiled.effects.map { machine.effectNames[$0] }.joined(separator: ", ") }
            text += "\n"
        }
        if text.isEmpty { text = "no input has a transition from the active states\n" }
        if hasTransition.contains(false) {
            text += machine.onUnhandled == .ignore ? "other inputs are ignored\n" : "other inputs are rejected (no-transition)\n"
        }
        return text
    }

    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String {
        let runner = current
        return Diagram.render(runner.machine, definition: definition, format: format, options: Diagram.Options(highlightedStates: Set(runner.activeAtomicStates)))
    }
}
