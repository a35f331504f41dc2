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

    /// The rows of a typed machine as a table: its states (slots) and inputs interned to dense
    /// ids, each row's sources and target, its final and work states. What a row does (guards,
    /// effects, builders) is not compiled yet, so no frame is needed: this is what the table's
    /// fingerprint is computed from before a snapshot's state is decoded.
    struct Table<State: MachineState, Context: Sendable> {
        /// The states, by id: `initial`'s slot first when given, then in the order rules name them.
        var slots: [State.Slot] = []
        var slotIDs: [State.Slot: Int] = [:]
        /// Per state, whether a rule names it (the initial state's slot may be named by none).
        var isNamed: [Bool] = []
        var stateNames: [String] = []
        var rows: [ErasedRow<State, Context>] = []
        /// Per row, its source and target states.
        var sources: [[Int]] = []
        var targets: [Int] = []
        /// Per row, its input's id.
        var rowInputs: [Int] = []
        var inputIDs: [InputKey: Int] = [:]
        var inputNames: [String] = []
        /// Per delayed row's input id, the delay as written and the input its results report.
        var afterTexts: [Int: String] = [:]
        var afterKeys: [Int: InputKey] = [:]
        var unmappedInput = 0
        var isFinal: [Bool] = []
        var works: [(work: WorkState<State, Context>, input: Int)?] = []

        /// What the table's fingerprint covers.
        var structure: TableStructure {
            TableStructure(
                stateNames: stateNames, isNamed: isNamed, isFinal: isFinal, inputNames: inputNames,
                inputIsInternal: inputNames.indices.map { afterTexts[$0] != nil },
                transitions: rowInputs.indices.map { (rowInputs[$0], sources[$0], targets[$0]) },
                works: works.indices.compactMap { state in works[state].map { (state, $0.input) } })
        }
    }

    /// The table of `rules`, its first state `initial`'s slot when given.
    static func table<State, Context>(initial: State.Slot?, rules: MachineRules<State, Context>) -> Table<State, Context> {
        var table = Table<State, Context>()
        func intern(_ slot: State.Slot, named: Bool = true) {
            if let id = table.slotIDs[slot] {
                if named { table.isNamed[id] = true }
                return
            }
            table.slotIDs[slot] = table.slots.count
            table.slots.append(slot)
            table.isNamed.append(named)
        }
        if let initial { intern(initial, named: false) }
        func internInput(_ key: InputKey) -> Int {
            if let id = table.inputIDs[key] { return id }
            table.inputIDs[key] = table.inputNames.count
            table.inputNames.append(key.name)
            return table.inputNames.count - 1
        }
        var finals: [State.Slot] = []
        var works: [WorkState<State, Context>] = []
        // Each delayed row has an internal input of its own, named as a machine file's are
        // (`after 30s`, then `after 30s #2`): its timer fires that input alone.
        var afterCopies: [String: Int] = [:]
        for rule in rules.rules {
            switch rule {
            case .row(let row):
                if case .slots(let sources) = row.sources.kind { sources.forEach { intern($0) } }
                intern(row.targetSlot)
                if let delay = row.delay {
                    let copy = afterCopies[delay.text, default: 0] + 1
                    afterCopies[delay.text] = copy
                    table.rowInputs.append(table.inputNames.count)
                    table.afterTexts[table.inputNames.count] = delay.text
                    table.afterKeys[table.inputNames.count] = row.input
                    table.inputNames.append(copy == 1 ? "after \(delay.text)" : "after \(delay.text) #\(copy)")
                } else {
                    table.rowInputs.append(internInput(row.input))
                }
                table.rows.append(row)
            case .work(let work):
                intern(work.slot)
                _ = internInput(work.input)
                works.append(work)
            case .final(let slot):
                intern(slot)
                finals.append(slot)
            }
        }
        table.unmappedInput = table.inputNames.count
        table.inputNames.append("(unmapped)")
        table.stateNames = table.slots.map { String(describing: $0) }

        table.works = .init(repeating: nil, count: table.slots.count)
        for work in works {
            let id = table.slotIDs[work.slot]!
            precondition(table.works[id] == nil, "two work states for '\(work.slot)'")
            table.works[id] = (work, table.inputIDs[work.input]!)
        }
        table.isFinal = [Bool](repeating: false, count: table.slots.count)
        for slot in finals { table.isFinal[table.slotIDs[slot]!] = true }
        for row in table.rows {
            switch row.sources.kind {
            case .slots(let listed):
                var sources: [Int] = []
                for id in listed.map({ table.slotIDs[$0]! }) where !sources.contains(id) { sources.append(id) }
                table.sources.append(sources)
            case .predicate(let matches):
                table.sources.append(table.slots.indices.filter { matches(table.slots[$0]) })
            }
            table.targets.append(table.slotIDs[row.targetSlot]!)
        }
        return table
    }

    static func compile<State, Context>(
        initial: State, rules: MachineRules<State, Context>, onUnhandled: MachineDefinition.UnhandledPolicy,
        frame: TypedFrame<State, Context>
    ) -> Output<State, Context> {
        compile(table(initial: initial.slot, rules: rules), onUnhandled: onUnhandled, frame: frame)
    }

    /// The machine of `table`, its guards reading `frame`; it starts in the table's first state.
    static func compile<State, Context>(
        _ table: Table<State, Context>, onUnhandled: MachineDefinition.UnhandledPolicy, frame: TypedFrame<State, Context>
    ) -> Output<State, Context> {
        let transitions = table.rows.indices.map { index -> CompiledTransition in
            let condition = table.rows[index].condition.map { condition in
                CompiledExpression.host(HostCondition { _, _ in condition(frame) })
            }
            return CompiledTransition(
                input: table.rowInputs[index], sources: table.sources[index], target: table.targets[index],
                guardExpression: condition, guardText: condition == nil ? nil : "when", effects: [], position: .unknown,
                refusal: nil)
        }
        let inputNames = table.inputNames
        let machine = CompiledMachine(
            name: String(describing: State.self), description: nil, stateNames: table.stateNames,
            inputNames: inputNames, effectNames: [], variableNames: [], initialState: 0, initialContext: [],
            onUnhandled: onUnhandled, argumentTypes: inputNames.map { _ in nil }, argumentIsRead: inputNames.map { _ in false },
            isFinal: table.isFinal, entryEffects: table.slots.map { _ in [] }, exitEffects: table.slots.map { _ in [] },
            transitions: transitions, effects: [], inputIsInternal: inputNames.indices.map { table.afterTexts[$0] != nil },
            timers: timers(
                of: table.rows, transitions: transitions, isFinal: table.isFinal, inputCount: inputNames.count,
                afterTexts: table.afterTexts))
        var afterInputs: [SentInput?] = []
        if !table.afterKeys.isEmpty {
            afterInputs = inputNames.indices.map { id in
                table.afterKeys[id].map { SentInput(.interned($0), argument: (), isQueued: false) }
            }
        }
        return Output(
            machine: machine, inputs: InputTable(table.inputIDs, unmapped: table.unmappedInput), rows: table.rows,
            works: table.works, afterInputs: afterInputs)
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

