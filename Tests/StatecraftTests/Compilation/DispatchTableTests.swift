import TestSupport
import Testing

@testable import Statecraft

/// The `state x input` table the runner reads: which cells take a transition directly (and
/// where it leads), which search their candidates (in file order), which have none, and which
/// belong to a final state.
struct DispatchTableTests {
    func row(
        _ input: String, _ from: [String], _ to: String?, when: ExpressionSource? = nil, _ effects: [Named] = []
    ) -> TransitionDefinition {
        TransitionDefinition(Named(input), from: .states(from.map { Named($0) }), to: to.map { Named($0) }, when: when, effects: effects)
    }

    func cell(_ machine: CompiledMachine, _ state: String, _ input: String) -> DispatchTable.Cell {
        let state = machine.stateNames.firstIndex(of: state)!
        let input = machine.inputNames.firstIndex(of: input)!
        return machine.table.cell(state: state, input: input)
    }

    func candidates(_ machine: CompiledMachine, _ state: String, _ input: String) -> [Int] {
        machine.candidates(state: machine.stateNames.firstIndex(of: state)!, input: machine.inputNames.firstIndex(of: input)!).map(Int.init)
    }

    func index(_ machine: CompiledMachine, state: String) -> Int32 { Int32(machine.stateNames.firstIndex(of: state)!) }

    /// The copies of transition `index`'s own effects, as `slot=source`.
    func copies(_ machine: CompiledMachine, transition index: Int) -> [String] {
        let table = machine.table
        return table.copies[Int(table.transitionCopies[index])..<Int(table.transitionCopies[index + 1])].map { copy in
            switch copy.source {
            case .constant(let value): "\(machine.variableNames[copy.slot])=\(value)"
            case .variable(let slot): "\(machine.variableNames[copy.slot])=\(machine.variableNames[slot])"
            case .argument: "\(machine.variableNames[copy.slot])=arg"
            }
        }
    }

    @Test func aLoneUnguardedRowIsTakenDirectlyToItsTarget() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("c")],
                transitions: [row("go", ["a"], "b"), row("go", ["b"], "c"), row("back", ["c"], "a")]))
        #expect(cell(machine, "a", "go").code == 0)
        #expect(cell(machine, "a", "go").next == index(machine, state: "b"))
        #expect(cell(machine, "b", "go").code == 1)
        #expect(cell(machine, "b", "go").next == index(machine, state: "c"))
        #expect(cell(machine, "c", "back").code == 2)
        #expect(cell(machine, "c", "back").next == index(machine, state: "a"))
        #expect(candidates(machine, "a", "go") == [0])

        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        runner.send("go", into: &recorder)
        #expect(recorder.entries.map(\.state) == ["b", "c"])
    }

    @Test func cellsWithoutARowAreUnhandled() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
                transitions: [row("go", ["a"], "b"), row("back", ["b"], "a")]))
        for (state, input) in [("a", "back"), ("b", "go")] {
            #expect(cell(machine, state, input).code == DispatchTable.unhandled, "\(state) \(input)")
            #expect(candidates(machine, state, input).isEmpty, "\(state) \(input)")
        }
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("back", into: &recorder)
        #expect(recorder.entries.last?.result.rejection == .noTransition)
    }

    @Test func aRowThatStaysLeadsEachOfItsSourcesBackToItself() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("c")],
                transitions: [row("tick", ["a", "b", "c"], nil), row("go", ["a"], "b"), row("go", ["b"], "c")]))
        for state in ["a", "b", "c"] {
            #expect(cell(machine, state, "tick").code == 0, "\(state)")
            #expect(cell(machine, state, "tick").next == index(machine, state: state), "\(state)")
        }
    }

    @Test func everyCellOfAFinalStateIsFinishedEvenOneARowLeavesFrom() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("done", isFinal: true)],
                transitions: [row("finish", ["a"], "done"), row("stay", ["done"], nil), row("poke", ["a"], nil)]))
        for input in ["finish", "stay", "poke"] {
            #expect(cell(machine, "done", input).code == DispatchTable.finished, "\(input)")
        }
        #expect(cell(machine, "a", "stay").code == DispatchTable.unhandled)
        #expect(cell(machine, "a", "finish").code == 0)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("finish", into: &recorder)
        runner.send("stay", into: &recorder)
        #expect(recorder.entries.last?.result.rejection == .finished)
    }

    @Test func aWildcardSourceFillsTheCellsOfEveryNonFinalState() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a",
                states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("c"), StateDeclaration("done", isFinal: true)],
                transitions: [
                    TransitionDefinition("reset", from: .anyNonFinal(.unknown), to: "a"), row("go", ["a"], "b"), row("go", ["b"], "c"),
                    row("finish", ["c"], "done"),
                ]))
        for state in ["a", "b", "c"] {
            #expect(cell(machine, state, "reset").code == 0, "\(state)")
            #expect(cell(machine, state, "reset").next == index(machine, state: "a"), "\(state)")
        }
        #expect(cell(machine, "done", "reset").code == DispatchTable.finished)
    }

    @Test func guardedOrSeveralRowsAreSearchedInFileOrder() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(5))],
                states: ["a", "b", "c", "d"].map { StateDeclaration(Named($0)) },
                transitions: [
                    row("go", ["a"], "b", when: "n > 10"),  // 0
                    row("other", ["a"], "b"),  // 1
                    row("go", ["a", "b"], "c", when: "n > 1"),  // 2
                    row("go", ["a"], "d"),  // 3
                    row("stop", ["b"], "a"),  // 4
                    row("stop", ["b", "c"], "d"),  // 5
                    row("back", ["d"], "a", when: "n > 1"),  // 6
                ]))
        #expect(cell(machine, "a", "go").code == DispatchTable.search)
        #expect(candidates(machine, "a", "go") == [0, 2, 3])
        #expect(candidates(machine, "b", "go") == [2])
        #expect(cell(machine, "b", "go").code == DispatchTable.search)
        // Two unguarded rows: the second can never be taken, but both are listed.
        #expect(cell(machine, "b", "stop").code == DispatchTable.search)
        #expect(candidates(machine, "b", "stop") == [4, 5])
        #expect(cell(machine, "c", "stop").code == 5)
        #expect(cell(machine, "d", "back").code == DispatchTable.search)
        #expect(candidates(machine, "d", "back") == [6])

        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        #expect(recorder.entries.last?.state == "c")
    }

    @Test func effectsThatOnlyCopyAreTakenDirectlyWithTheirCopies() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a",
                context: [ContextVariable("n", .int(0)), ContextVariable("m", .int(0)), ContextVariable("s", .string(""))],
                inputs: [
                    InputDeclaration("set", argumentType: .int), InputDeclaration("put"), InputDeclaration("bump"),
                    InputDeclaration("ping"), InputDeclaration("hooked"), InputDeclaration("back"),
                ],
                states: [StateDeclaration("a"), StateDeclaration("b")],
                effects: [
                    EffectDefinition("copyArgument", assignments: [.init("n", "arg")]),
                    EffectDefinition("copyConstantAndVariable", assignments: [.init("s", "\"x\""), .init("m", "n")]),
                    EffectDefinition("compute", assignments: [.init("n", "n + 1")]),
                    EffectDefinition("sendBack", sends: [.init("back")]),
                ],
                transitions: [
                    row("set", ["a"], "b", ["copyArgument"]),  // 0
                    row("put", ["a"], "b", ["copyConstantAndVariable"]),  // 1
                    row("bump", ["a"], "b", ["compute"]),  // 2
                    row("ping", ["a"], "b", ["sendBack"]),  // 3
                    row("hooked", ["a"], "b", ["log"]),  // 4: a hook, bound by the host, has no body
                    row("back", ["b"], "a"),  // 5
                ]))
        let b = index(machine, state: "b")
        // Copies run bodies: the state after is given as its complement.
        #expect(cell(machine, "a", "set").code == 0)
        #expect(cell(machine, "a", "set").next == ~b)
        #expect(copies(machine, transition: 0) == ["n=arg"])
        #expect(cell(machine, "a", "put").code == 1)
        #expect(cell(machine, "a", "put").next == ~b)
        #expect(copies(machine, transition: 1) == ["s=\(Value.string("x"))", "m=n"])
        // Arithmetic may fail and a send queues an input: both are searched.
        #expect(cell(machine, "a", "bump").code == DispatchTable.search)
        #expect(candidates(machine, "a", "bump") == [2])
        #expect(cell(machine, "a", "ping").code == DispatchTable.search)
        #expect(cell(machine, "a", "hooked").code == 4)
        #expect(cell(machine, "a", "hooked").next == b)

        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("set", .int(7), into: &recorder)
        runner.send("back", into: &recorder)
        runner.send("put", into: &recorder)
        #expect(recorder.entries.last?.context == [.int(7), .int(7), .string("x")])
    }

    @Test func entryAndExitEffectsCountForTheTransitionsThatRunThem() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(0))],
                states: [
                    StateDeclaration("a", exit: ["exitCopy"]), StateDeclaration("b", entry: ["entrySend"], exit: ["exitSend"]),
                    StateDeclaration("c", entry: ["entryCopy"]),
                ],
                effects: [
                    EffectDefinition("exitCopy", assignments: [.init("n", "1")]),
                    EffectDefinition("entrySend", sends: [.init("tick")]),
                    EffectDefinition("exitSend", sends: [.init("tick")]),
                    EffectDefinition("entryCopy", assignments: [.init("n", "3")]),
                ],
                transitions: [
                    row("go", ["a"], "b"),  // 0: b's entry sends
                    row("jump", ["a"], "c"),  // 1: a's exit and c's entry copy
                    row("tick", ["a", "b", "c"], nil),  // 2: staying runs neither exit nor entry
                    row("leave", ["b"], "c"),  // 3: b's exit sends
                    row("again", ["c"], "c"),  // 4: a self-transition leaves and enters c
                ]))
        let (a, b, c) = (index(machine, state: "a"), index(machine, state: "b"), index(machine, state: "c"))
        #expect(cell(machine, "a", "go").code == DispatchTable.search)
        #expect(cell(machine, "a", "jump").code == 1)
        #expect(cell(machine, "a", "jump").next == ~c)
        #expect(cell(machine, "a", "tick").code == 2)
        #expect(cell(machine, "a", "tick").next == a)
        #expect(cell(machine, "b", "tick").next == b)
        #expect(cell(machine, "b", "leave").code == DispatchTable.search)
        #expect(cell(machine, "c", "again").code == 4)
        #expect(cell(machine, "c", "again").next == ~c)
        let table = machine.table
        let exitOfA = table.copies[Int(table.exitCopies[Int(a)])..<Int(table.exitCopies[Int(a) + 1])]
        let entryOfC = table.copies[Int(table.entryCopies[Int(c)])..<Int(table.entryCopies[Int(c) + 1])]
        #expect(exitOfA.map(\.slot) == [0] && entryOfC.map(\.slot) == [0])

        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("jump", into: &recorder)
        #expect(recorder.entries.last?.state == "c")
        #expect(recorder.entries.last?.context == [.int(3)])
        #expect(recorder.entries.last?.effects == ["exitCopy", "entryCopy"])
    }

    /// Against a plain reading of the rows, on machines of random shape: each cell lists the
    /// rows for its state and input in file order, and is settled as the rule says.
    @Test func randomMachinesAgreeWithTheirRows() throws {
        var random = SplitMix(seed: 2026)
        for _ in 0..<30 {
            let machine = try randomMachine(&random, states: 1..<13, finalOneIn: 5, inputs: 1..<7, rows: 0..<60, sourcesAtMost: 3)
            expectCellsAgreeWithRows(machine)
        }
    }
}

/// A machine of random shape, drawn from `random`: a state count, which states are final (each
/// but the first, one in `finalOneIn`), an input count and a row count from the ranges; each
/// row from one to `sourcesAtMost` source states, no target one time in four, a guard one time
/// in three.
func randomMachine(
    _ random: inout SplitMix, states: Range<Int>, finalOneIn: UInt64, inputs: Range<Int>, rows: Range<Int>, sourcesAtMost: UInt64
) throws -> CompiledMachine {
    func draw(_ range: Range<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
    let stateCount = draw(states)
    let states = (0..<stateCount).map { StateDeclaration(Named("s\($0)"), isFinal: $0 > 0 && random.next() % finalOneIn == 0) }
    let inputs = (0..<draw(inputs)).map { "i\($0)" }
    let rows = (0..<draw(rows)).map { _ in
        let sources = Set((0...(random.next() % sourcesAtMost)).map { _ in Int(random.next() % UInt64(stateCount)) }).sorted()
        return TransitionDefinition(
            Named(inputs[Int(random.next() % UInt64(inputs.count))]), from: .states(sources.map { Named("s\($0)") }),
            to: random.next() % 4 == 0 ? nil : Named("s\(random.next() % UInt64(stateCount))"),
            when: random.next() % 3 == 0 ? "n > 1" : nil)
    }
    return try compile(
        MachineDefinition(
            name: "m", initial: "s0", context: [ContextVariable("n", .int(0))], inputs: inputs.map { InputDeclaration(Named($0)) },
            states: states, transitions: rows))
}

/// Every cell of `machine`, through both lookups, against a plain reading of its rows: a final
/// state's cells are finished, a cell without rows is unhandled, a lone unguarded row is taken
/// directly to its target, and any other cell is searched; each lists its rows in file order.
func expectCellsAgreeWithRows(_ machine: CompiledMachine) {
    var expected: [Int: [Int]] = [:]
    for index in machine.transitions.indices {
        for state in machine.transitions[index].sources {
            expected[state * machine.inputCount + machine.transitions[index].input, default: []].append(index)
        }
    }
    for state in 0..<machine.stateCount {
        for input in 0..<machine.inputCount {
            let rows = expected[state * machine.inputCount + input] ?? []
            let cell = machine.table.cell(state: state, input: input)
            let unchecked = machine.table.cell(validState: state, input: input)
            #expect(cell.code == unchecked.code && cell.next == unchecked.next)
            let listed = machine.candidates(state: state, input: input).map(Int.init)
            if machine.isFinal[state] {
                #expect(cell.code == DispatchTable.finished)
            } else if rows.isEmpty {
                #expect(cell.code == DispatchTable.unhandled && listed.isEmpty)
            } else if rows.count == 1 && machine.transitions[rows[0]].guardExpression == nil {
                let target = machine.transitions[rows[0]].target
                #expect(cell.code == Int32(rows[0]) && cell.next == Int32(target >= 0 ? target : state))
                #expect(listed == rows)
            } else {
                #expect(cell.code == DispatchTable.search && listed == rows)
            }
        }
    }
}

/// Rows laid over each other's gaps: a sparse machine's table grows with its transitions, not
/// with its states times its inputs, and every lookup still finds its own state's cell.
struct DispatchTablePackingTests {
    @Test func aSparseMachinesTableGrowsWithItsTransitions() throws {
        var random = SplitMix(seed: 21)
        let stateCount = 2_000
        let inputs = (0..<300).map { "i\($0)" }
        var rows: [TransitionDefinition] = []
        var expected: [Int: Int] = [:]  // state * inputs + input -> target
        for state in 0..<stateCount {
            for _ in 0..<3 {
                let input = Int(random.next() % UInt64(inputs.count))
                guard expected[state * inputs.count + input] == nil else { continue }
                let target = Int(random.next() % UInt64(stateCount))
                expected[state * inputs.count + input] = target
                rows.append(TransitionDefinition(Named(inputs[input]), from: .states([Named("s\(state)")]), to: Named("s\(target)")))
            }
        }
        let machine = try compile(
            MachineDefinition(
                name: "sparse", initial: "s0", inputs: inputs.map { InputDeclaration(Named($0)) },
                states: (0..<stateCount).map { StateDeclaration(Named("s\($0)")) }, transitions: rows))
        // 600,000 cells dense; the rows' 6,000 or so cells fit in a small multiple of that.
        #expect(machine.table.cells.count < 4 * rows.count + inputs.count, "\(machine.table.cells.count) cells")
        for state in 0..<stateCount {
            for input in 0..<inputs.count {
                let cell = machine.table.cell(state: state, input: input)
                if let target = expected[state * inputs.count + input] {
                    #expect(cell.code >= 0 && cell.next == Int32(target), "state \(state), input \(input)")
                } else {
                    #expect(cell.code == DispatchTable.unhandled, "state \(state), input \(input)")
                }
            }
        }
    }

    /// Large sparse machines of random shape, with guards, final states and several rows per
    /// cell, against a plain reading of their rows (as ``DispatchTableTests`` does for small,
    /// dense ones).
    @Test func largeSparseMachinesAgreeWithTheirRows() throws {
        var random = SplitMix(seed: 16)
        for _ in 0..<4 {
            let machine = try randomMachine(&random, states: 300..<400, finalOneIn: 7, inputs: 220..<280, rows: 200..<1000, sourcesAtMost: 2)
            #expect(machine.table.denseStride == 0 && machine.table.cells.count < machine.stateCount * machine.inputCount / 4)
            expectCellsAgreeWithRows(machine)
        }
    }

    /// A machine whose every state handles every input keeps one full row per state.
    @Test func aDenseMachineKeepsOneRowPerState() throws {
        let inputs = (0..<7).map { "i\($0)" }
        let states = (0..<5).map { "s\($0)" }
        let rows = states.indices.flatMap { state in
            inputs.indices.map { input in
                TransitionDefinition(Named(inputs[input]), from: .states([Named(states[state])]), to: Named(states[(state + input) % states.count]))
            }
        }
        let machine = try compile(
            MachineDefinition(
                name: "dense", initial: "s0", inputs: inputs.map { InputDeclaration(Named($0)) },
                states: states.map { StateDeclaration(Named($0)) }, transitions: rows))
        #expect(machine.table.cells.count == states.count * inputs.count)
        for state in states.indices {
            for input in inputs.indices {
                #expect(machine.table.cell(state: state, input: input).next == Int32((state + input) % states.count))
            }
        }
    }
}
