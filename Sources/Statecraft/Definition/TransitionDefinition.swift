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
    /// `type: internal`: a transition from a compound state to its own descendants does not
    /// leave the compound state. External (false) is the default, as in SCXML.
    public var isInternal: Bool
    /// The target; `nil` stays in the current state without running exit or entry effects.
    public var target: Named?
    /// A `bool` expression that must hold for it to be taken.
    public var guardExpression: ExpressionSource?
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

    // MARK: - Compact storage

    // A large machine has a transition per row: most leave from one state, run one effect or
    // none, and have no delay, extra targets, refusal or description. So one source state and
    // one effect are kept in place rather than in arrays of their own, and the rare parts in one
    // shared box, or none.

    /// ``source``, one state kept in place.
    @usableFromInline
    package enum StoredSource: Sendable {
        case state(Named)
        case other(Source)

        @inlinable
        package init(_ source: Source) {
            if case .states(let names) = source, names.count == 1 { self = .state(names[0]) } else { self = .other(source) }
        }
    }

    /// The parts most transitions do not have.
    @usableFromInline
    package final class RareParts: Sendable {
        let after: Delay?
        let moreTargets: [Named]
        let refusal: String?
        let description: String?

        @usableFromInline
        init(after: Delay?, moreTargets: [Named], refusal: String?, description: String?) {
            self.after = after
            self.moreTargets = moreTargets
            self.refusal = refusal
            self.description = description
        }

        /// A box for these parts; `nil` when there are none.
        @inlinable
        static func box(after: Delay?, moreTargets: [Named], refusal: String?, description: String?) -> RareParts? {
            after == nil && moreTargets.isEmpty && refusal == nil && description == nil
                ? nil : RareParts(after: after, moreTargets: moreTargets, refusal: refusal, description: description)
        }
    }

    /// The states it leaves from, as stored.
    @usableFromInline package var storedSource: StoredSource
    /// ``effects``, as stored.
    @usableFromInline package var effectList: NameList
    @usableFromInline package var rare: RareParts?

    // MARK: - Parts kept compactly

    /// The states it leaves from.
    public var source: Source {
        get {
            switch storedSource {
            case .state(let name): .states([name])
            case .other(let source): source
            }
        }
        set { storedSource = StoredSource(newValue) }
    }

    /// Effects run when it is taken, in order, between exit and entry effects.
    public var effects: [Named] {
        get { effectList.array }
        set { effectList = NameList(newValue) }
    }

    /// `after: DURATION`: taken when its source state has been active for this long, instead of
    /// on an input (``input`` is then an empty name at the transition's position).
    public var after: Delay? {
        get { rare?.after }
        set { rare = .box(after: newValue, moreTargets: moreTargets, refusal: refusal, description: description) }
    }

    /// The targets after ``target`` when `to` lists several (one per parallel region).
    public var moreTargets: [Named] {
        get { rare?.moreTargets ?? [] }
        set { rare = .box(after: after, moreTargets: newValue, refusal: refusal, description: description) }
    }

    /// `reject: MESSAGE`: when selected, the transition refuses the input with this message
    /// (error kind `refused`) and changes nothing; such a transition has no target or effects.
    public var refusal: String? {
        get { rare?.refusal }
        set { rare = .box(after: after, moreTargets: moreTargets, refusal: newValue, description: description) }
    }

    /// What the transition is for, shown by diagrams; no part of what the machine does.
    public var description: String? {
        get { rare?.description }
        set { rare = .box(after: after, moreTargets: moreTargets, refusal: refusal, description: newValue) }
    }

    // MARK: - Making one

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
        self.init(
            input, from: StoredSource(source), to: target, when: guardExpression, effects: NameList(effects), at: position,
            rare: .box(after: after, moreTargets: moreTargets, refusal: refusal, description: description),
            isInternal: isInternal, isEventless: isEventless)
    }

    /// A transition from its stored parts: a decoder of many rows hands over one source state
    /// and one effect without an array each.
    @inlinable
    package init(
        _ input: Named, from source: StoredSource, to target: Named?, when guardExpression: ExpressionSource?,
        effects: NameList, at position: SourcePosition, rare: RareParts? = nil, isInternal: Bool = false, isEventless: Bool = false
    ) {
        self.input = input
        self.isEventless = isEventless
        self.isInternal = isInternal
        self.storedSource = source
        self.target = target
        self.guardExpression = guardExpression
        self.effectList = effects
        self.position = position
        self.rare = rare
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
        guard input.utf8.last == UInt8(ascii: "*") else { return false }
        return input == "*" || input.hasSuffix(".*")
    }
}
