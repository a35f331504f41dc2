// Selection (SCXML's selectTransitions and removeConflictingTransitions): which transitions
// one input, or the eventless step, takes.
extension ChartRunner {
    /// Fills ``enabled`` with the transitions to take for `input` (-1: eventless), conflicts
    /// removed; false when there are none, with `result` saying why (no candidate, every guard
    /// false, or a guard that failed to evaluate).
    mutating func select(input: Int, argument: Value, _ result: inout TransitionResult) -> Bool {
        // Each emptied on its own: a selection cut short (by the step limit) leaves `enabled`
        // empty and its domains behind, and a stale domain would misplace the next step's exits.
        if !enabled.isEmpty { enabled.removeAll(keepingCapacity: true) }
        if !enabledDomains.isEmpty { enabledDomains.removeAll(keepingCapacity: true) }
        if input >= 0 && chart.isUnhandled(input, in: configuration) {
            result.outcome = .rejected(.noTransition)
            return false
        }
        var matched = false
        var failure: (EvaluationError, Int)?
        var refusal = -1
        let tree = chart.tree
        let input32 = Int32(input)
        // Read once: each is then indexed without retaining it again.
        let starts = chart.sourceStarts
        let inputs = chart.inputsBySource
        let transitions = chart.transitionsBySource
        atomics: for word in configuration.indices {
            var bits = configuration[word] & tree.atomicMask[word]
            while bits != 0 {
                var state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                ancestors: while state >= 0 {
                    for position in Int(starts[state])..<Int(starts[state + 1]) where inputs[position] == input32 {
                        let index = transitions[position]
                        matched = true
                        if chart.transitions[Int(index)].isGuarded {
                            let compiled = Int(chart.transitions[Int(index)].compiled)
                            do {
                                guard case .bool(true) = try machine.transitions[compiled].guardExpression!.evaluate(values, argument: argument)
                                else { continue }
                            } catch {
                                // SCXML's rule: a condition that fails is false, and raises error.execution.
                                if chart.raisesErrors {
                                    raiseError(
                                        error, in: "the guard '\(machine.transitions[compiled].guardText ?? "")'",
                                        sender: ~Int(chart.transitions[Int(index)].source))
                                    continue
                                }
                                failure = (error, compiled)
                                break atomics
                            }
                        }
                        // A refusal chosen for any active state refuses the whole input.
                        if chart.transitions[Int(index)].refuses {
                            refusal = Int(chart.transitions[Int(index)].compiled)
                            break atomics
                        }
                        if !enabled.contains(index) { enabled.append(index) }
                        break ancestors
                    }
                    state = Int(tree.parents[state])
                }
            }
        }
        if refusal >= 0 {
            enabled.removeAll(keepingCapacity: true)
            result.outcome = .rejected(.refused)
            result.refusingTransition = refusal
            return false
        }
        if let (error, transition) = failure {
            enabled.removeAll(keepingCapacity: true)
            result.outcome = .rejected(.expressionError)
            result.evaluationError = error
            result.failedExpression = .guardOf(transition: transition)
            return false
        }
        guard !enabled.isEmpty else {
            result.outcome = .rejected(matched ? .guardRejected : .noTransition)
            return false
        }
        removeConflicts()
        return true
    }

    /// SCXML's removeConflictingTransitions: two transitions conflict when their exit sets meet;
    /// the one from a descendant of the other's source wins, else the earlier one.
    mutating func removeConflicts() {
        // The common case inline: calling a method of the runner here would copy the runner.
        let transitions = chart.transitions
        for index in enabled {
            let index = Int(index)
            enabledDomains.append(transitions[index].targetsHistory ? domain(of: index) : transitions[index].domain)
        }
        guard enabled.count > 1 else { return }
        let tree = chart.tree
        var kept = 0
        for candidate in 0..<enabled.count {
            let transition = enabled[candidate]
            let domain = enabledDomains[candidate]
            let source = Int(chart.transitions[Int(transition)].source)
            var preempted = false
            for other in 0..<kept where exitSetsMeet(domain, enabledDomains[other]) {
                if !tree.isDescendant(source, of: Int(chart.transitions[Int(enabled[other])].source)) {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            // It preempts the kept ones it conflicts with: keep the others, in order, then it.
            var write = 0
            for other in 0..<kept where !exitSetsMeet(domain, enabledDomains[other]) {
                enabled[write] = enabled[other]
                enabledDomains[write] = enabledDomains[other]
                write += 1
            }
            enabled[write] = transition
            enabledDomains[write] = domain
            kept = write + 1
        }
        enabled.removeSubrange(kept...)
        enabledDomains.removeSubrange(kept...)
    }

    /// Whether the exit sets of two transitions with these domains share a state: each is the
    /// active states of an id range that holds an active state, and such ranges are nested or apart.
    @inline(__always)
    func exitSetsMeet(_ a: Int32, _ b: Int32) -> Bool {
        guard a != StateChart.noDomain && b != StateChart.noDomain else { return false }
        let tree = chart.tree
        let (lowA, highA) = (Int(a) + 1, tree.end(of: Int(a)))
        let (lowB, highB) = (Int(b) + 1, tree.end(of: Int(b)))
        return lowA < highB && lowB < highA
    }

    /// A transition's domain, computed when it targets a history (from what the history recorded).
    func domain(of index: Int) -> Int32 {
        let transition = chart.transitions[index]
        guard transition.targetsHistory else { return transition.domain }
        let tree = chart.tree
        let source = Int(transition.source)
        func coversTargets(_ ancestor: Int) -> Bool {
            for target in transition.targets {
                let target = Int(target)
                let slot = Int(tree.historySlots[target])
                if slot >= 0 {
                    if historyCounts[slot] >= 0 {
                        for offset in 0..<Int(historyCounts[slot]) where !tree.isDescendant(Int(historyRecords[historyStarts[slot] + offset]), of: ancestor) {
                            return false
                        }
                    } else {
                        for state in tree.defaultEntries[target] where !tree.isDescendant(Int(state), of: ancestor) { return false }
                    }
                } else if !tree.isDescendant(target, of: ancestor) {
                    return false
                }
            }
            return true
        }
        if transition.isInternal && tree.kinds[source] == .compound && coversTargets(source) { return Int32(source) }
        var ancestor = Int(tree.parents[source])
        while ancestor >= 0 {
            if tree.kinds[ancestor] == .compound && coversTargets(ancestor) { return Int32(ancestor) }
            ancestor = Int(tree.parents[ancestor])
        }
        return -1
    }
}
