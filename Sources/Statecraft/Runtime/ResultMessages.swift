extension CompiledMachine {
    /// A sentence saying why `result` was rejected or ignored, naming the input and state.
    /// Built only when a result is reported, never on the hot path of accepted inputs.
    ///
    /// - Parameters:
    ///   - inputName: the name as written, for an input unknown to the machine.
    ///   - stepLimit: the runner's step limit, for `step-limit` results.
    ///   - context: for `guard-rejected`, the context the guards read (the runner's, which a
    ///     rejection leaves as it was), so that the message shows the values each guard read;
    ///     `nil` to name the guards only.
    ///   - argument: for `guard-rejected`, the input's argument, shown when a guard reads `arg`.
    public func message(
        for result: TransitionResult, inputName: String? = nil, stepLimit: Int = Runner.defaultStepLimit,
        context: [Value]? = nil, argument: Value = .null
    ) -> String {
        let input = inputName ?? (result.input >= 0 ? inputNames[result.input] : "?")
        let state = stateNames[result.from]
        switch result.outcome {
        case .accepted(let to): return "'\(input)' moved from '\(state)' to '\(stateNames[to])'"
        case .ignored: return ResultWording.noTransition(input: input, state: state) + "; ignored (on_unhandled: ignore)"
        case .rejected(let kind):
            switch kind {
            case .unknownInput:
                if let id = result.input >= 0 ? result.input : inputNames.firstIndex(of: input), inputIsInternal[id] {
                    return "input '\(input)' is internal: only effects may send it"
                }
                // Internal inputs are not suggested: the caller may not send them either.
                let sendable =
                    inputIsInternal.contains(true) ? inputNames.indices.filter { !inputIsInternal[$0] }.map { inputNames[$0] } : inputNames
                return "unknown input '\(input)'" + Suggestion.didYouMean(input, in: sendable)
            case .badArgument:
                guard result.input >= 0 else { return "bad argument" }
                if let type = argumentTypes[result.input] {
                    return "'\(input)' takes one \(type) argument"
                }
                return "'\(input)' takes no argument"
            case .noTransition: return ResultWording.noTransition(input: input, state: state)
            case .guardRejected:
                let guards = result.input >= 0 ? falseGuards(input: result.input, state: result.from, context: context, argument: argument) : nil
                return "every guard of '\(input)' from '\(state)' is false" + (guards.map { ": \($0)" } ?? "")
            case .finished: return "'\(state)' is a final state"
            case .stepLimit:
                if result.isTimer {
                    return "more than \(stepLimit) timers and queued inputs at one instant (a livelock?); "
                        + "'\(input)' and \(result.discarded) more timers and queued inputs were discarded"
                }
                return "more than \(stepLimit) queued inputs for one external input (a livelock?); "
                    + "'\(input)' and \(result.discarded) more queued inputs were discarded"
            case .timerLimit: return ResultWording.timerLimit
            case .expressionError:
                return expressionErrorMessage(result)
            case .queued: return ResultWording.queued(input: input)
            case .refused:
                return result.transition >= 0 ? transitions[result.transition].refusal ?? "refused" : "refused"
            }
        }
    }

    private func expressionErrorMessage(_ result: TransitionResult) -> String {
        let what = result.evaluationError?.description ?? "evaluation failed"
        switch result.failedExpression {
        case .guardOf(let transition)?:
            return "\(what) in the guard '\(transitions[transition].guardText ?? "")'; nothing changed"
        case .effect(let effect, let expression)?:
            let texts = effects[effect].expressionTexts
            let text = expression < texts.count ? texts[expression] : "?"
            return "\(what) in '\(text)' of effect '\(effectNames[effect])'; nothing changed"
        case nil:
            return what
        }
    }
}

/// Sentences of result messages written in more than one place.
package enum ResultWording {
    /// The sentence of a `no-transition` rejection, in pieces: `words` receives the fixed words
    /// and `name` the input's and the state's names, in order, so that a writer of bytes (smrun's
    /// printer) composes it without building a `String`. Every other user calls
    /// ``noTransition(input:state:)``.
    @inlinable @inline(__always)
    package static func writeNoTransition<Name>(
        input: Name, state: Name, words: (StaticString) -> Void, name: (Name) -> Void
    ) {
        words("no transition for '")
        name(input)
        words("' from '")
        name(state)
        words("'")
    }

    /// "no transition for 'INPUT' from 'STATE'".
    package static func noTransition(input: String, state: String) -> String {
        var text = ""
        writeNoTransition(input: input, state: state, words: { text += $0.description }, name: { text += $0 })
        return text
    }

    /// Why a transition that would start timers past the cap was not taken.
    package static let timerLimit = "taking it would pass the limit on pending timers (--max-timers); nothing changed"

    /// Why an input sent from inside a run was refused for now: it is queued.
    package static func queued(input: String) -> String {
        "'\(input)' was sent while the machine runs a transition; it runs after it"
    }
}
