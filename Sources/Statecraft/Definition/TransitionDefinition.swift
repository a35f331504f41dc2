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

    /// `type: internal`: a transition from a compound state to its own descendants does not
    /// leave the compound state. External (false) is the default, as in SCXML.
    public var isInternal: Bool
    /// Taken as soon as its guard holds, without an input (a mapping without `input` or `after`).
    public var isEventless: Bool
    /// Where the transition is written (the row, or the mapping's first key).
    public var position: SourcePosition

    // MARK: - Compact storage

    // A large machine has a transition per row: most have an input, one source state, a target
    // or none, one effect or none, and no guard, delay, extra targets, refusal or description.
    // A decoder's such row keeps its four names as spellings of the decoder's table (4 bytes and
    // a position each, no `String` retained) and nothing else: 80 bytes. Any other transition
    // keeps its names, and every transition its rare parts, in one box.

    /// A name kept as a spelling of ``spellings``; spelling -1 when there is none (no target, no
    /// effect) or it is kept in ``rare``.
    @usableFromInline
    package struct CompactName: Sendable {
        @usableFromInline package var spelling: Int32
        @usableFromInline package var position: SourcePosition

        package static let none = CompactName(spelling: -1, position: .unknown)

        /// Spelling `spelling` of a transition's table, written at `position`.
        @usableFromInline
        package init(spelling: Int32, position: SourcePosition) {
            self.spelling = spelling
            self.position = position
        }

        init(_ named: Named) {
            self.init(spelling: Int32(truncatingIfNeeded: named.spelling), position: named.position)
        }
    }

    /// The states a transition leaves from, as kept: one state, or any other source.
    @usableFromInline
    package enum StoredSource: Sendable {
        case state(Named)
        case other(Source)

        @inlinable
        package init(_ source: Source) {
            if case .states(let names) = source, names.count == 1 { self = .state(names[0]) } else { self = .other(source) }
        }
    }

    /// The names of a transition whose names are not all kept compactly: a box of their own, so
    /// that the rare parts of a compact transition (a guard, say) take a small box.
    @usableFromInline
    package final class WideNames: Sendable {
        let input: Named
        let source: StoredSource
        let target: Named?
        let effects: NameList

        @usableFromInline
        init(input: Named, source: StoredSource, target: Named?, effects: NameList) {
            self.input = input
            self.source = source
            self.target = target
            self.effects = effects
        }
    }

    /// The parts most transitions do not have.
    @usableFromInline
    package final class RareParts: Sendable {
        @usableFromInline let names: WideNames?
        @usableFromInline let guardExpression: ExpressionSource?
        @usableFromInline let after: Delay?
        @usableFromInline let moreTargets: [Named]
        @usableFromInline let refusal: String?
        @usableFromInline let description: String?

        @usableFromInline
        init(
            names: WideNames?, guardExpression: ExpressionSource?, after: Delay?, moreTargets: [Named], refusal: String?,
            description: String?
        ) {
            self.names = names
            self.guardExpression = guardExpression
            self.after = after
            self.moreTargets = moreTargets
            self.refusal = refusal
            self.description = description
        }

        /// A box for these parts; `nil` when there are none.
        static func box(
            names: WideNames?, guardExpression: ExpressionSource?, after: Delay?, moreTargets: [Named], refusal: String?,
            description: String?
        ) -> RareParts? {
            names == nil && guardExpression == nil && after == nil && moreTargets.isEmpty && refusal == nil && description == nil
                ? nil
                : RareParts(
                    names: names, guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal,
                    description: description)
        }
    }

    /// The table of the compact names; `nil` when the names are in ``rare``.
    @usableFromInline package private(set) var spellings: SpellingTable?
    /// With ``spellings``: the input, the one source state, the target and the one effect
    /// (spelling -1: none).
    @usableFromInline package private(set) var compactInput: CompactName
    @usableFromInline package private(set) var compactSource: CompactName
    @usableFromInline package private(set) var compactTarget: CompactName
    @usableFromInline package private(set) var compactEffect: CompactName
    @usableFromInline package private(set) var rare: RareParts?

    // MARK: - Parts kept compactly

    /// The names as a decoder or Swift code gave them, whichever way they are kept.
    var wideNames: WideNames {
        if let names = rare?.names { return names }
        let spellings = spellings!
        return WideNames(
            input: spellings.named(compactInput.spelling, at: compactInput.position),
            source: .state(spellings.named(compactSource.spelling, at: compactSource.position)),
            target: compactTarget.spelling < 0 ? nil : spellings.named(compactTarget.spelling, at: compactTarget.position),
            effects: compactEffect.spelling < 0 ? .many([]) : .one(spellings.named(compactEffect.spelling, at: compactEffect.position)))
    }

    /// Keeps `names` and the rare parts: compactly when every name is a spelling of
    /// `spellings`, the source is one state and there is at most one effect. A decoder's names
    /// with a spelling are its table's (`trusted`); a name set later may come from another
    /// file, so its spelling is checked against the table.
    @usableFromInline
    mutating func store(
        _ names: WideNames, in spellings: SpellingTable?, trusted: Bool = false, guardExpression: ExpressionSource?, after: Delay?,
        moreTargets: [Named], refusal: String?, description: String?
    ) {
        func holds(_ name: Named) -> Bool { trusted ? name.spelling >= 0 : spellings!.holds(name) }
        if spellings != nil, holds(names.input), case .state(let source) = names.source, holds(source),
            names.target.map(holds) ?? true, names.effects.count <= 1, names.effects.first.map(holds) ?? true
        {
            self.spellings = spellings
            compactInput = CompactName(names.input)
            compactSource = CompactName(source)
            compactTarget = names.target.map(CompactName.init) ?? .none
            compactEffect = names.effects.first.map(CompactName.init) ?? .none
            rare = .box(names: nil, guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal, description: description)
        } else {
            self.spellings = nil
            compactInput = .none
            compactSource = .none
            compactTarget = .none
            compactEffect = .none
            rare = .box(names: names, guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal, description: description)
        }
    }

    /// Keeps the names and rare parts again after one of them changed.
    mutating func restore(
        names: WideNames? = nil, guardExpression: ExpressionSource?? = nil, after: Delay?? = nil, moreTargets: [Named]? = nil,
        refusal: String?? = nil, description: String?? = nil
    ) {
        store(
            names ?? wideNames, in: spellings, guardExpression: guardExpression ?? self.guardExpression,
            after: after ?? self.after, moreTargets: moreTargets ?? self.moreTargets, refusal: refusal ?? self.refusal,
            description: description ?? self.description)
    }

    /// The input it is taken on; for an eventless transition (``isEventless``), an empty name
    /// at the transition's position. A name ending in `.*`, or `*`, is a pattern (``isPattern``).
    public var input: Named {
        get { spellings.map { $0.named(compactInput.spelling, at: compactInput.position) } ?? rare!.names!.input }
        set {
            let names = wideNames
            restore(names: WideNames(input: newValue, source: names.source, target: names.target, effects: names.effects))
        }
    }

    /// The target; `nil` stays in the current state without running exit or entry effects.
    public var target: Named? {
        get {
            guard let spellings else { return rare!.names!.target }
            return compactTarget.spelling < 0 ? nil : spellings.named(compactTarget.spelling, at: compactTarget.position)
        }
        set {
            let names = wideNames
            restore(names: WideNames(input: names.input, source: names.source, target: newValue, effects: names.effects))
        }
    }

    /// The states it leaves from, as stored.
    package var storedSource: StoredSource {
        guard let spellings else { return rare!.names!.source }
        return .state(spellings.named(compactSource.spelling, at: compactSource.position))
    }

    /// ``effects``, as stored.
    package var effectList: NameList {
        guard let spellings else { return rare!.names!.effects }
        return compactEffect.spelling < 0 ? .many([]) : .one(spellings.named(compactEffect.spelling, at: compactEffect.position))
    }

    /// The states it leaves from.
    public var source: Source {
        get {
            switch storedSource {
            case .state(let name): .states([name])
            case .other(let source): source
            }
        }
        set {
            let names = wideNames
            restore(names: WideNames(input: names.input, source: StoredSource(newValue), target: names.target, effects: names.effects))
        }
    }

    /// Effects run when it is taken, in order, between exit and entry effects.
    public var effects: [Named] {
        get { effectList.array }
        set {
            let names = wideNames
            restore(names: WideNames(input: names.input, source: names.source, target: names.target, effects: NameList(newValue)))
        }
    }

    /// A `bool` expression that must hold for it to be taken.
    public var guardExpression: ExpressionSource? {
        get { rare?.guardExpression }
        set { restore(guardExpression: .some(newValue)) }
    }

    /// `after: DURATION`: taken when its source state has been active for this long, instead of
    /// on an input (``input`` is then an empty name at the transition's position).
    public var after: Delay? {
        get { rare?.after }
        set { restore(after: .some(newValue)) }
    }

    /// The targets after ``target`` when `to` lists several (one per parallel region).
    public var moreTargets: [Named] {
        get { rare?.moreTargets ?? [] }
        set { restore(moreTargets: newValue) }
    }

    /// `reject: MESSAGE`: when selected, the transition refuses the input with this message
    /// (error kind `refused`) and changes nothing; such a transition has no target or effects.
    public var refusal: String? {
        get { rare?.refusal }
        set { restore(refusal: .some(newValue)) }
    }

    /// What the transition is for, shown by diagrams; no part of what the machine does.
    public var description: String? {
        get { rare?.description }
        set { restore(description: .some(newValue)) }
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
        self.isInternal = isInternal
        self.isEventless = isEventless
        self.position = position
        spellings = nil
        compactInput = CompactName(spelling: -1, position: .unknown)
        compactSource = CompactName(spelling: -1, position: .unknown)
        compactTarget = CompactName(spelling: -1, position: .unknown)
        compactEffect = CompactName(spelling: -1, position: .unknown)
        rare = nil
        store(
            WideNames(input: input, source: StoredSource(source), target: target, effects: NameList(effects)), in: nil,
            guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal, description: description)
    }

    /// A transition from its stored parts: a decoder of many rows hands over one source state
    /// and one effect without an array each, and the table its names are spellings of
    /// (`spellings`: every name given with a spelling must be that spelling of the table), so
    /// that they are kept as spellings.
    @inlinable
    package init(
        _ input: Named, from source: StoredSource, to target: Named?, when guardExpression: ExpressionSource?,
        effects: NameList, at position: SourcePosition, rare: RareParts? = nil, isInternal: Bool = false, isEventless: Bool = false,
        spellings: SpellingTable? = nil
    ) {
        self.isInternal = isInternal
        self.isEventless = isEventless
        self.position = position
        self.spellings = nil
        let none = CompactName(spelling: -1, position: .unknown)
        compactInput = none
        compactSource = none
        compactTarget = none
        compactEffect = none
        self.rare = nil
        // A row's names, handed over as spellings: kept without making a box of names first.
        if let spellings, input.spelling >= 0, case .state(let sourceName) = source, sourceName.spelling >= 0, (target?.spelling ?? 0) >= 0 {
            var effect = none
            switch effects {
            case .one(let name) where name.spelling >= 0: effect = CompactName(spelling: Int32(truncatingIfNeeded: name.spelling), position: name.position)
            case .many(let names) where names.isEmpty: break
            default: effect.spelling = -2
            }
            if effect.spelling >= -1 {
                self.spellings = spellings
                compactInput = CompactName(spelling: Int32(truncatingIfNeeded: input.spelling), position: input.position)
                compactSource = CompactName(spelling: Int32(truncatingIfNeeded: sourceName.spelling), position: sourceName.position)
                if let target { compactTarget = CompactName(spelling: Int32(truncatingIfNeeded: target.spelling), position: target.position) }
                compactEffect = effect
                if guardExpression != nil || rare != nil {
                    self.rare = RareParts(
                        names: nil, guardExpression: guardExpression, after: rare?.after, moreTargets: rare?.moreTargets ?? [],
                        refusal: rare?.refusal, description: rare?.description)
                }
                return
            }
        }
        store(
            WideNames(input: input, source: source, target: target, effects: effects), in: spellings, trusted: true,
            guardExpression: guardExpression, after: rare?.after, moreTargets: rare?.moreTargets ?? [], refusal: rare?.refusal,
            description: rare?.description)
    }

    /// A transition whose input, one source state, target and one effect are spellings of
    /// `spellings` (``CompactName/none`` for no target or no effect): a decoder's row, built
    /// without making a `Named` of each name.
    @inlinable
    package init(
        compactInput input: CompactName, source: CompactName, target: CompactName, effect: CompactName,
        when guardExpression: ExpressionSource?, at position: SourcePosition, spellings: SpellingTable
    ) {
        isInternal = false
        isEventless = false
        self.position = position
        self.spellings = spellings
        compactInput = input
        compactSource = source
        compactTarget = target
        compactEffect = effect
        rare = guardExpression.map {
            RareParts(names: nil, guardExpression: $0, after: nil, moreTargets: [], refusal: nil, description: nil)
        }
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
