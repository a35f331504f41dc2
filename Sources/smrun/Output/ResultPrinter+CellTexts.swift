import Statecraft

// What an external input's result prints when it depends on its cell alone, computed once per
// machine so that a plain script line's result is one copy.
extension ResultPrinter {
    /// The text of ``cellText`` for every cell, or nothing for a large machine.
    static func cellTexts(_ machine: CompiledMachine, format: OutputFormat) -> [[UInt8]] {
        guard machine.chart == nil, machine.stateCount * machine.inputCount <= maximumPrecomputedCells else { return [] }
        var texts: [[UInt8]] = []
        for state in 0..<machine.stateCount {
            for input in 0..<machine.inputCount {
                // In JSON, the text starts with the input field.
                let inputField = format == .json ? "\(inputKey)" + JSONText.quoted(machine.inputNames[input]) : ""
                let candidates = machine.candidates(state: state, input: input)
                let from = machine.stateNames[state]
                if machine.isFinal[state] {
                    texts.append([])
                } else if candidates.count == 1 {
                    let transition = Int(candidates.first!)
                    let target = machine.transitions[transition].target
                    let effects = machine.effectsRun(by: transition, from: state).map { machine.effectNames[$0] }
                    let to = machine.stateNames[target >= 0 ? target : state]
                    switch format {
                    case .text:
                        texts.append(Array(": \(from) -> \(to)\(effects.isEmpty ? "" : " / " + effects.joined(separator: ", "))\n".utf8))
                    case .json:
                        let list = effects.map(JSONText.quoted).joined(separator: ",")
                        texts.append(Array(#"\#(inputField),"ok":true,"from":\#(JSONText.quoted(from)),"to":\#(JSONText.quoted(to)),"effects":[\#(list)]"#.utf8))
                    }
                } else if candidates.isEmpty && machine.onUnhandled == .reject {
                    let message = ResultWording.noTransition(input: machine.inputNames[input], state: from)
                    switch format {
                    case .text: texts.append(Array(": \(from): rejected: no-transition: \(message)\n".utf8))
                    case .json:
                        texts.append(
                            Array(
                                #"\#(inputField),"ok":false,"from":\#(JSONText.quoted(from)),"error":"no-transition","message":\#(JSONText.quoted(message))"#
                                    .utf8))
                    }
                } else if candidates.isEmpty {
                    switch format {
                    case .text: texts.append(Array(": \(from): ignored (no transition)\n".utf8))
                    case .json:
                        let state = JSONText.quoted(from)
                        texts.append(Array(#"\#(inputField),"ok":true,"ignored":true,"from":\#(state),"to":\#(state),"effects":[]"#.utf8))
                    }
                } else {
                    texts.append([])
                }
            }
        }
        return texts
    }
}
