/// One transition: on `input` from `source`, optionally guarded, to `target` or staying.
public struct TransitionDefinition: Sendable {
    /// The states a transition leaves from.
    public enum Source: Sendable {
        /// The listed states.
        case states([Named])
        /// `"*"`: every state that is not final.
        case anyNonFinal(SourcePosition)
    }

    public var input: Named
    public var source: Source
    /// The target; `nil` stays in the current state without running exit or entry effects.
    public var target: Named?
    public var guardExpression: ExpressionSource?
    public var effects: [Named]
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

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
