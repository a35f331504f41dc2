import Statecraft

/// What `smrun repl`'s `:inputs` lists and TAB offers first: the inputs that have a transition
/// from a state, read from the compiled machine's dispatch table.
struct AvailableInputs {
    let machine: CompiledMachine
    let state: Int

    /// Input ids with a transition from the state, in declaration order.
    var inputs: [Int] {
        machine.isFinal[state] ? [] : (0..<machine.inputCount).filter { !machine.candidates(state: state, input: $0).isEmpty }
    }

    /// Every input id, those of ``inputs`` first (the order TAB offers them).
    var inputsForCompletion: [Int] {
        let first = inputs
        var isFirst = [Bool](repeating: false, count: machine.inputCount)
        for input in first { isFirst[input] = true }
        return first + (0..<machine.inputCount).filter { !isFirst[$0] }
    }

    /// One line per transition that an input can take from the state, in the order they are
    /// tried: `INPUT [<TYPE>] -> TARGET [when GUARD] [/ EFFECTS]`, or `stays` for a transition
    /// without a target; then what happens to other inputs.
    var listing: String {
        let stateName = machine.stateNames[state]
        if machine.isFinal[state] { return "'\(stateName)' is a final state: every input is rejected (finished)\n" }
        var text = ""
        for input in inputs {
            for candidate in machine.candidates(state: state, input: input) {
                let transition = machine.transitions[Int(candidate)]
                text += machine.inputNames[input]
                if let type = machine.argumentTypes[input] { text += " <\(type.rawValue)>" }
                text += transition.target >= 0 ? " -> " + machine.stateNames[transition.target] : " (stays in \(stateName))"
                if let guardText = transition.guardText { text += " when " + guardText }
                let effects = machine.effectsRun(by: Int(candidate), from: state).map { machine.effectNames[$0] }
                if !effects.isEmpty { text += " / " + effects.joined(separator: ", ") }
                text += "\n"
            }
        }
        if text.isEmpty { text = "no input has a transition from '\(stateName)'\n" }
        if inputs.count < machine.inputCount {
            text += machine.onUnhandled == .ignore ? "other inputs are ignored\n" : "other inputs are rejected (no-transition)\n"
        }
        return text
    }
}
