/// One transition: on `input` from `source`, optionally guarded, to `target` or staying.
public struct TransitionDefinition: Sendable {
    /// The states a transition leaves from.
    public enum Source: Sendable {
        /// The listed states.
        case states([Named])
        /// `"*"`: every state that is not final.
        case anyNonFinal(SourcePosition)
    }

    /// The input it is taken on; for an eventless transition (``isEventless``), an empty name
    /// at the transition's position. A name ending in `.*`, or `*`, is a pattern (``isPattern``).
    public var input: Named
    /// Taken as soon as its guard holds, without an input (a mapping without `input`).
    public var isEventless: Bool
    /// `type: internal`: a transition from a compound state to its own descendants does not
    /// leave the compound state. External (false) is the default, as in SCXML.
    public var isInternal: Bool
    /// The states it leaves from.
    public var source: Source
    /// The target; `nil` stays in the current state without running exit or entry effects.
    public var target: Named?
    /// The targets after ``target`` when `to` lists several (one per parallel region).
    public var moreTargets: [Named]
    /// A `bool` expression that must hold for it to be taken.
    public var guardExpression: ExpressionSource?
    /// Effects run when it is taken, in order, between exit and entry effects.
    public var effects: [Named]
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

    /// A transition on `input` from `source` to `target` (`nil`: stay).
    public init(
        _ input: Named, from source: Source, to target: Named?, when guardExpression: ExpressionSource? = nil,
        effects: [Named] = [], at position: SourcePosition = .unknown, moreTargets: [Named] = [],
        isInternal: Bool = false, isEventless: Bool = false
    ) {
        self.input = input
        self.moreTargets = moreTargets
        self.isInternal = isInternal
        self.isEventless = isEventless
        self.source = source
        self.target = target
        self.guardExpression = guardExpression
        self.effects = effects
        self.position = position
    }

    /// Every target, in the order written; empty for a transition that stays.
    public var targets: [Named] {
        guard let target else { return [] }
        return moreTargets.isEmpty ? [target] : [target] + moreTargets
    }

    /// Whether ``input`` is a pattern that stands for several inputs: `*` (every input) or
    /// `NAME.*` (`NAME` and every input whose name starts with `NAME.`).
    public var isPattern: Bool {
        !isEventless && (input.name == "*" || input.name.hasSuffix(".*"))
    }
}
