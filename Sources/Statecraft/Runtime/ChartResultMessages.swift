extension ChartRunner {
    /// The active atomic states of `configuration` as text: names in document order, joined by `, `.
    public func configurationText(_ configuration: [UInt64]) -> String {
        Self.atomicStates(of: configuration, chart.tree).map { machine.stateNames[$0] }.joined(separator: ", ")
    }

    /// A sentence saying why `result` was rejected or ignored, naming the input and the
    /// configuration it met (``previousConfiguration``, while a sink receives the result).
    ///
    /// - Parameter inputName: the name as written, for an input unknown to the machine.
    ///   - argument: the input's argument, shown by a `guard-rejected` message when a guard reads it.
    public func message(for result: ChartResult, inputName: String? = nil, argument: Value = .null) -> String {
        let input = inputName ?? (result.input >= 0 ? machine.inputNames[result.input] : "an eventless transition")
        let states = configurationText(previousConfiguration)
        switch result.outcome {
        case .accepted: return "'\(input)' moved from '\(states)' to '\(configurationText(configuration))'"
        case .ignored: return "no transition for '\(input)' from '\(states)'; ignored (on_unhandled: ignore)"
        case .rejected(let kind):
            switch kind {
            case .unknownInput:
                // As for a flat machine: an internal input says so, and is never suggested.
                let isInternal = machine.inputIsInternal
                if let id = result.input >= 0 ? result.input : machine.inputNames.firstIndex(of: input), isInternal[id] {
                    return "input '\(input)' is internal: only effects may send it"
                }
                let sendable = isInternal.contains(true) ? machine.inputNames.indices.filter { !isInternal[$0] }.map { machine.inputNames[$0] } : machine.inputNames
                return "unknown input '\(input)'" + Suggestion.didYouMean(input, in: sendable)
            case .badArgument:
                guard result.input >= 0 else { return "bad argument" }
                if let type = machine.argumentTypes[result.input] { return "'\(input)' takes one \(type) argument" }
                return "'\(input)' takes no argument"
            case .noTransition: return "no transition for '\(input)' from '\(states)'"
            case .guardRejected:
                let guards = result.input >= 0 ? machine.falseGuards(of: candidates(of: result.input), context: values, argument: argument) : nil
                return "every guard of '\(input)' from '\(states)' is false" + (guards.map { ": \($0)" } ?? "")
            case .finished: return "the machine has finished (it entered a top-level final state)"
            case .stepLimit:
                let what = result.trigger == .eventless ? "an eventless transition" : "'\(input)'"
                return "more than \(stepLimit) eventless transitions and queued inputs for one external input (a livelock?); "
                    + "\(what) and \(result.discarded) more queued inputs were discarded"
            case .timerLimit: return ResultWording.timerLimit
            case .refused:
                return result.refusingTransition >= 0 ? machine.transitions[result.refusingTransition].refusal ?? "refused" : "refused"
            case .queued:
                return "'\(input)' was queued"
            case .expressionError:
                let what = result.evaluationError?.description ?? "evaluation failed"
                switch result.failedExpression {
                case .guardOf(let transition)?:
                    return "\(what) in the guard '\(machine.transitions[transition].guardText ?? "")'; nothing changed"
                case .effect(let effect, let expression)?:
                    let texts = machine.effects[effect].expressionTexts
                    let text = expression < texts.count ? texts[expression] : "?"
                    return "\(what) in '\(text)' of effect '\(machine.effectNames[effect])'; nothing changed"
                case nil:
                    return what
                }
            }
        }
    }

    /// The transitions of `input` that the active atomic states and their ancestors offer, in
    /// selection order, each once (by index in ``CompiledMachine/transitions``).
    private func candidates(of input: Int) -> [Int] {
        var found: [Int] = []
        let tree = chart.tree
        for atomic in Self.atomicStates(of: previousConfiguration, tree) {
            var state = atomic
            while state >= 0 {
                for index in chart.transitions(from: state) where chart.transitions[Int(index)].input == Int32(input) {
                    let compiled = Int(chart.transitions[Int(index)].compiled)
                    if !found.contains(compiled) { found.append(compiled) }
                }
                state = Int(tree.parents[state])
            }
        }
        return found
    }
}
