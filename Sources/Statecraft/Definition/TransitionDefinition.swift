/// One transition: on `input` from `source`, optionally guarded, to `target` or staying.
@usableFromInline package struct TransitionDefinition: Sendable {
    /// The states a transition leaves from.
    @usableFromInline package enum Source: Sendable {
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
    @usableFromInline package var isInternal: Bool
    /// Taken as soon as its guard holds, without an input (a mapping without `input` or `after`).
    @usableFromInline package var isEventless: Bool
    /// With ``spellings``: how many source states and effects after the first of each are kept
    /// in the table's ``SpellingTable/moreNames``, from ``moreNamesStart`` (sources first).
    /// Declared here, where the flags leave room, so that the transition stays at 80 bytes.
    @usableFromInline package private(set) var moreSourceCount: UInt8
    @usableFromInline package private(set) var moreEffectCount: UInt8
    /// Where the transition is written (the row, or the mapping's first key).
    @usableFromInline package var position: SourcePosition
    @usableFromInline package private(set) var moreNamesStart: Int32

    // MARK: - Compact storage

    // A large machine has a transition per row: most have an input, one source state, a target
    // or none, one effect or none, and no guard, delay, extra targets, refusal or description.
    // A decoder's row keeps its names as spellings of the decoder's table (4 bytes and a
    // position each, no `String` retained): the input, the first source state, the target and
    // the first effect in place, further source states and effects in the table's list of more
    // names. That is 80 bytes, and 12 more per further name. Any other transition (`*`, a `not`
    // list, names given by Swift code or changed after decoding) keeps its names, and every
    // transition its rare parts, in one box.

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

        @usableFromInline
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

    /// The most source states, and the most effects, after the first that a transition keeps
    /// in its table; a transition with more keeps its names in a box.
    @inlinable package static var maximumMoreNames: Int { Int(UInt8.max) }

    /// The table of the compact names; `nil` when the names are in ``rare``.
    @usableFromInline package private(set) var spellings: SpellingTable?
    /// With ``spellings``: the input, the first source state, the target and the first effect
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
            input: spellings.named(compactInput.spelling, at: compactInput.position), source: storedSource,
            target: compactTarget.spelling < 0 ? nil : spellings.named(compactTarget.spelling, at: compactTarget.position),
            effects: effectList)
    }

    /// With ``spellings``: the source states after the first, in order.
    package var moreCompactSources: ArraySlice<CompactName> {
        let start = Int(moreNamesStart)
        return spellings!.moreNames[start..<start + Int(moreSourceCount)]
    }

    /// With ``spellings``: the effects after the first, in order.
    package var moreCompactEffects: ArraySlice<CompactName> {
        let start = Int(moreNamesStart) + Int(moreSourceCount)
        return spellings!.moreNames[start..<start + Int(moreEffectCount)]
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
            setMoreNames(sources: 0, effects: 0, start: 0)
            compactInput = CompactName(names.input)
            compactSource = CompactName(source)
            compactTarget = names.target.map(CompactName.init) ?? .none
            compactEffect = names.effects.first.map(CompactName.init) ?? .none
            rare = .box(names: nil, guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal, description: description)
        } else {
            self.spellings = nil
            setMoreNames(sources: 0, effects: 0, start: 0)
            compactInput = .none
            compactSource = .none
            compactTarget = .none
            compactEffect = .none
            rare = .box(names: names, guardExpression: guardExpression, after: after, moreTargets: moreTargets, refusal: refusal, description: description)
        }
    }

    /// Records how many source states and effects after the first are kept in the table of
    /// spellings, and where they start.
    @usableFromInline
    mutating func setMoreNames(sources: Int, effects: Int, start: Int32) {
        moreSourceCount = UInt8(sources)
        moreEffectCount = UInt8(effects)
        moreNamesStart = start
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
    package var input: Named {
        get { spellings.map { $0.named(compactInput.spelling, at: compactInput.position) } ?? rare!.names!.input }
        set {
            let names = wideNames
            restore(names: WideNames(input: newValue, source: names.source, target: names.target, effects: names.effects))
        }
    }

    /// The target; `nil` stays in the current state without running exit or entry effects.
    package var target: Named? {
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
        if moreSourceCount == 0 { return .state(spellings.named(compactSource.spelling, at: compactSource.position)) }
        return .other(.states(Array(listedSources)))
    }

    /// ``effects``, as stored.
    package var effectList: NameList {
        guard let spellings else { return rare!.names!.effects }
        if compactEffect.spelling < 0 { return .many([]) }
        if moreEffectCount == 0 { return .one(spellings.named(compactEffect.spelling, at: compactEffect.position)) }
        return .many(Array(effectNames))
    }

    /// The effects, in order, read where they are kept (no array is made of them).
    package var effectNames: NameSequence {
        guard let spellings else { return NameSequence(rare!.names!.effects) }
        return NameSequence(
            spellings, first: compactEffect, more: Int(moreNamesStart) + Int(moreSourceCount), count: Int(moreEffectCount))
    }

    /// The source states the transition lists, in order, read where they are kept; none for
    /// `*` and `not`.
    package var listedSources: NameSequence {
        guard let spellings else {
            switch rare!.names!.source {
            case .state(let name): return NameSequence(.one(name))
            case .other(.states(let names)): return NameSequence(.many(names))
            case .other: return NameSequence(.many([]))
            }
        }
        return NameSequence(spellings, first: compactSource, more: Int(moreNamesStart), count: Int(moreSourceCount))
    }

    /// Names of a transition as it keeps them: in a box, or as spellings of its table (the first
    /// in place, the rest in the table's ``SpellingTable/moreNames``).
    package struct NameSequence: Sequence, IteratorProtocol {
        private let names: NameList
        private let spellings: SpellingTable?
        private let first: CompactName
        private let more: Int
        private let count: Int
        private var offset = 0

        init(_ names: NameList) {
            self.names = names
            spellings = nil
            first = CompactName(spelling: -1, position: .unknown)
            more = 0
            count = names.count
        }

        /// `first` (none when its spelling is negative), then `count` names of `spellings`'
        /// more names from `more`.
        init(_ spellings: SpellingTable, first: CompactName, more: Int, count: Int) {
            names = .many([])
            self.spellings = spellings
            self.first = first
            self.more = more
            self.count = first.spelling < 0 ? 0 : 1 + count
        }

        package mutating func next() -> Named? {
            guard offset < count else { return nil }
            defer { offset += 1 }
            guard let spellings else {
                switch names {
                case .one(let name): return name
                case .many(let names): return names[offset]
                }
            }
            let name = offset == 0 ? first : spellings.moreNames[more + offset - 1]
            return spellings.named(name.spelling, at: name.position)
        }
    }

    /// The states it leaves from.
    package var source: Source {
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
    package var effects: [Named] {
        get { effectList.array }
        set {
            let names = wideNames
            restore(names: WideNames(input: names.input, source: names.source, target: names.target, effects: NameList(newValue)))
        }
    }

    /// A `bool` expression that must hold for it to be taken.
    package var guardExpression: ExpressionSource? {
        get { rare?.guardExpression }
        set { restore(guardExpression: .some(newValue)) }
    }

    /// `after: DURATION`: taken when its source state has been active for this long, instead of
    /// on an input (``input`` is then an empty name at the transition's position).
    package var after: Delay? {
        get { rare?.after }
        set { restore(after: .some(newValue)) }
    }

    /// The targets after ``target`` when `to` lists several (one per parallel region).
    package var moreTargets: [Named] {
        get { rare?.moreTargets ?? [] }
        set { restore(moreTargets: newValue) }
    }

    /// `reject: MESSAGE`: when selected, the transition refuses the input with this message
    /// (error kind `refused`) and changes nothing; such a transition has no target or effects.
    package var refusal: String? {
        get { rare?.refusal }
        set { restore(refusal: .some(newValue)) }
    }

    /// What the transition is for, shown by diagrams; no part of what the machine does.
    package var description: String? {
        get { rare?.description }
        set { restore(description: .some(newValue)) }
    }

    // MARK: - Making one

    /// A transition on `input` from `source` to `target` (`nil`: stay).
    ///
    /// Inlinable, so that a decoder's call builds the transition in place: called across
    /// modules, the initialiser copied the whole transition it had built and destroyed the original.
    @inlinable
    package init(
        _ input: Named, from source: Source, to target: Named?, when guardExpression: ExpressionSource? = nil,
        effects: [Named] = [], rejecting refusal: String? = nil, description: String? = nil,
        at position: SourcePosition = .unknown, moreTargets: [Named] = [], isInternal: Bool = false, isEventless: Bool = false,
        after: Delay? = nil
    ) {
        self.isInternal = isInternal
        self.isEventless = isEventless
        moreSourceCount = 0
        moreEffectCount = 0
        self.position = position
        moreNamesStart = 0
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
        moreSourceCount = 0
        moreEffectCount = 0
        self.position = position
        moreNamesStart = 0
        self.spellings = nil
        let none = CompactName(spelling: -1, position: .unknown)
        compactInput = none
        compactSource = none
        compactTarget = none
        compactEffect = none
        self.rare = nil
        // A decoder's names, handed over as spellings: kept without making a box of names first.
        if let spellings, input.spelling >= 0, (target?.spelling ?? 0) >= 0 {
            // Most transitions: one source state and one effect or none.
            if case .state(let sourceName) = source, sourceName.spelling >= 0 {
                var effect = none
                switch effects {
                case .one(let name) where name.spelling >= 0: effect = CompactName(name)
                case .many(let names) where names.isEmpty: break
                default: effect.spelling = -2
                }
                if effect.spelling >= -1 {
                    keep(input: input, source: sourceName, target: target, effect: effect, in: spellings)
                    keep(guardExpression, rare)
                    return
                }
            }
            if keepLists(input: input, source: source, target: target, effects: effects, in: spellings) {
                keep(guardExpression, rare)
                return
            }
        }
        store(
            WideNames(input: input, source: source, target: target, effects: effects), in: spellings, trusted: true,
            guardExpression: guardExpression, after: rare?.after, moreTargets: rare?.moreTargets ?? [], refusal: rare?.refusal,
            description: rare?.description)
    }

    /// Keeps a transition's names as spellings of `spellings`.
    @inlinable
    mutating func keep(input: Named, source: Named, target: Named?, effect: CompactName, in spellings: SpellingTable) {
        self.spellings = spellings
        compactInput = CompactName(input)
        compactSource = CompactName(source)
        if let target { compactTarget = CompactName(target) }
        compactEffect = effect
    }

    /// Keeps the guard and the rare parts beside names kept as spellings.
    @inlinable
    mutating func keep(_ guardExpression: ExpressionSource?, _ rare: RareParts?) {
        guard guardExpression != nil || rare != nil else { return }
        self.rare = RareParts(
            names: nil, guardExpression: guardExpression, after: rare?.after, moreTargets: rare?.moreTargets ?? [],
            refusal: rare?.refusal, description: rare?.description)
    }

    /// Keeps names that list several source states or effects as spellings of `spellings`, the
    /// ones after the first of each in the table's ``SpellingTable/moreNames``; whether it
    /// could: not for `*`, `not`, an empty source list, a name without a spelling or more than
    /// ``maximumMoreNames`` after the first.
    @usableFromInline
    mutating func keepLists(input: Named, source: StoredSource, target: Named?, effects: NameList, in spellings: SpellingTable) -> Bool {
        func spelled(_ names: [Named]) -> Bool {
            names.count <= Self.maximumMoreNames + 1 && names.allSatisfy { $0.spelling >= 0 }
        }
        // The first source state, and the list it heads (empty for one state, without an array).
        let first: Named
        let sources: [Named]
        switch source {
        case .state(let name): (first, sources) = (name, [])
        case .other(.states(let names)) where !names.isEmpty: (first, sources) = (names[0], names)
        case .other: return false
        }
        let effectNames = effects.array
        guard first.spelling >= 0, spelled(sources), spelled(effectNames) else { return false }
        keep(
            input: input, source: first, target: target, effect: effectNames.first.map(CompactName.init) ?? CompactName.none,
            in: spellings)
        let start = spellings.appendMoreNames(
            sources.dropFirst().lazy.map(CompactName.init), effectNames.dropFirst().lazy.map(CompactName.init))
        setMoreNames(sources: max(sources.count - 1, 0), effects: max(effectNames.count - 1, 0), start: start)
        return true
    }

    /// A transition whose names are spellings of `spellings` (``CompactName/none`` for no
    /// target or no effect; no `moreEffects` without an `effect`): a decoder's row, built without
    /// making a `Named` of each name. At most ``maximumMoreNames`` more sources and more effects.
    @inlinable
    package init(
        compactInput input: CompactName, source: CompactName, moreSources: some Collection<CompactName> = EmptyCollection(),
        target: CompactName, effect: CompactName, moreEffects: some Collection<CompactName> = EmptyCollection(),
        when guardExpression: ExpressionSource?, at position: SourcePosition, spellings: SpellingTable
    ) {
        precondition(moreSources.count <= Self.maximumMoreNames && moreEffects.count <= Self.maximumMoreNames)
        precondition(moreEffects.isEmpty || effect.spelling >= 0)
        isInternal = false
        isEventless = false
        moreSourceCount = UInt8(truncatingIfNeeded: moreSources.count)
        moreEffectCount = UInt8(truncatingIfNeeded: moreEffects.count)
        self.position = position
        moreNamesStart = moreSources.isEmpty && moreEffects.isEmpty ? 0 : spellings.appendMoreNames(moreSources, moreEffects)
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
    package var targets: [Named] {
        guard let target else { return [] }
        return moreTargets.isEmpty ? [target] : [target] + moreTargets
    }

    /// How messages name the transition's trigger: its input, or `after 30s`.
    package var trigger: String { after.map { "after \($0.text)" } ?? input.name }

    /// Whether ``input`` is a pattern that stands for several inputs: `*` (every input) or
    /// `NAME.*` (`NAME` and every input whose name starts with `NAME.`).
    package var isPattern: Bool {
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
