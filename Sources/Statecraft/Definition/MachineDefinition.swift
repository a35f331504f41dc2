/// A state machine as written: names, not yet checked or compiled.
///
/// Machine files decode to a definition (`StatecraftYAML`, `StatecraftSCXML`), which loading
/// compiles to a ``CompiledMachine``. Its parts (states, transitions, effect bodies) are the
/// decoders' model and internal to the package: a machine built in Swift is a
/// ``TypedStateMachine``, and a machine built as text loads from its YAML.
public struct MachineDefinition: Sendable {
    /// What to do with an input that has no transition from the current state.
    public enum UnhandledPolicy: String, Sendable, CaseIterable {
        /// Report `no-transition` as a failure (the default).
        case reject
        /// Report it as ignored: the input succeeds and nothing changes.
        case ignore
    }

    /// What a step that fails when it runs does (an expression that cannot be evaluated, a
    /// `send` to a target the machine cannot reach).
    package enum ErrorPolicy: String, Sendable, CaseIterable {
        /// Reject the input with `expression-error`, changing nothing; mistakes that loading can
        /// find are load errors (the default of machine files).
        case reject
        /// SCXML's rule: a guard that fails is false, a failing step ends its effect (what ran
        /// before it stays), and either raises the internal input `error.execution`; mistakes
        /// in expressions are warnings at load and fail when they run (SCXML documents' default).
        case raise
    }

    /// The machine's name.
    public var name: String
    /// What the machine is for, for readers.
    public var description: String?
    /// The initial state.
    package var initial: Named
    /// More initial states, each in another region of a parallel state than `initial` and one
    /// another (a list under `initial`, SCXML's `<scxml initial="a b">`); usually empty.
    package var otherInitialStates: [Named] = []
    /// What an input without a transition does.
    package var onUnhandled: UnhandledPolicy
    /// What a step that fails when it runs does.
    package var onError: ErrorPolicy = .reject
    /// Whether a caller may send an event that the machine never names, as SCXML allows a
    /// document without `<sc:input>` declarations (docs/scxml.md): it is taken by the input of
    /// the longest name that prefixes it on `.` boundaries, and otherwise has no transition.
    /// `false` for a machine file, whose inputs are exact.
    package var acceptsUndeclaredEvents = false
    /// The extended state's variables.
    package var context: [ContextVariable]
    /// The declared inputs, or `nil` when the machine's inputs are the ones its transitions use.
    package var inputs: [InputDeclaration]?
    /// The states, in declaration order.
    package var states: [StateDeclaration]
    /// The effects that have a body.
    package var effects: [EffectDefinition]
    /// The transitions, in the order that selection tries them.
    package var transitions: [TransitionDefinition]
    /// Names declared among a state's options, by name: probably states indented too deep
    /// (``MisplacedState``); empty in a definition without errors.
    package var misplacedStates: [String: MisplacedState] = [:]

    /// A definition with these parts; ``MachineCompiler`` checks it.
    package init(
        name: String, description: String? = nil, initial: Named,
        onUnhandled: UnhandledPolicy = .reject, context: [ContextVariable] = [],
        inputs: [InputDeclaration]? = nil, states: [StateDeclaration],
        effects: [EffectDefinition] = [], transitions: [TransitionDefinition]
    ) {
        self.name = name
        self.description = description
        self.initial = initial
        self.onUnhandled = onUnhandled
        self.context = context
        self.inputs = inputs
        self.states = states
        self.effects = effects
        self.transitions = transitions
    }

    /// Every state, nested ones included, in document order: depth first, a parent before its
    /// children (the order of state ids in the compiled machine).
    package var allStates: [StateDeclaration] {
        guard states.contains(where: { !$0.children.isEmpty }) else { return states }
        var flat: [StateDeclaration] = []
        var stack = Array(states.reversed())
        while let state = stack.popLast() {
            flat.append(state)
            stack.append(contentsOf: state.children.reversed())
        }
        return flat
    }
}

/// A name as written, with where it was written.
@usableFromInline package struct Named: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The name.
    package var name: String
    /// Where it was written, or ``SourcePosition/unknown``.
    package var position: SourcePosition
    /// The file decoder's id for the name's spelling (one id per distinct spelling in a file),
    /// or -1: a hint that lets the compiler resolve a name written many times once
    /// (``SpellingMemo``). A hint only, checked against `name` where it is used, and no part
    /// of the name's value: `==` and hashing ignore it.
    @usableFromInline package var spelling: Int

    /// `name`, written at `position`.
    package init(_ name: String, at position: SourcePosition = .unknown) {
        self.init(name, at: position, spelling: -1)
    }

    package init(_ name: String, at position: SourcePosition, spelling: Int) {
        self.name = name
        self.position = position
        self.spelling = spelling
    }

    /// A name from a literal, at no known position.
    @usableFromInline package init(stringLiteral value: String) { self.init(value) }

    /// Equal when the names and positions are.
    @usableFromInline package static func == (lhs: Named, rhs: Named) -> Bool {
        lhs.name == rhs.name && lhs.position == rhs.position
    }

    /// Hashes the name and position.
    @usableFromInline package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(position)
    }
}
