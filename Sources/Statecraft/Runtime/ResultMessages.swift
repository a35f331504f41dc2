// The wording of every result, flat or statechart: one sentence per outcome and rejection kind,
// naming the input and the states the step met (one state for a flat machine, the active
// atomic states joined by `, ` for a statechart). Each runner hands its states over itself
// (reading `machine` through the protocol would copy the compiled machine on every message).

extension TableRunner {
    /// ``MachineRunner/message(for:inputName:argument:)``: the state before and after the step.
    @usableFromInline package func message(for result: TransitionResult, inputName: String? = nil, argument: Value = .null) -> String {
        machine.message(
            for: result, inputName: inputName, before: machine.stateNames[result.from >= 0 ? result.from : current],
            after: { machine.stateNames[current] }, stepLimit: stepLimit, falseGuards: { falseGuards(of: result, argument: argument) })
    }
}

extension ChartRunner {
    /// ``MachineRunner/message(for:inputName:argument:)``: the configurations before and after
    /// the step (the start shows the one it entered).
    @usableFromInline package func message(for result: TransitionResult, inputName: String? = nil, argument: Value = .null) -> String {
        machine.message(
            for: result, inputName: inputName, before: configurationText(result.isStart ? configuration : previousConfiguration),
            after: { configurationText(configuration) }, stepLimit: stepLimit, falseGuards: { falseGuards(of: result, argument: argument) })
    }
}

extension MachineRunner {
    /// The active atomic states before or after `result`'s step, joined by `, `.
    package func statesText(before: Bool, of result: TransitionResult) -> String {
        var text = ""
        forEachState(before: before, of: result) { state in
            if !text.isEmpty { text += ", " }
            text += machine.stateNames[state]
        }
        return text
    }
}

extension CompiledMachine {
    /// ``MachineRunner/message(for:inputName:argument:)`` for a flat machine's result without its
    /// runner (the typed Swift API's machines, which run the same table): `from` and `to` name
    /// the states.
    ///
    /// - Parameters:
    ///   - stepLimit: the runner's step limit, for `step-limit` results.
    ///   - context: for `guard-rejected`, the context the guards read, so that the message shows
    ///     the values each guard read; `nil` to name the guards only.
    ///   - argument: for `guard-rejected`, the input's argument, shown when a guard reads `arg`.
    @usableFromInline package func message(
        for result: TransitionResult, inputName: String? = nil, stepLimit: Int = RunLimits.defaultStepLimit,
        context: [Value]? = nil, argument: Value = .null
    ) -> String {
        message(
            for: result, inputName: inputName, before: result.from >= 0 ? stateNames[result.from] : "?",
            after: { result.to >= 0 ? stateNames[result.to] : "?" }, stepLimit: stepLimit,
            falseGuards: { result.input >= 0 && result.from >= 0 ? falseGuards(input: result.input, state: result.from, context: context, argument: argument) : nil })
    }

    /// The one wording of results; `after` is asked only of an accepted result.
    @usableFromInline
    func message(
        for result: TransitionResult, inputName: String?, before states: String, after: () -> String, stepLimit: Int,
        falseGuards: () -> String?
    ) -> String {
        let input = inputName ?? (result.input >= 0 ? inputNames[result.input] : result.trigger == .eventless ? "an eventless transition" : "?")
        switch result.outcome {
        case .accepted: return "'\(input)' moved from '\(states)' to '\(after())'"
        case .ignored: return ResultWording.noTransition(input: input, state: states) + "; ignored (on_unhandled: ignore)"
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
                if let type = argumentTypes[result.input] { return "'\(input)' takes one \(type) argument" }
                return "'\(input)' takes no argument"
            case .noTransition: return ResultWording.noTransition(input: input, state: states)
            case .guardRejected:
                let guards = result.input >= 0 ? falseGuards() : nil
                return "every guard of '\(input)' from '\(states)' is false" + (guards.map { ": \($0)" } ?? "")
            case .finished:
                // A flat machine stops in a final state; a statechart when it enters a top-level one.
                return chart == nil ? "'\(states)' is a final state" : "the machine has finished (it entered a top-level final state)"
            case .stepLimit:
                let what = result.trigger == .eventless ? "an eventless transition" : "'\(input)'"
                if chart != nil {
                    return "more than \(stepLimit) eventless transitions and queued inputs for one external input (a livelock?); "
                        + "\(what) and \(result.discarded) more queued inputs were discarded"
                }
                if result.isTimer {
                    return "more than \(stepLimit) timers and queued inputs at one instant (a livelock?); "
                        + "\(what) and \(result.discarded) more timers and queued inputs were discarded"
                }
                return "more than \(stepLimit) queued inputs for one external input (a livelock?); "
                    + "\(what) and \(result.discarded) more queued inputs were discarded"
            case .timerLimit: return ResultWording.timerLimit()
            case .expressionError: return expressionErrorMessage(result)
            case .queued: return ResultWording.queued(input: input)
            case .refused:
                return result.refusingTransition >= 0 ? transitions[result.refusingTransition].refusal ?? "refused" : "refused"
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

    /// Why a step that would start timers past the cap was not taken; `option`, when given,
    /// names what raises the cap (smrun's flag).
    @usableFromInline package static func timerLimit(option: String? = nil) -> String {
        "taking it would pass the limit on pending timers\(option.map { " (\($0))" } ?? ""); nothing changed"
    }

    /// Why an input sent from inside a run was refused for now: it is queued.
    package static func queued(input: String) -> String {
        "'\(input)' was sent while the machine runs a transition; it runs after it"
    }
}
