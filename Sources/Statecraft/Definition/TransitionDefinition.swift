/// One transition: on `input` from `source`, optionally guarded, to `target` or staying.
public struct TransitionDefinition: Sendable {
    /// The states a transition leaves from.
    public enum Source: Sendable {
        /// The listed states.
        case states([Named])
        /// `"*"`: every state that is not final.
        case anyNonFinal(SourcePosition)
    }

    /// The input it is taken on.
    public var input: Named
    /// The states it leaves from.
    public var source: Source
    /// The target; `nil` stays in the current state without running exit or entry effects.
    public var target: Named?
    /// A `bool` expression that must hold for it to be taken.
    public var guardExpression: ExpressionSource?
    /// Effects run when it is taken, in order, between exit and entry effects.
    public var effects: [Named]
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

    /// A transition on `input` from `source` to `target` (`nil`: stay).
    public init(
        _ input: Named, from source: Source, to target: Named?, when guardExpression: ExpressionSource? = nil,
        effects: [Named] = [], at position: SourcePosition = .unknown
    ) {
        self.input = input
        self.source = source
        self.target = target
        self.guardExpression = guardExpression
        self.effects = effects
        self.position = position
    }
}
