import Testing

@testable import Statecraft

/// A decoder's row keeps its names as spellings of the decoder's table and its rare parts in
/// one box, or none (a large machine's rows allocate nothing each); any other transition keeps
/// its names in a box; every part still reads back as it was written.
@Suite struct TransitionDefinitionStorageTests {
    private static let at = SourcePosition(line: 3, column: 5)

    /// A table holding `names`, each name with its spelling (its index).
    private static func spelled(_ names: [String]) -> (SpellingTable, [Named]) {
        let table = SpellingTable()
        for name in names { table.append(name) }
        return (table, names.indices.map { Named(names[$0], at: SourcePosition(line: 7, column: 3 + 10 * $0), spelling: $0) })
    }

    /// A row as a decoder builds it: `go | a => b | log`, with a guard.
    private static func row() -> TransitionDefinition {
        let (table, names) = spelled(["go", "a", "b", "log"])
        return TransitionDefinition(
            names[0], from: .state(names[1]), to: names[2], when: ExpressionSource("count > 1", at: at), effects: .one(names[3]),
            at: SourcePosition(line: 7, column: 3), spellings: table)
    }

    @Test func aDecodedRowKeepsItsNamesAsSpellingsAndTakesEightyBytes() {
        let transition = Self.row()
        #expect(transition.spellings != nil)
        #expect(transition.rare?.guardExpression?.text == "count > 1")
        #expect(transition.input == Named("go", at: SourcePosition(line: 7, column: 3)))
        #expect(transition.target == Named("b", at: SourcePosition(line: 7, column: 23)))
        guard case .states(let sources) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(sources == [Named("a", at: SourcePosition(line: 7, column: 13))])
        #expect(transition.effects == [Named("log", at: SourcePosition(line: 7, column: 33))])
        #expect(MemoryLayout<TransitionDefinition>.stride <= 80)
    }

    /// A row as a decoder builds it with several source states and effects:
    /// `go | a, b, a => c | log, tell`.
    private static func listingRow() -> (TransitionDefinition, SpellingTable) {
        let (table, names) = spelled(["go", "a", "b", "c", "log", "tell"])
        let transition = TransitionDefinition(
            names[0], from: .other(.states([names[1], names[2], names[1]])), to: names[3], when: nil,
            effects: .many([names[4], names[5]]), at: SourcePosition(line: 7, column: 3), spellings: table)
        return (transition, table)
    }

    /// The sources and effects after the first go to the table's list of more names: no box,
    /// no array per row, and the names read back in order, duplicates kept, at their positions.
    @Test func aDecodedRowWithSeveralSourcesAndEffectsKeepsThemAsSpellings() {
        let (transition, table) = Self.listingRow()
        #expect(transition.spellings === table)
        #expect(transition.rare == nil)
        #expect(table.moreNames.count == 3)
        guard case .states(let sources) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(sources.map(\.name) == ["a", "b", "a"])
        #expect(sources.map(\.position.column) == [13, 23, 13])
        #expect(transition.effects.map(\.name) == ["log", "tell"])
        #expect(transition.effects.map(\.position.column) == [43, 53])
        #expect(transition.listedSources.map(\.name) == ["a", "b", "a"])
        #expect(transition.effectNames.map(\.position.column) == [43, 53])
        #expect(MemoryLayout<TransitionDefinition>.stride <= 80)
    }

    /// Changing a listing row's names after decoding puts them in a box: the table, which
    /// other threads may read, is not appended to.
    @Test func changingAListingRowsNamesLeavesTheTableAlone() {
        let (decoded, table) = Self.listingRow()
        var transition = decoded
        transition.effects.append("more")
        #expect(transition.spellings == nil)
        #expect(table.moreNames.count == 3)
        #expect(transition.effects.map(\.name) == ["log", "tell", "more"])
        guard case .states(let sources) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(sources.map(\.name) == ["a", "b", "a"])
        // A guard added keeps the names, now in the box.
        transition.guardExpression = ExpressionSource("count > 1", at: Self.at)
        #expect(transition.effects.map(\.name) == ["log", "tell", "more"])
    }

    /// More names than a compact row keeps (256 sources): the names go to a box, in order.
    @Test func aListTooLongForTheTableIsKeptInABox() {
        let spellings = ["go"] + (0..<300).map { "s\($0)" }
        let (table, names) = Self.spelled(spellings)
        let transition = TransitionDefinition(
            names[0], from: .other(.states(Array(names.dropFirst()))), to: nil, when: nil, effects: .many([]),
            at: SourcePosition(line: 7, column: 3), spellings: table)
        #expect(transition.spellings == nil)
        #expect(table.moreNames.isEmpty)
        guard case .states(let sources) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(sources.map(\.name) == Array(spellings.dropFirst()))
    }

    /// A name set on a decoded row may come from another file, whose spellings are other
    /// names: it reads back as set, not as this table's name of the same spelling.
    @Test func aNameFromAnotherTableReadsBackAsSet() {
        var transition = Self.row()
        let (_, other) = Self.spelled(["stop", "z"])
        transition.input = other[0]
        transition.target = other[1]
        #expect(transition.input.name == "stop")
        #expect(transition.target?.name == "z")
        #expect(transition.effects.map(\.name) == ["log"])
        #expect(transition.guardExpression?.text == "count > 1")
    }

    @Test func oneSourceStateAndOneEffectAreKeptWithoutArrays() {
        let transition = TransitionDefinition("go", from: .states(["a"]), to: "b", effects: ["log"])
        guard case .state(let source) = transition.storedSource, case .one(let effect) = transition.effectList else {
            Issue.record("one source and one effect are stored in arrays")
            return
        }
        #expect(source.name == "a" && effect.name == "log")
        guard case .states(let names) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(names.map(\.name) == ["a"])
        #expect(transition.effects.map(\.name) == ["log"])
    }

    @Test func severalSourcesAndEffectsReadBackInOrder() {
        var transition = TransitionDefinition("go", from: .states(["a", "b"]), to: nil, effects: ["x", "y"])
        guard case .states(let names) = transition.source else {
            Issue.record("the source reads back as something else")
            return
        }
        #expect(names.map(\.name) == ["a", "b"])
        #expect(transition.effects.map(\.name) == ["x", "y"])
        transition.source = .anyNonFinal(Self.at)
        transition.effects = []
        guard case .anyNonFinal(let position) = transition.source else {
            Issue.record("'*' reads back as something else")
            return
        }
        #expect(position == Self.at)
        #expect(transition.effects.isEmpty)
    }

    /// Setting one rare part keeps the others; clearing them all drops the box.
    @Test func rarePartsAreSetOneAtATimeAndDroppedWhenNoneIsLeft() throws {
        var transition = Self.row()
        transition.guardExpression = nil
        transition.description = "why"
        transition.after = try Delay(parsing: "30s")
        transition.moreTargets = ["c"]
        transition.refusal = "no"
        #expect(transition.description == "why")
        #expect(transition.after?.milliseconds == 30_000)
        #expect(transition.moreTargets.map(\.name) == ["c"])
        #expect(transition.refusal == "no")
        #expect(transition.targets.map(\.name) == ["b", "c"])
        #expect(transition.spellings != nil)
        transition.description = nil
        transition.after = nil
        transition.moreTargets = []
        #expect(transition.refusal == "no")
        transition.refusal = nil
        #expect(transition.rare == nil)
    }

    /// A copy is a value: changing its rare parts leaves the original's alone.
    @Test func aCopysRarePartsAreItsOwn() {
        let original = TransitionDefinition("go", from: .states(["a"]), to: "b", description: "first")
        var copy = original
        copy.description = "second"
        #expect(original.description == "first")
        #expect(copy.description == "second")
    }
}
