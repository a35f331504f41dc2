import Testing

@testable import Statecraft

/// How refusals (`reject: MESSAGE`) sit in the dispatch table: a lone unguarded one settles its
/// cell as `refused` (never as a transition to take), any other is searched like a guarded row.
struct RefusalCellTests {
    let machine: CompiledMachine

    init() throws {
        machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(0))],
                states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("done", isFinal: true)],
                transitions: [
                    TransitionDefinition("no", from: .states(["a"]), to: nil, rejecting: "never from a"),
                    TransitionDefinition("maybe", from: .states(["a"]), to: nil, when: "n > 0", rejecting: "not while n > 0"),
                    TransitionDefinition("maybe", from: .states(["a"]), to: "b"),
                    TransitionDefinition("no", from: .anyNonFinal(.unknown), to: "done"),
                ]))
    }

    func cell(_ state: String, _ input: String) -> DispatchTable.Cell {
        let state = machine.stateNames.firstIndex(of: state)!
        let input = machine.inputNames.firstIndex(of: input)!
        return machine.table.cell(state: state, input: input)
    }

    @Test func aLoneUnguardedRefusalSettlesItsCellAsRefused() {
        // `no` from a has two candidates (the refusal, then the `*` row): searched.
        #expect(cell("a", "no").code == DispatchTable.search)
        #expect(cell("b", "no").code == 3, "b's only candidate is the '*' row, taken directly")
        #expect(cell("a", "maybe").code == DispatchTable.search)
        #expect(machine.table.refuses == [true, true, false, false])
    }

    @Test func theRefusedCodeListsItsCandidateLikeASearch() throws {
        let lone = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
                transitions: [
                    TransitionDefinition("go", from: .states(["a"]), to: "b"),
                    TransitionDefinition("back", from: .states(["a", "b"]), to: nil, rejecting: "no way back"),
                ]))
        let back = lone.inputNames.firstIndex(of: "back")!
        for state in 0..<2 {
            #expect(lone.table.cell(state: state, input: back).code == DispatchTable.refused)
            #expect(lone.candidates(state: state, input: back) == [1])
        }
    }
}
