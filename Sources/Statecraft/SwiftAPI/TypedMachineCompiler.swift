/// Compiles a typed machine's rules to the engine's representation: slots and inputs interned to
/// dense ids, rows to a ``CompiledMachine`` with its `state x input` dispatch table, and guards to
/// ``HostCondition``s that read the typed request from the machine's ``TypedFrame``.
enum TypedMachineCompiler {
    struct Output<State: MachineState, Context: Sendable> {
        let machine: CompiledMachine
        /// Input ids; inputs that no row names have one with no transitions, so the runner gives
        /// them `no-transition`, `ignored` or `finished` like any other.
        let inputs: InputTable
        /// Per engine transition, its row.
        let rows: [ErasedRow<State, Context>]
        /// Per engine state, its work and the id of the input that reports the work's result.
        let works: [(work: WorkState<State, Context>, input: Int)?]
        /// Per input id, for the internal input of a delayed row (``After``), the input its
        /// timer's results report; empty for a machine without delayed rows.
        let afterInputs: [SentInput?]
    }

    static func compile<State, Context>(
        initial: State, rules: MachineRules<State, Context>, onUnhandled: MachineDefinition.UnhandledPolicy,
        frame: TypedFrame<State, Context>
    ) -> Output<State, Context> {
        var slots: [State.Slot] = []
        var slotIDs: [State.Slot: Int] = [:]
        func intern(_ slot: State.Slot) {
            guard slotIDs[slot] == nil else { return }
            slotIDs[slot] = slots.count
            slots.append(slot)
        }
        intern(initial.slot)
        var rows: [ErasedRow<State, Context>] = []
        var inputIDs: [InputKey: Int] = [:]
        var inputNames: [String] = []
        func internInput(_ key: InputKey) {
            guard inputIDs[key] == nil else { return }
            inputIDs[key] = inputNames.count
            inputNames.append(key.name)
        }
        var finals: [State.Slot] = []
        var works: [WorkState<State, Context>] = []
        // Each delayed row has an internal input of its own, named as a machine file's are
        // (`after 30s`, then `after 30s #2`): its timer fires that input alone.
        var rowInputs: [Int: Int] = [:]
        var afterTexts: [Int: String] = [:]
        var afterCopies: [String: Int] = [:]
        var afterKeys: [Int: InputKey] = [:]
        for rule in rules.rules {
            switch rule {
            case .row(let row):
                if case .slots(let sources) = row.sources.kind { sources.forEach(intern) }
                intern(row.targetSlot)
                if let delay = row.delay {
                    let copy = afterCopies[delay.text, default: 0] + 1
                    afterCopies[delay.text] = copy
                    rowInputs[rows.count] = inputNames.count
                    afterTexts[inputNames.count] = delay.text
                    afterKeys[inputNames.count] = row.input
                    inputNames.append(copy == 1 ? "after \(delay.text)" : "after \(delay.text) #\(copy)")
                } else {
                    internInput(row.input)
                }
                rows.append(row)
            case .work(let work):
                intern(work.slot)
                internInput(work.input)
                works.append(work)
            case .final(let slot):
                intern(slot)
                finals.append(slot)
            }
        }
        let unmappedInput = inputNames.count
        inputNames.append("(unmapped)")

        var workBySlot = [(work: WorkState<State, Context>, input: Int)?](repeating: nil, count: slots.count)
        for work in works {
            let id = slotIDs[work.slot]!
            precondition(workBySlot[id] == nil, "two work states for '\(work.slot)'")
            workBySlot[id] = (work, inputIDs[work.input]!)
        }
        var isFinal = [Bool](repeating: false, count: slots.count)
        for slot in finals { isFinal[slotIDs[slot]!] = true }

        let transitions = rows.enumerated().map { index, row -> CompiledTransition in
            var sources: [Int]
            switch row.sources.kind {
            case .slots(let listed):
                sources = []
                for id in listed.map({ slotIDs[$0]! }) where !sources.contains(id) { sources.append(id) }
            case .predicate(let matches):
                sources = slots.indices.filter { matches(slots[$0]) }
            }
            let condition = row.condition.map { condition in
                CompiledExpression.host(HostCondition { _, _ in condition(frame) })
            }
            return CompiledTransition(
                input: rowInputs[index] ?? inputIDs[row.input]!, sources: sources, target: slotIDs[row.targetSlot]!,
                guardExpression: condition, guardText: condition == nil ? nil : "when", effects: [], position: .unknown,
                refusal: nil)
        }
        let machine = CompiledMachine(
            name: String(describing: State.self), description: nil, stateNames: slots.map { String(describing: $0) },
            inputNames: inputNames, effectNames: [], variableNames: [], initialState: 0, initialContext: [],
            onUnhandled: onUnhandled, argumentTypes: inputNames.map { _ in nil }, argumentIsRead: inputNames.map { _ in false },
            isFinal: isFinal, entryEffects: slots.map { _ in [] }, exitEffects: slots.map { _ in [] },
            transitions: transitions, effects: [], inputIsInternal: inputNames.indices.map { afterTexts[$0] != nil },
            timers: timers(of: rows, transitions: transitions, isFinal: isFinal, inputCount: inputNames.count, afterTexts: afterTexts))
        var afterInputs: [SentInput?] = []
        if !afterKeys.isEmpty {
            afterInputs = inputNames.indices.map { id in
                afterKeys[id].map { SentInput(.interned($0), argument: (), isQueued: false) }
            }
        }
        return Output(
            machine: machine, inputs: InputTable(inputIDs, unmapped: unmappedInput), rows: rows, works: workBySlot,
            afterInputs: afterInputs)
    }

    /// The timers of the delayed rows, per source state in the order written; `nil` when there
    /// are none, so that the machine runs without any clock work.
    private static func timers<State, Context>(
        of rows: [ErasedRow<State, Context>], transitions: [CompiledTransition], isFinal: [Bool], inputCount: Int,
        afterTexts: [Int: String]
    ) -> MachineTimers? {
        guard !afterTexts.isEmpty else { return nil }
        var afters = [[MachineTimers.After]](repeating: [], count: isFinal.count)
        for (row, transition) in zip(rows, transitions) {
            guard let delay = row.delay else { continue }
            for source in transition.sources where !isFinal[source] {
                afters[source].append(MachineTimers.After(input: transition.input, milliseconds: delay.milliseconds))
            }
        }
        return MachineTimers(afters: afters, inputCount: inputCount, afterTexts: afterTexts, timerNames: [])
    }
}

