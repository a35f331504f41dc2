import Testing

@testable import Statecraft

/// Compiled transitions share their source and effect lists: a large machine's 100,000 rows leave
/// from a few thousand states and run a few effect combinations, and an array each was most of
/// the compiled machine's allocations.
@Suite struct SharedListsTests {
    private static func storage(_ ids: [Int]) -> UnsafeRawPointer? {
        ids.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func transitionsFromOneStateShareItsSourceListAndEqualEffectListsAreOne() throws {
        let definition = MachineDefinition(
            name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
            transitions: [
                TransitionDefinition("x", from: .states(["a"]), to: "b", effects: ["log", "beep"]),
                TransitionDefinition("y", from: .states(["a"]), to: "b", effects: ["log", "beep"]),
                TransitionDefinition("z", from: .states(["a", "b"]), to: "a", effects: ["log"]),
                TransitionDefinition("w", from: .states(["b", "a"]), to: "a", effects: ["log"]),
            ])
        let machine = try #require(MachineCompiler.compile(definition).machine)
        let transitions = machine.transitions
        #expect(transitions[0].sources == [0])
        #expect(Self.storage(transitions[0].sources) == Self.storage(transitions[1].sources))
        #expect(Self.storage(transitions[0].effects) == Self.storage(transitions[1].effects))
        #expect(Self.storage(transitions[2].effects) == Self.storage(transitions[3].effects))
        // Lists in another order are other lists: sources are tried in the order written.
        #expect(transitions[2].sources == [0, 1] && transitions[3].sources == [1, 0])
    }
}
