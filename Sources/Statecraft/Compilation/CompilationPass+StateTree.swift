// Statecharts: nested states flattened, the tree checked and compiled, transitions prepared
// for the statechart runner.
extension CompilationPass {
    /// Flattens the definition's states depth first (document order), with each one's parent.
    mutating func flattenStates() {
        guard definition.states.contains(where: { !$0.children.isEmpty }) else {
            states = definition.states
            parents = [Int](repeating: -1, count: states.count)
            return
        }
        // An explicit stack: depth is bounded by the decoder, but a definition built in Swift is not.
        var stack: [(state: StateDeclaration, parent: Int)] = definition.states.reversed().map { ($0, -1) }
        while let (state, parent) = stack.popLast() {
            let id = states.count
            var flat = state
            flat.children = []
            states.append(flat)
            parents.append(parent)
            for child in state.children.reversed() { stack.append((child, id)) }
        }
    }

    /// The states that `in()` tests in any guard or effect expression, each given a slot after
    /// the context's variables (reported as undefined later when no state has that name); and
    /// when any expression calls `input()`, the slot after those that holds the input's name.
    mutating func findActivityTests() {
        // Only a text with `in` in it can call `in()` or `input()`: a byte scan finds the few
        // such texts (usually none) among a large machine's guards, each distinct text parsed once.
        var texts: [String] = []
        var seen: Set<String> = []
        definition.transitions.withUnsafeBufferPointer { transitions in
            // Field by field: a whole transition's copy would retain each of its strings and arrays.
            for index in transitions.indices {
                if let text = transitions[index].guardExpression?.text, Self.mentionsIn(text), seen.insert(text).inserted { texts.append(text) }
            }
        }
        for effect in definition.effects {
            for expression in effect.expressions where Self.mentionsIn(expression.text) && seen.insert(expression.text).inserted {
                texts.append(expression.text)
            }
        }
        guard !texts.isEmpty else { return }
        let parsed = texts.compactMap { try? ExpressionParser.parse($0) }
        let tested = parsed.flatMap(\.testedStates)
        if !tested.isEmpty {
            let declared = Set(states.map(\.name.name))
            for name in tested where activitySlots[name] == nil && declared.contains(name) {
                activitySlots[name] = definition.context.count + activitySlots.count
            }
            stateNamesForTests = states.map(\.name.name)
        }
        if parsed.contains(where: \.readsInputName) {
            inputNameSlot = definition.context.count + activitySlots.count
        }
    }

    /// Whether `text` has `in` in it, as an expression that tests a state (`in(...)`) has: a
    /// byte scan, where `String.contains` of a string costs thousands of instructions a call.
    static func mentionsIn(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "i") && byte == UInt8(ascii: "n") { return true }
            previous = byte
        }
        return false
    }

    /// The input that a failing step raises under ``MachineDefinition/ErrorPolicy/raise``.
    static let errorExecutionInput = "error.execution"

    /// Under ``MachineDefinition/ErrorPolicy/raise``, the machine has the internal input
    /// `error.execution`, without argument, declared or not (and internal even if declared
    /// otherwise, or named by a transition).
    mutating func declareErrorInput() {
        let name = Self.errorExecutionInput
        if let input = inputIDs[name] {
            if argumentTypes[input] != nil {
                let position = definition.inputs?.first { $0.name.name == name }?.name.position ?? .unknown
                error(.argumentType, "input '\(name)' is raised by failing steps (on_error: raise) and takes no argument", position)
            }
            // Internal however it was declared: only the machine raises it.
            inputIsInternal[input] = true
            return
        }
        inputIDs[name] = inputNames.count
        inputNames.append(name)
        argumentTypes.append(nil)
        inputIsInternal.append(true)
    }

    /// Every state with children has the input `done.state.NAME`, declared or not.
    mutating func declareDoneInputs() {
        var hasChildren = [Bool](repeating: false, count: states.count)
        for parent in parents where parent >= 0 { hasChildren[parent] = true }
        for (index, state) in states.enumerated() where hasChildren[index] || state.isParallel {
            let name = "done.state." + state.name.name
            guard inputIDs[name] == nil else { continue }
            inputIDs[name] = inputNames.count
            inputNames.append(name)
            argumentTypes.append(nil)
            inputIsInternal.append(false)
        }
    }

    /// Checks the tree's shape (initial states, history, final and parallel states) and builds it.
    mutating func buildTree(initial: Int, others: [Int]) -> StateTree? {
        let errorsBefore = diagnostics.count
        var childCount = [Int](repeating: 0, count: states.count)
        for parent in parents where parent >= 0 { childCount[parent] += 1 }
        var kinds = [StateTree.Kind](repeating: .atomic, count: states.count)
        var historyOnly = [Bool](repeating: true, count: states.count)
        for (index, state) in states.enumerated() {
            if let history = state.history {
                kinds[index] = history == .deep ? .deepHistory : .shallowHistory
            } else if parents[index] >= 0 {
                historyOnly[parents[index]] = false
            }
        }
        for (index, state) in states.enumerated() where state.history == nil && childCount[index] > 0 {
            kinds[index] = state.isParallel ? .parallel : .compound
        }
        var initialOf = [[Int]](repeating: [], count: states.count)
        var historyDefaults = [[Int]](repeating: [], count: states.count)
        for (index, state) in states.enumerated() {
            let name = state.name
            if state.history != nil {
                let parent = parents[index]
                if parent < 0 {
                    error(
                        .invalidState, "history state '\(name.name)' is at the top level; a history state is a child of the state whose past it recalls",
                        name.position)
                } else {
                    historyDefaults[index] = descendants(state.historyDefault, of: parent, role: "default of history state '\(name.name)'")
                }
                if let first = state.defaultEffects.first, state.historyDefault.isEmpty {
                    error(
                        .invalidState, "'default_effects' of history state '\(name.name)' run when it leads to its 'default'; give it one",
                        first.position)
                }
                continue
            }
            if let first = state.defaultEffects.first, childCount[index] == 0 || state.isParallel {
                error(
                    .invalidState,
                    "'default_effects' run when a compound state is entered through its 'initial'; '\(name.name)' is \(state.isParallel ? "parallel" : "atomic")",
                    first.position)
            }
            if state.isFinal && childCount[index] > 0 {
                error(.invalidState, "final state '\(name.name)' has children; a final state is atomic", name.position)
            }
            if state.isParallel && (childCount[index] == 0 || historyOnly[index]) {
                error(.invalidState, "parallel state '\(name.name)' has no regions; give it child states under 'states'", name.position)
            }
            if childCount[index] > 0 && historyOnly[index] && !state.isParallel {
                error(.invalidState, "state '\(name.name)' has only history states as children; give it a state to enter", name.position)
            }
            guard let first = state.initial.first else { continue }
            if state.isParallel {
                error(
                    .invalidInitial, "parallel state '\(name.name)' enters every region; it takes no 'initial' (name the states in a transition's 'to' instead)",
                    first.position)
            } else if childCount[index] == 0 {
                error(.invalidInitial, "'initial' of state '\(name.name)', which has no children", first.position)
            } else {
                initialOf[index] = descendants(state.initial, of: index, role: "initial of '\(name.name)'", historyParent: index)
            }
        }
        guard diagnostics.count == errorsBefore, initial >= 0 else { return nil }
        let tree = StateTree(kinds: kinds, isFinal: states.map(\.isFinal), parents: parents, initialOf: initialOf, historyDefaults: historyDefaults, initial: [initial] + others)
        // Several initial states must lie in different regions.
        for (index, targets) in initialOf.enumerated() where targets.count > 1 {
            if let problem = sameRegionProblem(targets, tree) { error(.invalidInitial, "initial of '\(states[index].name.name)': \(problem)", states[index].initial[0].position) }
        }
        if !others.isEmpty, let problem = sameRegionProblem([initial] + others, tree) {
            error(.invalidInitial, "the machine's initial states: \(problem)", definition.initial.position)
        }
        for (index, targets) in historyDefaults.enumerated() where targets.count > 1 {
            if let problem = sameRegionProblem(targets, tree) {
                error(.invalidState, "default of history state '\(states[index].name.name)': \(problem)", states[index].historyDefault[0].position)
            }
        }
        return diagnostics.count == errorsBefore ? tree : nil
    }

    /// `names` resolved to states that are descendants of `ancestor` and not history states
    /// (but for the history states of `historyParent`: SCXML's `<initial>` may lead to one);
    /// each one that is not, reported.
    private mutating func descendants(_ names: [Named], of ancestor: Int, role: String, historyParent: Int = -1) -> [Int] {
        var ids: [Int] = []
        for name in names {
            guard let id = stateIDs[name.name] else {
                let candidates = states.indices.filter { isDescendant($0, of: ancestor) }.map { states[$0].name.name }
                undefinedState(name, "\(role) refers to undefined state '\(name.name)'" + Suggestion.didYouMean(name.name, in: candidates))
                continue
            }
            if !isDescendant(id, of: ancestor) {
                error(.invalidInitial, "\(role) is '\(name.name)', which is not inside '\(states[ancestor].name.name)'", name.position)
            } else if states[id].history != nil && parents[id] != historyParent {
                error(.invalidInitial, "\(role) is history state '\(name.name)'; name a state", name.position)
            } else {
                ids.append(id)
            }
        }
        return ids
    }

    private func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var parent = parents[state]
        while parent >= 0 {
            if parent == ancestor { return true }
            parent = parents[parent]
        }
        return false
    }

    /// Why `targets` cannot be entered together (one inside another, or two in one region), or `nil`.
    func sameRegionProblem(_ targets: [Int], _ tree: StateTree) -> String? {
        for (offset, a) in targets.enumerated() {
            for b in targets[(offset + 1)...] {
                let (nameA, nameB) = (states[a].name.name, states[Int(b)].name.name)
                if a == b { return "'\(nameA)' is named twice" }
                if tree.isDescendant(a, of: b) || tree.isDescendant(b, of: a) {
                    return "'\(nameA)' and '\(nameB)' are one inside the other; name the innermost"
                }
                let common = tree.leastCommonAncestor(a, b)
                if common < 0 || tree.kinds[common] != .parallel {
                    let place = common < 0 ? "the top level" : "'\(states[common].name.name)'"
                    return "'\(nameA)' and '\(nameB)' are in the same region (\(place)), where only one state is active at a time"
                }
            }
        }
        return nil
    }

    /// The transitions as the statechart runner reads them, once per source state, with their
    /// domains; checks targets and eventless cycles.
    mutating func buildChart(_ tree: StateTree, _ transitions: [CompiledTransition]) -> StateChart? {
        let errorsBefore = diagnostics.count
        var chartTransitions: [StateChart.Transition] = []
        var checked: Set<SourcePosition> = []
        var reportedHistorySources: Set<SourcePosition> = []
        chartTransitions.reserveCapacity(transitions.count)
        // By index, field by field: a copy of each whole transition would retain all its parts.
        for index in transitions.indices {
            let targets = transitions[index].targets
            let position = transitions[index].position
            if targets.count > 1, checked.insert(position).inserted, let problem = sameRegionProblem(targets, tree) {
                error(.invalidTarget, "transition's targets cannot be entered together: \(problem)", position)
            }
            let targetsHistory = targets.contains { tree.kinds[$0].isHistory }
            // One list of targets for all the transition's sources.
            let chartTargets = targets.map { Int32($0) }
            let isInternal = transitions[index].isInternal
            let isGuarded = transitions[index].guardExpression != nil
            let refuses = transitions[index].refusal != nil
            let input = Int32(transitions[index].input)
            for source in transitions[index].sources {
                if tree.kinds[source].isHistory {
                    if reportedHistorySources.insert(position).inserted {
                        error(.invalidState, "a transition leaves from history state '\(states[source].name.name)', which is never active", position)
                    }
                    continue
                }
                var domain = StateChart.noDomain
                if !targets.isEmpty && !targetsHistory {
                    if isInternal && tree.kinds[source] == .compound && targets.allSatisfy({ tree.isDescendant($0, of: source) }) {
                        domain = Int32(source)
                    } else {
                        domain = Int32(tree.leastCommonCompoundAncestor([source] + targets))
                    }
                }
                chartTransitions.append(
                    StateChart.Transition(
                        input: input, source: Int32(source), targets: chartTargets, domain: domain,
                        targetsHistory: targetsHistory, isInternal: isInternal,
                        isGuarded: isGuarded, refuses: refuses, compiled: Int32(index)))
            }
        }
        checkEventlessCycles(tree, chartTransitions, transitions)
        guard diagnostics.count == errorsBefore else { return nil }
        // Which inputs a transition is taken on, by input id (eventless transitions' -1 left out).
        var usedInputs = [Bool](repeating: false, count: inputNames.count)
        for index in chartTransitions.indices where chartTransitions[index].input >= 0 { usedInputs[Int(chartTransitions[index].input)] = true }
        let doneInputs = states.indices.map { state -> Int32 in
            guard tree.kinds[state] == .compound || tree.kinds[state] == .parallel,
                let input = inputIDs["done.state." + states[state].name.name], usedInputs[input]
            else { return -1 }
            return Int32(input)
        }
        let activityTests = activitySlots.map { (state: Int32(stateIDs[$0.key]!), slot: Int32($0.value)) }.sorted { $0.slot < $1.slot }
        let raisesErrors = definition.onError == .raise
        var errorInput: Int32 = -1
        if raisesErrors, let input = inputIDs[Self.errorExecutionInput], usedInputs[input] { errorInput = Int32(input) }
        return StateChart(
            tree: tree, transitions: chartTransitions, doneInputs: doneInputs, activityTests: activityTests, defaultEffects: defaultEffects,
            raisesErrors: raisesErrors, errorInput: errorInput, inputNameSlot: Int32(inputNameSlot ?? -1))
    }

    /// Reports eventless transitions without guards that can follow one another around a
    /// loop: after one is taken, the next is enabled at once, forever.
    private mutating func checkEventlessCycles(_ tree: StateTree, _ chart: [StateChart.Transition], _ transitions: [CompiledTransition]) {
        let free = chart.indices.filter { chart[$0].input < 0 && !chart[$0].isGuarded }
        guard let loop = EventlessCycles.find(in: tree, chart, among: free, until: { _ in true }).first else { return }
        let names = loop.map { states[Int(chart[$0].source)].name.name }
        error(
            .eventlessCycle,
            "eventless transitions without guards loop forever: \((names + [names[0]]).map { "'\($0)'" }.joined(separator: " -> ")); give one a guard or an input",
            transitions[Int(chart[loop[0]].compiled)].position)
    }
}
