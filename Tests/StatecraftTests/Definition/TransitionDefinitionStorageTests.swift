import Testing

@testable import Statecraft

/// A transition keeps one source state and one effect in place and its rare parts in one box
/// (a large machine's rows allocate no arrays); every part still reads back as it was written.
@Suite struct TransitionDefinitionStorageTests {
    private static let at = SourcePosition(line: 3, column: 5)

    @Test func oneSourceStateAndOneEffectAreKeptWithoutArrays() {
        let transition = TransitionDefinition("go", from: .states(["a"]), to: "b", effects: ["log"])
        guard case .state(let source) = transition.storedSource, case .one(let effect) = transition.effectList else {
            Issue.record("one source and one effect are stored in arrays")
            return
        }
        #expect(source.name == "a" && effect.name == "log")
        #expect(transition.rare == nil)
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
        var transition = TransitionDefinition("go", from: .states(["a"]), to: "b")
        transition.description = "why"
        transition.after = try Delay(parsing: "30s")
        transition.moreTargets = ["c"]
        transition.refusal = "no"
        #expect(transition.description == "why")
        #expect(transition.after?.milliseconds == 30_000)
        #expect(transition.moreTargets.map(\.name) == ["c"])
        #expect(transition.refusal == "no")
        #expect(transition.targets.map(\.name) == ["b", "c"])
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
