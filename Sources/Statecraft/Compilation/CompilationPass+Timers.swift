// Timers: the internal inputs that `after` transitions are taken on, the ids of delayed sends,
// and what the runners read to start and cancel timers.
extension CompilationPass {
    /// Declares one internal input per `after` transition, named `after 30s` (a name with a
    /// blank, so it never clashes with a declared one; `after 30s #2` for the next of the same
    /// delay). The runners process it when the transition's timer fires.
    mutating func declareAfterInputs() {
        let start = inputNames.count
        var copies: [String: Int] = [:]
        for (index, transition) in definition.transitions.enumerated() {
            guard let after = transition.after else { continue }
            let copy = copies[after.text, default: 0] + 1
            copies[after.text] = copy
            let name = copy == 1 ? "after \(after.text)" : "after \(after.text) #\(copy)"
            afterInputs[index] = inputNames.count
            inputIDs[name] = inputNames.count
            inputNames.append(name)
            argumentTypes.append(nil)
            inputIsInternal.append(true)
        }
        afterInputRange = start..<inputNames.count
    }

    /// Gives each `id` of a delayed send a timer id, in order of first mention, and checks that
    /// every `cancel` names one and that only delayed sends have an id.
    mutating func declareTimerIDs() {
        for effect in definition.effects {
            for send in effect.allSends {
                guard let id = send.id else { continue }
                if !send.isDelayed {
                    error(
                        .invalidValue,
                        "'id' names a delayed input so that 'cancel' can cancel it; this send of '\(send.input.name)' has no 'delay'",
                        id.position)
                }
                if timerIDs[id.name] == nil {
                    timerIDs[id.name] = timerNames.count
                    timerNames.append(id.name)
                }
            }
        }
        for effect in definition.effects {
            for name in effect.allCancels where timerIDs[name.name] == nil {
                error(
                    .undefinedTimer,
                    "effect '\(effect.name.name)' cancels '\(name.name)', but no send has that id"
                        + Suggestion.didYouMean(name.name, in: timerIDs.keys),
                    name.position)
            }
        }
    }

    /// What the runners need to run the machine's timers; `nil` when it has none.
    func machineTimers(_ transitions: [CompiledTransition]) -> MachineTimers? {
        let delays = definition.effects.contains { $0.cancels || $0.allSends.contains(where: \.isDelayed) }
        guard !afterInputs.isEmpty || delays else { return nil }
        var afters = [[MachineTimers.After]](repeating: [], count: states.count)
        var texts: [Int: String] = [:]
        var milliseconds: [Int: Int] = [:]
        for (index, input) in afterInputs {
            guard let after = definition.transitions[index].after else { continue }
            texts[input] = after.text
            milliseconds[input] = after.milliseconds
        }
        // By index: compiled transitions are in document order.
        for index in transitions.indices {
            let input = transitions[index].input
            guard afterInputRange.contains(input), let delay = milliseconds[input] else { continue }
            for source in transitions[index].sources where !states[source].isFinal {
                afters[source].append(MachineTimers.After(input: input, milliseconds: delay))
            }
        }
        return MachineTimers(afters: afters, inputCount: inputNames.count, afterTexts: texts, timerNames: timerNames)
    }
}
