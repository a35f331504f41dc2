import Statecraft

extension AvailableInputs {
    /// One line per transition that an input can take now, in the order they are tried:
    /// `INPUT [<TYPE>] -> TARGET [when GUARD] [/ EFFECTS]` (`(stays in STATE)` for one without a
    /// target); a statechart's name the state they leave, `(from SOURCE)`, list their targets,
    /// and say `rejected: MESSAGE` for a refusal and when a done event is raised. Then what
    /// happens to other inputs.
    var listing: String {
        if isFinished {
            return machine.chart == nil
                ? "'\(machine.stateNames[active[0]])' is a final state: every input is rejected (finished)\n"
                : "the statechart has finished: every input is rejected (finished)\n"
        }
        var text = ""
        var hasTransition = [Bool](repeating: false, count: machine.inputCount)
        for (input, index, source, targets) in candidates {
            hasTransition[input] = true
            let transition = machine.transitions[index]
            text += machine.inputNames[input]
            if let type = machine.argumentTypes[input] { text += " <\(type.rawValue)>" }
            if let chart = machine.chart {
                let raised = chart.doneInputs.contains(Int32(input)) ? "; raised when it completes" : ""
                text += " (from \(machine.stateNames[source])\(raised))"
                if let refusal = transition.refusal {
                    text += " rejected: " + refusal
                } else {
                    text += targets.isEmpty ? " stays" : " -> " + targets.map { machine.stateNames[Int($0)] }.joined(separator: ", ")
                }
            } else {
                text += transition.target >= 0 ? " -> " + machine.stateNames[transition.target] : " (stays in \(machine.stateNames[source]))"
            }
            if let guardText = transition.guardText { text += " when " + guardText }
            // A flat machine's transition runs its source's exit and its target's entry effects too.
            let effects = machine.chart == nil ? Array(machine.effectsRun(by: index, from: source)) : transition.effects
            if !effects.isEmpty { text += " / " + effects.map { machine.effectNames[$0] }.joined(separator: ", ") }
            text += "\n"
        }
        if text.isEmpty {
            text = machine.chart == nil ? "no input has a transition from '\(machine.stateNames[active[0]])'\n" : "no input has a transition from the active states\n"
        }
        if hasTransition.contains(false) {
            text += machine.onUnhandled == .ignore ? "other inputs are ignored\n" : "other inputs are rejected (no-transition)\n"
        }
        return text
    }
}
