/// A checked machine in its runnable form: names interned to dense ids, transitions in a
/// `state x input` dispatch table, expressions type-checked and resolved.
///
/// Loading a machine file gives one (``StateMachine`` runs it). Its public part names what the
/// machine has; the table, ids and the rest are the engine's (package-internal).
public struct CompiledMachine: Sendable {
    /// The machine's name (a file's `machine` key, or its base name).
    public let name: String
    /// The machine's description, if it has one.
    package let description: String?
    /// State names, by state id.
    public let stateNames: [String]
    /// Input names, by input id.
    public let inputNames: [String]
    /// Effect names, by effect id.
    public let effectNames: [String]
    /// Context variable names, by slot.
    @usableFromInline package let variableNames: [String]
    /// The initial state's id.
    package let initialState: Int
    /// The context's initial values, by slot.
    package let initialContext: [Value]
    /// The type of each context variable: its initial value's, or, for one that starts as
    /// `null`, the nullable type assigned to it (docs/machine-files.md).
    package let variableTypes: [ExpressionType]
    /// What an input without a transition does: rejected or ignored.
    @usableFromInline package let onUnhandled: MachineDefinition.UnhandledPolicy
    /// The argument type of each input; `nil` for an input that takes none.
    package let argumentTypes: [ValueType?]
    /// Whether any guard or effect may read each input's argument. When not, a caller may skip
    /// building the argument's value (a string, say) after checking its type.
    package let argumentIsRead: [Bool]
    /// Whether each input is internal: only the machine's effects may send it, and a caller
    /// sending it from outside treats it as an unknown input (``InputDeclaration/isInternal``).
    package let inputIsInternal: [Bool]
    /// Whether a caller may send an event name that is no input
    /// (``MachineDefinition/acceptsUndeclaredEvents``): smrun's script parser maps such a name
    /// to the input of its longest prefix, so the runners never see it.
    package var acceptsUndeclaredEvents = false
    /// Whether each state, by id, is final.
    package let isFinal: [Bool]
    package let entryEffects: [[Int]]
    package let exitEffects: [[Int]]
    package let transitions: [CompiledTransition]
    package let effects: [CompiledEffect]
    /// The state tree and what the statechart runner reads, for a machine that needs it (any
    /// nesting, eventless transition or `in()`); `nil` for a flat machine, which ``TableRunner``
    /// runs through its dispatch table.
    @usableFromInline package let chart: StateChart?
    /// Whether the machine is a statechart (any nesting, eventless transition or `in()`): run
    /// it with ``ChartRunner``; ``TableRunner`` runs the others.
    package var isStatechart: Bool { chart != nil }
    /// The dispatch table that ``TableRunner`` reads (empty for a statechart).
    @usableFromInline let table: DispatchTable
    /// The machine's `after` transitions and timer ids; `nil` for a machine without timers,
    /// which runs without any clock work.
    package let timers: MachineTimers?
    /// Whether the machine has `after` transitions or effects that schedule or cancel inputs.
    package var hasTimers: Bool { timers != nil }

    init(
        name: String, description: String?, stateNames: [String], inputNames: [String], effectNames: [String],
        variableNames: [String], initialState: Int, initialContext: [Value],
        onUnhandled: MachineDefinition.UnhandledPolicy, argumentTypes: [ValueType?], argumentIsRead: [Bool],
        isFinal: [Bool], entryEffects: [[Int]], exitEffects: [[Int]], transitions: [CompiledTransition],
        effects: [CompiledEffect], chart: StateChart? = nil, variableTypes: [ExpressionType]? = nil, inputIsInternal: [Bool]? = nil,
        timers: MachineTimers? = nil
    ) {
        self.chart = chart
        self.timers = timers
        self.name = name
        self.description = description
        self.stateNames = stateNames
        self.inputNames = inputNames
        self.effectNames = effectNames
        self.variableNames = variableNames
        self.initialState = initialState
        self.initialContext = initialContext
        self.variableTypes = variableTypes ?? initialContext.map { ExpressionType(of: $0) }
        self.onUnhandled = onUnhandled
        self.argumentTypes = argumentTypes
        self.argumentIsRead = argumentIsRead
        self.inputIsInternal = inputIsInternal ?? inputNames.map { _ in false }
        self.isFinal = isFinal
        self.entryEffects = entryEffects
        self.exitEffects = exitEffects
        self.transitions = transitions
        self.effects = effects
        table = (chart == nil ? transitions : []).withUnsafeBufferPointer { transitions in
            DispatchTable(
                stateCount: chart == nil ? stateNames.count : 0, inputCount: inputNames.count, isFinal: isFinal, transitions: transitions,
                effects: effects, entryEffects: entryEffects, exitEffects: exitEffects, timedStates: timers?.hasAfters ?? [])
        }
    }

    /// The number of states.
    package var stateCount: Int { stateNames.count }
    /// The number of inputs.
    @inlinable package var inputCount: Int { inputNames.count }

    /// Whether the machine has extended state.
    package var hasContext: Bool { !variableNames.isEmpty }

    /// The cells of the dispatch table, its rows laid over each other's gaps (``DispatchTable``).
    package var dispatchCellCount: Int { table.cells.count }

    /// The candidate transitions for `input` in `state`, in file order.
    package func candidates(state: Int, input: Int) -> ArraySlice<Int32> {
        let cell = table.cell(state: state, input: input)
        if cell.code >= 0 { return [cell.code][...] }
        let start = Int(cell.next)
        var end = start
        while table.cellTransitions[end] >= 0 { end += 1 }
        return table.cellTransitions[start..<end]
    }

    /// The effects that ran for `result`: a start's entry effects, or its transition's; none when
    /// it was rejected or ignored.
    package func effectsRun(by result: TransitionResult) -> EffectSequence {
        if result.isStart {
            return result.isAccepted ? EffectSequence(exit: [], transition: [], entry: entryEffects[initialState]) : .none
        }
        return result.isAccepted && result.transition >= 0 ? effectsRun(by: result.transition, from: result.from) : .none
    }

    /// The effects that taking `transition` from `source` runs, in order (docs/semantics.md).
    package func effectsRun(by transition: Int, from source: Int) -> EffectSequence {
        // Field by field: a copy of the whole transition would retain all its arrays.
        let target = transitions[transition].target
        let effects = transitions[transition].effects
        guard target >= 0 else { return EffectSequence(exit: [], transition: effects, entry: []) }
        return EffectSequence(exit: exitEffects[source], transition: effects, entry: entryEffects[target])
    }
}

/// A transition in compiled form.
///
/// A large machine has a hundred thousand of these alive beside its dispatch table: the ids are
/// kept in 32 bits and the parts few transitions have (a guard's text, a refusal, more targets,
/// `type: internal`) in one box, or none, so that one takes 48 bytes rather than 96.
package struct CompiledTransition: Sendable {
    private let storedInput: Int32
    private let storedTarget: Int32
    /// The states it leaves from (a `"*"` source expanded to every non-final state).
    package let sources: [Int]
    package let guardExpression: CompiledExpression?
    package let effects: [Int]
    package let position: SourcePosition
    private let rare: RareParts?

    /// The parts most transitions do not have.
    private final class RareParts: Sendable {
        let guardText: String?
        let refusal: String?
        let moreTargets: [Int]
        let isInternal: Bool

        init(guardText: String?, refusal: String?, moreTargets: [Int], isInternal: Bool) {
            self.guardText = guardText
            self.refusal = refusal
            self.moreTargets = moreTargets
            self.isInternal = isInternal
        }
    }

    package init(
        input: Int, sources: [Int], target: Int, guardExpression: CompiledExpression?, guardText: String?, effects: [Int],
        position: SourcePosition, refusal: String?, moreTargets: [Int] = [], isInternal: Bool = false
    ) {
        storedInput = Int32(input)
        storedTarget = Int32(target)
        self.sources = sources
        self.guardExpression = guardExpression
        self.effects = effects
        self.position = position
        rare =
            guardText == nil && refusal == nil && moreTargets.isEmpty && !isInternal
            ? nil : RareParts(guardText: guardText, refusal: refusal, moreTargets: moreTargets, isInternal: isInternal)
    }

    /// The guard as written, for messages.
    package var guardText: String? { rare?.guardText }
    /// The input it is taken on; -1 for an eventless transition.
    package var input: Int { Int(storedInput) }
    /// The target state, or -1 to stay without exit or entry effects.
    package var target: Int { Int(storedTarget) }
    /// For a transition written `reject: MESSAGE`: the message. Selected, it rejects the input
    /// (`refused`) and changes nothing; it has no target (-1) and no effects.
    package var refusal: String? { rare?.refusal }
    /// The targets after ``target`` (a transition into several parallel regions).
    package var moreTargets: [Int] { rare?.moreTargets ?? [] }
    /// `type: internal`: does not exit a compound source whose descendants it targets.
    package var isInternal: Bool { rare?.isInternal ?? false }

    /// Every target; empty for a transition that stays.
    package var targets: [Int] { target < 0 ? [] : [target] + moreTargets }

    /// Whether the transition is eventless (``input`` is -1).
    package var isEventless: Bool { input < 0 }
}

/// The effects one transition runs: the source's exit effects, the transition's, the target's
/// entry effects. Iterating allocates nothing.
@usableFromInline package struct EffectSequence: Sequence, Sendable {
    let exit: [Int]
    let transition: [Int]
    let entry: [Int]

    /// Whether no effect runs.
    package var isEmpty: Bool { exit.isEmpty && transition.isEmpty && entry.isEmpty }

    static let none = EffectSequence(exit: [], transition: [], entry: [])

    /// Iterates the effect ids in the order they run.
    @usableFromInline package struct Iterator: IteratorProtocol {
        let parts: EffectSequence
        var part = 0
        var index = 0

        /// The next effect id, or `nil` after the last.
        @usableFromInline package mutating func next() -> Int? {
            while part < 3 {
                let list = part == 0 ? parts.exit : part == 1 ? parts.transition : parts.entry
                if index < list.count {
                    index += 1
                    return list[index - 1]
                }
                part += 1
                index = 0
            }
            return nil
        }
    }

    /// An iterator over the effect ids, in the order they run.
    @usableFromInline package func makeIterator() -> Iterator { Iterator(parts: self) }
}
