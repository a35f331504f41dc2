extension ChartRunner {
    /// The active atomic states of `configuration` as text: names in document order, joined by `, `.
    public func configurationText(_ configuration: [UInt64]) -> String {
        Self.atomicStates(of: configuration, chart.tree).map { machine.stateNames[$0] }.joined(separator: ", ")
    }

    /// A sentence saying why `result` was rejected or ignored, naming the input and the
    /// configuration it met (``previousConfiguration``, while a sink receives the result).
    ///
    /// - Parameter inputName: the name as written, for an input unknown to the machine.
    public func message(for result: ChartResult, inputName: String? = nil) -> String {
        let input = inputName ?? (result.input >= 0 ? machine.inputNames[result.input] : "an eventless transition")
        let states = configurationText(previousConfiguration)
        switch result.outcome {
        case .accepted: return "'\(input)' moved from '\(states)' to '\(configurationText(configuration))'"
        case .ignored: return "no transition for '\(input)' from '\(states)'; ignored (on_unhandled: ignore)"
        case .rejected(let kind):
            switch kind {
            case .unknownInput:
                return "unknown input '\(input)'" + Suggestion.didYouMean(input, in: machine.inputNames)
            case .badArgument:
                guard result.input >= 0 else { return "bad argument" }
                if let type = machine.argumentTypes[result.input] { return "'\(input)' takes one \(type) argument" }
                return "'\(input)' takes no argument"
            case .noTransition: return "no transition for '\(input)' from '\(states)'"
            case .guardRejected: return "every guard of '\(input)' from '\(states)' is false"
            case .finished: return "the machine has finished (it entered a top-level final state)"
            case .stepLimit:
                let what = result.trigger == .eventless ? "an eventless transition" : "'\(input)'"
                return "more than \(stepLimit) eventless transitions and queued inputs for one external input (a livelock?); "
                    + "\(what) and \(result.discarded) more queued inputs were discarded"
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
}
