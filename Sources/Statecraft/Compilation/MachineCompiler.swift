/// Checks a ``MachineDefinition`` (names, references, types) and compiles it.
///
/// Every problem is reported, not just the first: the result carries all diagnostics, and a
/// machine only when there is no error.
@usableFromInline package enum MachineCompiler {
    /// What compiling produced.
    package struct Output: Sendable {
        /// The compiled machine, when there were no errors.
        package var machine: CompiledMachine?
        /// Every problem found (errors; the linter's warnings are separate).
        package var diagnostics: [Diagnostic]
    }

    /// The most cells the dispatch table may have (states x inputs), and the most (transition,
    /// source state) pairs: the compiled machine's memory grows with them, and a small file
    /// can declare 60,000 states and 60,000 inputs.
    @usableFromInline package static let defaultMaximumTableCells = 1 << 24

    /// Checks `definition` and compiles it, with at most `maximumTableCells` dispatch cells.
    package static func compile(_ definition: MachineDefinition, maximumTableCells: Int = defaultMaximumTableCells) -> Output {
        var pass = CompilationPass(definition, maximumTableCells: maximumTableCells)
        let machine = pass.run()
        let diagnostics = pass.diagnostics.sorted(by: Diagnostic.inFileOrder)
        return Output(machine: diagnostics.hasErrors ? nil : machine, diagnostics: diagnostics)
    }
}

/// One compilation of one definition: the compiler's phases, each in a file of its own
/// (`CompilationPass+*.swift`), share the names and ids found so far and the diagnostics.
struct CompilationPass {
    let definition: MachineDefinition
    var diagnostics: [Diagnostic] = []

    /// Every state in document order (nested states flattened depth first, a parent before
    /// its children), and each one's parent (-1 at the top level); the definition's top-level
    /// states for a machine without nesting.
    var states: [StateDeclaration] = []
    var parents: [Int] = []
    /// Whether the machine needs the statechart runner (nesting, eventless transitions, `in()`,
    /// `input()`, `on_error: raise`).
    var isChart = false
    /// The states `in()` tests, by name, each with its slot after the context's variables.
    var activitySlots: [String: Int] = [:]
    /// The slot of `input()`, the name of the input being processed, when an expression calls it.
    var inputNameSlot: Int?
    /// Every state's name, for the did-you-mean of an `in()` of an unknown state (empty for a
    /// flat machine without `in()`, where no expression tests states).
    var stateNamesForTests: [String] = []

    var stateIDs: [String: Int] = [:]
    var inputIDs: [String: Int] = [:]
    var inputNames: [String] = []
    var argumentTypes: [ValueType?] = []
    var inputIsInternal: [Bool] = []
    /// Per `after` transition (by index in the definition), its internal input; and the range
    /// of those inputs' ids.
    var afterInputs: [Int: Int] = [:]
    var afterInputRange = 0..<0
    /// The ids of delayed sends (`id: NAME`), by name and in order of first mention.
    var timerIDs: [String: Int] = [:]
    var timerNames: [String] = []
    var effectIDs: [String: Int] = [:]
    var effectNames: [String] = []
    var variables: [String: (slot: Int, type: ExpressionType)] = [:]
    /// The fields that sends give inputs' data, each with its type (``ExpressionScope/dataFields``).
    var dataFields: [String: ValueType] = [:]
    /// Per state, the ids of its entry and of its exit effects.
    var entryEffects: [[Int]] = []
    /// Per state, its ``StateDeclaration/defaultEffects`` as effect ids.
    var defaultEffects: [[Int]] = []
    var exitEffects: [[Int]] = []
    /// Per transition, its names as ids; emptied once the transitions are compiled.
    var references: [TransitionReferences] = []
    /// Guards compiled without error, by text and argument type: a guard written on many
    /// transitions is parsed and checked once.
    var compiledGuards: [GuardKey: CompiledExpression] = [:]
    /// Whether each expression text reads `arg`, as found so far.
    var readsArgumentByText: [String: Bool] = [:]
    /// The misplaced states that a reference was told about (``undefinedState(_:_:)``).
    var toldMisplacedStates: Set<String> = []

    let maximumTableCells: Int

    /// A transition's names resolved to ids, in 32 bytes: a large machine has one per row, all
    /// alive until its transitions are compiled.
    struct TransitionReferences {
        /// The parts most transitions do not have.
        final class RareParts {
            let moreTargets: [Int?]
            let inputs: [Int]
            let hasUndefinedSource: Bool
            let isPattern: Bool

            init(moreTargets: [Int?], inputs: [Int], hasUndefinedSource: Bool, isPattern: Bool) {
                self.moreTargets = moreTargets
                self.inputs = inputs
                self.hasUndefinedSource = hasUndefinedSource
                self.isPattern = isPattern
            }
        }

        /// The source states, each once, in order (every non-final state for `*`); undefined ones left out.
        let sources: [Int]
        let effects: [Int]
        private let rare: RareParts?
        /// The input; -1 when it is undefined.
        private let storedInput: Int32
        /// The target; -1 when there is none, -2 when it is undefined.
        private let storedTarget: Int32

        init(
            input: Int?, sources: [Int], hasUndefinedSource: Bool, target: Int?, moreTargets: [Int?], effects: [Int], isPattern: Bool,
            inputs: [Int]
        ) {
            self.sources = sources
            self.effects = effects
            rare =
                moreTargets.isEmpty && inputs.isEmpty && !hasUndefinedSource && !isPattern
                ? nil : RareParts(moreTargets: moreTargets, inputs: inputs, hasUndefinedSource: hasUndefinedSource, isPattern: isPattern)
            storedInput = input.map { Int32($0) } ?? -1
            storedTarget = target.map { Int32($0) } ?? -2
        }

        /// Whether a listed source state is undefined.
        var hasUndefinedSource: Bool { rare?.hasUndefinedSource ?? false }
        /// Whether the input is a pattern (``TransitionDefinition/isPattern``).
        var isPattern: Bool { rare?.isPattern ?? false }

        /// The input, or `nil` when it is undefined.
        var input: Int? { storedInput < 0 ? nil : Int(storedInput) }
        /// The target state, -1 when there is none, `nil` when it is undefined.
        var target: Int? { storedTarget == -2 ? nil : Int(storedTarget) }
        /// The targets after the first (`nil` where undefined).
        var moreTargets: [Int?] { rare?.moreTargets ?? [] }
        /// For an input pattern, the inputs it matches.
        var inputs: [Int] { rare?.inputs ?? [] }
    }

    struct GuardKey: Hashable {
        var text: String
        var argumentType: ValueType?
    }

    init(_ definition: MachineDefinition, maximumTableCells: Int) {
        self.definition = definition
        self.maximumTableCells = maximumTableCells
    }

    mutating func error(_ code: DiagnosticCode, _ message: String, _ position: SourcePosition) {
        diagnostics.append(.error(code, message, at: position))
    }

    /// Reports `name`, a reference to a state that is not declared, with `message`; but a
    /// reference to a misplaced state (``MachineDefinition/misplacedStates``) is told where the
    /// state is, the first time only: its declaration is reported already, and each reference
    /// after the first would only repeat it.
    mutating func undefinedState(_ name: Named, _ message: String) {
        guard let misplaced = definition.misplacedStates[name.name] else {
            return error(.undefinedState, message, name.position)
        }
        guard toldMisplacedStates.insert(name.name).inserted else { return }
        error(
            .undefinedState,
            "'\(name.name)' is declared under '\(misplaced.parent)' at line \(misplaced.position.line), among its options, not as a state; check the indentation",
            name.position)
    }

    mutating func run() -> CompiledMachine? {
        flattenStates()
        findActivityTests()
        // Statechart options on a state without children (`history`, `parallel`, `initial`) make
        // a statechart too, so that the tree's checks report them.
        isChart =
            parents.contains { $0 >= 0 }
            || states.contains { $0.history != nil || $0.isParallel || !$0.initial.isEmpty || !$0.defaultEffects.isEmpty }
            || definition.transitions.contains { $0.isEventless } || !activitySlots.isEmpty || !definition.otherInitialStates.isEmpty
            || definition.onError == .raise || inputNameSlot != nil
        declareStates()
        declareInputs()
        declareAfterInputs()
        if isChart { declareDoneInputs() }
        if definition.onError == .raise { declareErrorInput() }
        declareTimerIDs()
        declareEffects()
        resolveReferences()
        let initial = resolveInitial()
        let otherInitials = resolveOtherInitials()
        let tree = isChart ? buildTree(initial: initial, others: otherInitials) : nil
        let argumentScopes = effectArgumentTypes(initial: initial)
        declareVariables(argumentScopes: argumentScopes)
        let transitions = compileTransitions()
        // Compiled transitions share their arrays; the rest is not needed again, and the
        // dispatch table is built next, when memory peaks.
        references = []
        guard tableFits(transitions) else { return nil }
        var argumentIsRead = [Bool](repeating: false, count: inputNames.count)
        // By index: iterating would copy each transition, retaining all its parts.
        for index in transitions.indices where transitions[index].input >= 0 && transitions[index].guardText.map({ readsArgument($0) }) ?? false {
            argumentIsRead[transitions[index].input] = true
        }
        let effects = compileEffects(argumentScopes: argumentScopes, transitions: transitions, argumentIsRead: &argumentIsRead)
        let timers = machineTimers(transitions)
        var chart: StateChart?
        if isChart {
            guard let tree, var built = buildChart(tree, transitions) else { return nil }
            built.leafTable = LeafDispatchTable(
                built,
                .init(
                    transitions: transitions, entryEffects: entryEffects, exitEffects: exitEffects, hasBody: effects.map(\.hasBody),
                    inputCount: inputNames.count, hasTimers: timers != nil, maximumCells: maximumTableCells))
            chart = built
        }
        let states = states
        var machine = CompiledMachine(
            name: definition.name, description: definition.description, stateNames: states.map(\.name.name),
            inputNames: inputNames, effectNames: effectNames,
            variableNames: definition.context.map(\.name.name), initialState: max(initial, 0),
            initialContext: definition.context.map(\.initialValue), onUnhandled: definition.onUnhandled,
            argumentTypes: argumentTypes, argumentIsRead: argumentIsRead, isFinal: states.map(\.isFinal),
            entryEffects: entryEffects, exitEffects: exitEffects,
            transitions: transitions, effects: effects, chart: chart,
            variableTypes: definition.context.map { variables[$0.name.name]?.type ?? ExpressionType(of: $0.initialValue) },
            inputIsInternal: inputIsInternal, timers: timers)
        machine.acceptsUndeclaredEvents = definition.acceptsUndeclaredEvents
        return machine
    }

    mutating func readsArgument(_ text: String) -> Bool {
        if let known = readsArgumentByText[text] { return known }
        let reads = (try? ExpressionParser.parse(text))?.readsArgument ?? false
        readsArgumentByText[text] = reads
        return reads
    }
}
