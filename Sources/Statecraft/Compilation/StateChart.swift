/// What a statechart's runner needs beside the flat machine: the state tree, every transition
/// once per state it leaves from with what can be computed at load (its domain, so its exit
/// set is the active states in one id range), transitions indexed by source state, the inputs
/// of done events, and the states that `in()` tests.
///
/// A machine has one when any state has children, any transition is eventless or any
/// expression uses `in()`; other machines run on the flat ``DispatchTable``.
@usableFromInline
package struct StateChart: Sendable {
    /// A transition from one source state.
    package struct Transition: Sendable {
        /// The input, or -1 for an eventless transition.
        package let input: Int32
        package let source: Int32
        /// The targets as written (history pseudo-states included); empty for one that stays.
        package let targets: [Int32]
        /// The state whose descendants the transition exits and enters (SCXML's transition
        /// domain): -1 for the whole machine, ``noDomain`` for a transition that stays. Not
        /// valid when ``targetsHistory`` (it then depends on what the history recorded).
        package let domain: Int32
        package let targetsHistory: Bool
        package let isInternal: Bool
        package let isGuarded: Bool
        /// Whether it refuses its input when selected (`reject: MESSAGE`).
        package let refuses: Bool
        /// Its index in ``CompiledMachine/transitions`` (guard, effects, position).
        package let compiled: Int32
    }

    /// The domain of a transition without targets: it exits and enters nothing.
    package static let noDomain: Int32 = -2

    package let tree: StateTree
    package let transitions: [Transition]
    /// The transitions leaving from each state, in file order:
    /// `transitionsBySource[sourceStarts[state] ..< sourceStarts[state + 1]]`.
    let sourceStarts: [Int32]
    let transitionsBySource: [Int32]
    /// The input of each transition of ``transitionsBySource``, beside it: selection scans a
    /// state's inputs without reading its transitions.
    let inputsBySource: [Int32]
    /// The states with a transition on each input, for inputs taken from few states:
    /// `inputSources[inputSourceStarts[input] ..< inputSourceStarts[input + 1]]`; a lone -1
    /// for an input with too many to look at before selection.
    /// Selection refuses an input at once when none of these is active (most inputs, in a
    /// machine that ignores most of what it is sent).
    let inputSourceStarts: [Int32]
    let inputSources: [Int32]
    /// How many source states an input may have and still be looked up before selection.
    static let scannedSourceLimit = 16
    /// What each transition enters when it is the only one a microstep takes and that does not
    /// depend on the run (``StateTree/staticEntrySet(targets:domain:limit:)``):
    /// `staticEntries[staticEntryStarts[t] ..< staticEntryStarts[t + 1]]`, or a lone -1 when
    /// the runner must work it out.
    let staticEntryStarts: [Int32]
    let staticEntries: [Int32]
    /// The most states a transition's static entry set holds; larger ones are worked out.
    static let staticEntryLimit = 64
    /// Whether any transition is eventless: when none, no eventless selection is needed.
    package let hasEventless: Bool
    /// The sources of eventless transitions, as a configuration bitset: while no active state
    /// is one, the eventless selection after a step has nothing to look at.
    package let eventlessSources: [UInt64]
    /// Per state, the input `done.state.NAME` to raise when it completes, or -1 when no
    /// transition takes that input (raising it could change nothing, and prints nothing).
    package let doneInputs: [Int32]
    /// The states that `in()` tests, and the slot after the context's variables where each one's
    /// activity is kept as a bool for expressions to read.
    package let activityTests: [(state: Int32, slot: Int32)]
    /// Per state, its slot of ``activityTests``, or -1 when `in()` does not test it; empty when
    /// no expression uses `in()`.
    package let activitySlots: [Int32]
    /// Per state, the effects of its default entry (``StateDeclaration/defaultEffects``); empty
    /// when no state has any.
    package let defaultEffects: [[Int]]
    /// Whether failures raise `error.execution` (``MachineDefinition/ErrorPolicy/raise``)
    /// rather than reject the input.
    package let raisesErrors: Bool
    /// The input `error.execution` to queue when a step fails, or -1 when no transition takes
    /// it (or failures reject the input).
    package let errorInput: Int32
    /// The slot after the context's variables (and ``activityTests``) that holds the name of the
    /// input being processed, for `input()`; -1 when no expression calls it.
    package let inputNameSlot: Int32
    /// For a machine whose states nest but that has nothing else of a statechart (no parallel
    /// state, history, eventless transition or `in()`), every input's step from every atomic
    /// state, worked out at load; `nil` for the others.
    package internal(set) var leafTable: LeafDispatchTable?

    init(
        tree: StateTree, transitions: [Transition], doneInputs: [Int32], activityTests: [(state: Int32, slot: Int32)],
        defaultEffects: [[Int]], raisesErrors: Bool = false, errorInput: Int32 = -1, inputNameSlot: Int32 = -1
    ) {
        self.inputNameSlot = inputNameSlot
        self.raisesErrors = raisesErrors
        self.errorInput = errorInput
        self.defaultEffects = defaultEffects.contains { !$0.isEmpty } ? defaultEffects : []
        self.tree = tree
        self.transitions = transitions
        self.doneInputs = doneInputs
        self.activityTests = activityTests
        var activitySlots = [Int32](repeating: -1, count: activityTests.isEmpty ? 0 : tree.count)
        for test in activityTests { activitySlots[Int(test.state)] = test.slot }
        self.activitySlots = activitySlots
        var starts = [Int32](repeating: 0, count: tree.count + 1)
        for transition in transitions { starts[Int(transition.source) + 1] += 1 }
        for state in 0..<tree.count { starts[state + 1] += starts[state] }
        var filled = starts
        var bySource = [Int32](repeating: 0, count: transitions.count)
        for (index, transition) in transitions.enumerated() {
            bySource[Int(filled[Int(transition.source)])] = Int32(index)
            filled[Int(transition.source)] += 1
        }
        sourceStarts = starts
        transitionsBySource = bySource
        inputsBySource = bySource.map { transitions[Int($0)].input }
        hasEventless = transitions.contains { $0.input < 0 }
        (inputSourceStarts, inputSources) = Self.sourcesByInput(transitions)
        var entryStarts: [Int32] = [0]
        var entries: [Int32] = []
        entryStarts.reserveCapacity(transitions.count + 1)
        for transition in transitions {
            if transition.targetsHistory {
                // What it enters is what the history recorded.
                entries.append(-1)
            } else if transition.domain == Self.noDomain {
                // It enters nothing (a transition that stays): an empty list.
            } else if let entered = tree.staticEntrySet(targets: transition.targets, domain: Int(transition.domain), limit: Self.staticEntryLimit)
            {
                entries.append(contentsOf: entered)
            } else {
                entries.append(-1)
            }
            entryStarts.append(Int32(entries.count))
        }
        (staticEntryStarts, staticEntries) = (entryStarts, entries)
        var sources = [UInt64](repeating: 0, count: (tree.count + 63) / 64)
        for transition in transitions where transition.input < 0 {
            sources[Int(transition.source) >> 6] |= 1 << UInt64(Int(transition.source) & 63)
        }
        eventlessSources = sources
    }

    /// The transitions leaving from `state`, in file order.
    package func transitions(from state: Int) -> ArraySlice<Int32> {
        transitionsBySource[Int(sourceStarts[state])..<Int(sourceStarts[state + 1])]
    }

    /// What transition `index` enters, when it is the only one of a microstep, or `nil` when
    /// the runner must work it out (a history on the way, or too many states).
    @inline(__always)
    func staticEntrySet(of index: Int) -> ArraySlice<Int32>? {
        let entered = staticEntries[Int(staticEntryStarts[index])..<Int(staticEntryStarts[index + 1])]
        return entered.first == -1 ? nil : entered
    }

    /// Whether an input surely has no transition in `configuration`: none of its few source
    /// states is active. `false` when it may have one (or has too many sources to look at).
    @inline(__always)
    func isUnhandled(_ input: Int, in configuration: [UInt64]) -> Bool {
        guard input + 1 < inputSourceStarts.count else { return true }
        for position in Int(inputSourceStarts[input])..<Int(inputSourceStarts[input + 1]) {
            let state = Int(inputSources[position])
            if state < 0 || configuration[state >> 6] & (1 << UInt64(state & 63)) != 0 { return false }
        }
        return true
    }

    /// Each input's distinct source states, as ``inputSourceStarts`` and ``inputSources`` keep them.
    private static func sourcesByInput(_ transitions: [Transition]) -> (starts: [Int32], sources: [Int32]) {
        let inputCount = Int(transitions.lazy.map(\.input).max() ?? -1) + 1
        var byInput = [[Int32]](repeating: [], count: inputCount)
        for transition in transitions where transition.input >= 0 {
            let input = Int(transition.input)
            guard byInput[input].count <= scannedSourceLimit, !byInput[input].contains(transition.source) else { continue }
            byInput[input].append(transition.source)
        }
        var starts: [Int32] = []
        var sources: [Int32] = []
        starts.reserveCapacity(inputCount + 1)
        for states in byInput {
            starts.append(Int32(sources.count))
            sources.append(contentsOf: states.count > scannedSourceLimit ? [-1] : states)
        }
        starts.append(Int32(sources.count))
        return (starts, sources)
    }
}
