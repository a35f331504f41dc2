// The microstep (SCXML's microstep): exits, effects and entries of the selected transitions,
// all or nothing, with history records and done events.
extension ChartRunner {
    /// Takes the transitions of ``enabled``: exits, effects, entries, all or nothing (an effect
    /// that fails to evaluate leaves the machine as it was).
    mutating func microstep(argument: Value, _ result: inout TransitionResult) {
        let tree = chart.tree
        let hasDefaultEffects = !chart.defaultEffects.isEmpty
        for word in exitSet.indices {
            exitSet[word] = 0
            entrySet[word] = 0
            if hasDefaultEffects { defaultEntrySet[word] = 0 }
        }
        for domain in enabledDomains where domain != StateChart.noDomain {
            Self.insertRange(Int(domain) + 1, tree.end(of: Int(domain)), into: &exitSet)
        }
        for word in exitSet.indices { exitSet[word] &= configuration[word] }
        // History is recorded as the states are exited, before the entry set is computed: a
        // transition that leaves a state and comes back through its history returns to where
        // it was (SCXML's exitStates, then enterStates). Undone if the step fails.
        recordHistories()
        // The common case: one transition, whose entry set was worked out at load (not when
        // default effects need to know which states are entered by default).
        if enabled.count == 1, !hasDefaultEffects, let entered = chart.staticEntrySet(of: Int(enabled[0])) {
            for state in entered { Self.insert(Int(state), into: &entrySet) }
        } else {
            addEntrySets()
        }
        transitionsTaken.append(contentsOf: enabled)
        timerLimitReached = false
        settle(runPlan(argument: argument), &result)
    }

    /// Ends a microstep whose plan ran: `accepted`, or what stopped it (the timer limit, an
    /// effect that failed to evaluate), with history records put back and nothing listed.
    mutating func settle(_ failure: (error: EvaluationError, site: TransitionResult.ExpressionSite)?, _ result: inout TransitionResult) {
        if timerLimitReached || failure != nil { undoHistoryRecords() }
        if timerLimitReached {
            result.outcome = .rejected(.timerLimit)
            effectsRun.removeAll(keepingCapacity: true)
            transitionsTaken.removeAll(keepingCapacity: true)
            return
        }
        if let failure {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
            effectsRun.removeAll(keepingCapacity: true)
            transitionsTaken.removeAll(keepingCapacity: true)
            return
        }
        result.outcome = .accepted
    }

    /// Adds what the transitions of ``enabled`` enter to ``entrySet``, history records included.
    mutating func addEntrySets() {
        let tree = chart.tree
        for (position, index) in enabled.enumerated() {
            let domain = Int(enabledDomains[position])
            let transition = chart.transitions[Int(index)]
            guard domain != Int(StateChart.noDomain) else { continue }
            for target in transition.targets { addDescendants(Int(target)) }
            for target in transition.targets {
                let target = Int(target)
                let slot = Int(tree.historySlots[target])
                if slot < 0 {
                    addAncestors(target, upTo: domain)
                } else if historyCounts[slot] >= 0 {
                    for offset in 0..<Int(historyCounts[slot]) {
                        addAncestors(Int(historyRecords[historyStarts[slot] + offset]), upTo: domain)
                    }
                } else {
                    for state in tree.defaultEntries[target] { addAncestors(Int(state), upTo: domain) }
                }
            }
        }
    }

    /// Lays out the step of ``exitSet``, the taken transitions and ``entrySet`` as a plan
    /// (``layOutPlan()``) and runs it (``executePlan(argument:)``). `nil` when committed; else
    /// what failed, with nothing changed.
    mutating func runPlan(argument: Value) -> (error: EvaluationError, site: TransitionResult.ExpressionSite)? {
        layOutPlan()
        return executePlan(argument: argument)
    }

    /// Lays out the step of ``exitSet``, the taken transitions and ``entrySet`` as ``plan``, and
    /// ``nextConfiguration`` (the configuration after the step).
    mutating func layOutPlan() {
        let tree = chart.tree
        // Read once, as locals: the loops below call mutating methods of self, and reading
        // these through self there would copy the runner.
        let (exitEffects, entryEffects) = (machine.exitEffects, machine.entryEffects)
        let (compiledTransitions, chartTransitions) = (machine.transitions, chart.transitions)
        for word in configuration.indices { nextConfiguration[word] = configuration[word] & ~exitSet[word] }
        let (activitySlots, defaultEffects) = (chart.activitySlots, chart.defaultEffects)
        // Exits, innermost first: descending ids. A state that `in()` tests leaves the
        // configuration once its exit effects ran (SCXML's exitStates).
        var word = exitSet.count - 1
        while word >= 0 {
            var bits = exitSet[word]
            while bits != 0 {
                let bit = 63 - bits.leadingZeroBitCount
                bits &= ~(1 << UInt64(bit))
                let state = word << 6 | bit
                for effect in exitEffects[state] { appendEffect(effect) }
                if !activitySlots.isEmpty && activitySlots[state] >= 0 { plan.append(.activity(slot: activitySlots[state], active: false)) }
            }
            word -= 1
        }
        for index in transitionsTaken {
            for effect in compiledTransitions[Int(chartTransitions[Int(index)].compiled)].effects { appendEffect(effect) }
        }
        // Entries, outermost first: ascending ids.
        for word in entrySet.indices {
            var bits = entrySet[word]
            while bits != 0 {
                let state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if Self.contains(nextConfiguration, state) { continue }
                Self.insert(state, into: &nextConfiguration)
                // Active before its entry effects run (SCXML's enterStates).
                if !activitySlots.isEmpty && activitySlots[state] >= 0 { plan.append(.activity(slot: activitySlots[state], active: true)) }
                for effect in entryEffects[state] { appendEffect(effect) }
                if !defaultEffects.isEmpty { appendDefaultEffects(of: state, defaultEffects) }
                guard tree.isFinal[state] else { continue }
                let parent = Int(tree.parents[state])
                if parent < 0 {
                    plan.append(.finish)
                    continue
                }
                if tree.kinds[parent] == .compound { plan.append(.done(state: Int32(parent))) }
                let grandparent = Int(tree.parents[parent])
                if tree.kinds[parent] == .parallel && isInFinalState(parent, nextConfiguration) {
                    plan.append(.done(state: Int32(parent)))
                } else if grandparent >= 0 && tree.kinds[grandparent] == .parallel && isInFinalState(grandparent, nextConfiguration) {
                    plan.append(.done(state: Int32(grandparent)))
                }
            }
        }
    }

    /// Runs the effect bodies of ``plan`` against a scratch context, and commits: the new
    /// configuration (``nextConfiguration``, leaving ``exitSet``), the context, timers, done
    /// events, the machine's finish. `nil` when committed; else what failed, with nothing changed.
    mutating func executePlan(argument: Value) -> (error: EvaluationError, site: TransitionResult.ExpressionSite)? {
        let doneInputs = chart.doneInputs
        let effects = machine.effects
        // Effect bodies against the scratch context; queued inputs kept only on success.
        let queuedBefore = (internalEnd: queue.count - externalCount, externalCount: externalCount)
        var copied = false
        var finishes = false
        for step in plan {
            let id: Int
            switch step {
            case .finish:
                finishes = true
                continue
            case .done(let state):
                let input = doneInputs[Int(state)]
                if input >= 0 { queue.appendInternal(QueuedInput(input: Int(input), argument: .null, sender: ~Int(state)), externalCount: externalCount) }
                continue
            case .activity(let slot, let active):
                if !copied {
                    for slot in values.indices { scratch[slot] = values[slot] }
                    copied = true
                }
                scratch[Int(slot)] = .bool(active)
                continue
            case .effect(let effect):
                id = Int(effect)
            }
            if let failure = effects[id].run(
                copying: values, into: &scratch, copied: &copied, argument: argument, queue: &queue, externalCount: &externalCount,
                timerRequests: &timerRequests, log: logHandler, iterationLimit: stepLimit, effectNames: machine.effectNames, effect: id)
            {
                // SCXML's rule: the failing step ends its block, what ran before it stays, and
                // error.execution is raised; the step goes on.
                if chart.raisesErrors {
                    let text = effects[id].expressionTexts[failure.expression]
                    raiseError(failure.error, in: "effect '\(machine.effectNames[id])' at '\(text)'", sender: id)
                    continue
                }
                queue.removeSent(since: queuedBefore, externalCount: &externalCount)
                if !timerRequests.isEmpty { timerRequests.removeAll(keepingCapacity: true) }
                return (failure.error, .effect(id, expression: failure.expression))
            }
        }
        if machine.timers != nil && !timersFit() {
            queue.removeSent(since: queuedBefore, externalCount: &externalCount)
            timerRequests.removeAll(keepingCapacity: true)
            timerLimitReached = true
            return nil
        }
        // Commit: the new configuration (history was recorded by the microstep).
        swap(&configuration, &nextConfiguration)
        if copied {
            swap(&values, &scratch)
            contextVersion &+= 1
        }
        if machine.timers != nil { commitTimers() }
        updateActivity()
        if finishes { isFinished = true }
        return nil
    }

    /// Under `on_error: raise`: queues `error.execution` on the internal queue (when a
    /// transition takes it), sent by `sender` (an effect, or ~state for a guard of the state's),
    /// and hands the failure to the log handler, labelled `error.execution`.
    mutating func raiseError(_ error: EvaluationError, in place: String, sender: Int) {
        if let logHandler {
            let raisedBy = sender >= 0 ? machine.effectNames[sender] : machine.stateNames[~sender]
            // An invalid step's message already says where it is.
            let message = if case .invalid(let message) = error { message } else { "\(error) in \(place)" }
            logHandler(EffectLogEntry(effect: raisedBy, label: "error.execution", value: .string(message)))
        }
        let input = Int(chart.errorInput)
        if input >= 0 { queue.appendInternal(QueuedInput(input: input, argument: .null, sender: sender), externalCount: externalCount) }
    }

    /// After `state`'s entry effects: the effects of its default entry, then those of each of
    /// its history states that led to its default (SCXML's enterStates).
    mutating func appendDefaultEffects(of state: Int, _ defaultEffects: [[Int]]) {
        if Self.contains(defaultEntrySet, state) {
            for effect in defaultEffects[state] { appendEffect(effect) }
        }
        for history in chart.tree.histories[state] where Self.contains(defaultEntrySet, Int(history)) {
            for effect in defaultEffects[Int(history)] { appendEffect(effect) }
        }
    }

    @inline(__always)
    mutating func appendEffect(_ effect: Int) {
        plan.append(.effect(Int32(effect)))
        effectsRun.append(Int32(effect))
    }

    /// Records the history of every state of ``exitSet`` that has one, keeping what each slot
    /// held in ``historyUndo`` for ``undoHistoryRecords()``.
    mutating func recordHistories() {
        if !historyUndo.isEmpty { historyUndo.removeAll(keepingCapacity: true) }
        guard !historyCounts.isEmpty else { return }
        let tree = chart.tree
        for word in exitSet.indices {
            var bits = exitSet[word]
            while bits != 0 {
                let state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                for history in tree.histories[state] { record(history, leaving: state) }
            }
        }
    }

    /// Puts back what ``recordHistories()`` overwrote, latest first.
    mutating func undoHistoryRecords() {
        var end = historyUndo.count
        while end > 0 {
            let slot = Int(historyUndo[end - 2])
            let count = historyUndo[end - 1]
            let start = end - 2 - max(Int(count), 0)
            for offset in 0..<max(Int(count), 0) { historyRecords[historyStarts[slot] + offset] = historyUndo[start + offset] }
            historyCounts[slot] = count
            end = start
        }
        historyUndo.removeAll(keepingCapacity: true)
    }

    mutating func record(_ history: Int32, leaving parent: Int) {
        let tree = chart.tree
        let slot = Int(tree.historySlots[Int(history)])
        var count = 0
        let start = historyStarts[slot]
        // What the slot held: its records, then the slot and their count.
        let previous = historyCounts[slot]
        for offset in 0..<max(Int(previous), 0) { historyUndo.append(historyRecords[start + offset]) }
        historyUndo.append(Int32(slot))
        historyUndo.append(previous)
        if tree.kinds[Int(history)] == .deepHistory {
            for state in (parent + 1)..<tree.end(of: parent) where tree.kinds[state] == .atomic && Self.contains(configuration, state) {
                historyRecords[start + count] = Int32(state)
                count += 1
            }
        } else {
            for child in tree.children[parent] where Self.contains(configuration, Int(child)) {
                historyRecords[start + count] = child
                count += 1
            }
        }
        historyCounts[slot] = Int32(count)
    }

    /// Writes each tested state's activity into its slot of ``values``. Mutating, not given
    /// `values` inout: a method of self given one of self's properties inout copies self.
    mutating func updateActivity() {
        for test in chart.activityTests { values[Int(test.slot)] = .bool(Self.contains(configuration, Int(test.state))) }
    }

    /// Whether `state` has completed in `configuration`: a compound state whose active child
    /// is final, a parallel state whose every region has completed.
    func isInFinalState(_ state: Int, _ configuration: [UInt64]) -> Bool {
        let tree = chart.tree
        switch tree.kinds[state] {
        case .compound:
            return tree.children[state].contains { tree.isFinal[Int($0)] && Self.contains(configuration, Int($0)) }
        case .parallel:
            return tree.children[state].allSatisfy { isInFinalState(Int($0), configuration) }
        case .atomic:
            return tree.isFinal[state] && Self.contains(configuration, state)
        case .shallowHistory, .deepHistory:
            return false
        }
    }
}
