/// One transition: on `input` from `source`, optionally guarded, to `target` or staying.
public struct TransitionDefinition: Sendable {
    /// The states a transition leaves from.
    public enum Source: Sendable {
        /// The listed states.
        case states([Named])
        /// `"*"`: every state that is not final.
        case anyNonFinal(SourcePosition)
        /// `{ not: [...] }`: every state that is not final, except the listed ones; the position
        /// is where the list is written.
        case anyNonFinalExcept([Named], SourcePosition)
    }

    /// The input it is taken on; for an eventless transition (``isEventless``), an empty name
    /// at the transition's position. A name ending in `.*`, or `*`, is a pattern (``isPattern``).
    public var input: Named
    /// Taken as soon as its guard holds, without an input (a mapping without `input` or `after`).
    public var isEventless: Bool
    /// `after: DURATION`: taken when its source state has been active for this long, instead of
    /// on an input (``input`` is then an empty name at the transition's position).
    public var after: Delay?
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
    /// `reject: MESSAGE`: when selected, the transition refuses the input with this message
    /// (error kind `refused`) and changes nothing; such a transition has no target or effects.
    public var refusal: String?
    /// What the transition is for, shown by diagrams; no part of what the machine does.
    public var description: String?
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

    /// A transition on `input` from `source` to `target` (`nil`: stay).
    ///
    /// Inlinable, so that a decoder's call builds the transition in place: called across
    /// modules, the initialiser copied the whole transition it had built and destroyed the original.
    @inlinable
    public init(
        _ input: Named, from source: Source, to target: Named?, when guardExpression: ExpressionSource? = nil,
        effects: [Named] = [], rejecting refusal: String? = nil, description: String? = nil,
        at position: SourcePosition = .unknown, moreTargets: [Named] = [], isInternal: Bool = false, isEventless: Bool = false,
        after: Delay? = nil
    ) {
        self.after = after
        self.input = input
        self.moreTargets = moreTargets
        self.isInternal = isInternal
        self.isEventless = isEventless
        self.source = source
        self.target = target
        self.guardExpression = guardExpression
        self.effects = effects
        self.refusal = refusal
        self.description = description
        self.position = position
    }

    /// Every target, in the order written; empty for a transition that stays.
    public var targets: [Named] {
        guard let target else { return [] }
        return moreTargets.isEmpty ? [target] : [target] + moreTargets
    }

    /// How messages name the transition's trigger: its input, or `after 30s`.
    public var trigger: String { after.map { "after \($0.text)" } ?? input.name }

    /// Whether ``input`` is a pattern that stands for several inputs: `*` (every input) or
    /// `NAME.*` (`NAME` and every input whose name starts with `NAME.`).
    public var isPattern: Bool {
        Self.isPattern(input.name, isEventless: isEventless, hasDelay: after != nil)
    }

    /// ``isPattern`` from the fields it reads: a compiler reading a transition in place calls
    /// this, as calling the property on a transition it does not own copies the whole transition.
    package static func isPattern(_ input: String, isEventless: Bool, hasDelay: Bool) -> Bool {
        guard !isEventless && !hasDelay else { return false }
        // Most names do not end in `*`: their last byte tells, before comparing strings (a
        // compiler reads this for every transition).
        var name = input
        guard name.withUTF8({ $0.last == UInt8(ascii: "*") }) else { return false }
        return name == "*" || name.hasSuffix(".*")
    }
}
