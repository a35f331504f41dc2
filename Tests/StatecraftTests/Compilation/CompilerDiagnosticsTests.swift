import Testing

@testable import Statecraft

/// What the compiler reports about a definition: every problem, with its code and position.
struct CompilerDiagnosticsTests {
    func at(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

    func diagnostics(_ definition: MachineDefinition) -> [Diagnostic] {
        let output = MachineCompiler.compile(definition)
        #expect(output.machine == nil || !output.diagnostics.hasErrors)
        return output.diagnostics
    }

    @Test func undefinedNamesAreReportedWithSuggestions() {
        let found = diagnostics(
            MachineDefinition(
                name: "m", initial: Named("parkd", at: at(1, 10)), inputs: [InputDeclaration(Named("go", at: at(2, 3)))],
                states: [StateDeclaration(Named("parked", at: at(4, 3)))],
                effects: [EffectDefinition(Named("e", at: at(6, 3)), sends: [.init(Named("og", at: at(6, 12)))])],
                transitions: [
                    TransitionDefinition(
                        Named("goo", at: at(8, 5)), from: .states([Named("parkedd", at: at(8, 11))]), to: Named("parked", at: at(8, 22)),
                        effects: [Named("e", at: at(8, 31))])
                ]))
        #expect(found.map(\.code) == [.undefinedState, .undefinedInput, .undefinedInput, .undefinedState])
        #expect(found.map(\.position) == [at(1, 10), at(6, 12), at(8, 5), at(8, 11)])
        #expect(found[0].message == "initial state 'parkd' is not a declared state (did you mean 'parked'?)")
        #expect(found[2].message.contains("(did you mean 'go'?)"))
    }

    @Test func duplicatesAndBadNames() {
        let found = diagnostics(
            MachineDefinition(
                name: "m", initial: "a",
                context: [ContextVariable(Named("arg", at: at(2, 3)), .int(0)), ContextVariable(Named("2x", at: at(3, 3)), .int(0))],
                inputs: [InputDeclaration(Named("go", at: at(5, 3))), InputDeclaration(Named("go", at: at(6, 3)))],
                states: [StateDeclaration(Named("a", at: at(8, 3))), StateDeclaration(Named("a", at: at(9, 3))), StateDeclaration(Named("b c", at: at(10, 3)))],
                transitions: []))
        #expect(found.map(\.code) == [.invalidName, .invalidName, .duplicateInput, .duplicateState, .invalidName])
        #expect(found[2].message == "input 'go' is declared twice (first at line 5)")
    }

    @Test func initialMustNotBeFinal() {
        let found = diagnostics(
            MachineDefinition(name: "m", initial: Named("end", at: at(1, 10)), states: [StateDeclaration("end", isFinal: true)], transitions: []))
        #expect(found.map(\.code) == [.invalidInitial])
    }

    @Test func expressionProblemsPointInsideTheExpression() {
        let found = diagnostics(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(0))], inputs: [InputDeclaration("go")],
                states: [StateDeclaration("a")],
                effects: [EffectDefinition("e", assignments: [.init(Named("n"), ExpressionSource("\"text\"", at: at(7, 10)))])],
                transitions: [
                    TransitionDefinition("go", from: .states(["a"]), to: nil, when: ExpressionSource("n > 0 && nn", at: at(9, 11)), effects: ["e"]),
                    TransitionDefinition("go", from: .states(["a"]), to: nil, when: ExpressionSource("n +", at: at(10, 11), columnOffset: 1)),
                    TransitionDefinition("go", from: .states(["a"]), to: nil, when: ExpressionSource("n", at: at(11, 11))),
                    TransitionDefinition("go", from: .states(["a"]), to: nil, when: ExpressionSource("arg", at: at(12, 11))),
                ]))
        #expect(found.map(\.code) == [.expressionType, .undefinedVariable, .expressionSyntax, .expressionType, .expressionType])
        #expect(found.map(\.position) == [at(7, 10), at(9, 20), at(10, 15), at(11, 11), at(12, 11)])
        #expect(found[3].message == "a guard must be a bool, but 'n' is int")
        #expect(found[4].message.contains("input 'go' takes no argument"))
    }

    @Test func anEffectReadingArgNeedsOneArgumentType() {
        let found = diagnostics(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("v", .null)],
                inputs: [InputDeclaration("num", argumentType: .int), InputDeclaration("text", argumentType: .string), InputDeclaration("bare")],
                states: [StateDeclaration("a")],
                effects: [
                    EffectDefinition("mixed", assignments: [.init("v", ExpressionSource("arg", at: at(8, 20)))]),
                    EffectDefinition("noArg", assignments: [.init("v", ExpressionSource("arg", at: at(9, 20)))]),
                ],
                transitions: [
                    TransitionDefinition("num", from: .states(["a"]), to: nil, effects: ["mixed"]),
                    TransitionDefinition("text", from: .states(["a"]), to: nil, effects: ["mixed"]),
                    TransitionDefinition("bare", from: .states(["a"]), to: nil, effects: ["noArg"]),
                ]))
        #expect(found.map(\.code) == [.expressionType, .expressionType])
        #expect(found[0].message.contains("different argument types (int, string)"))
        #expect(found[1].message.contains("runs on an input without argument"))
    }

    @Test func aNullVariableTakesTheTypeAssignedToIt() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("where", .null), ContextVariable("copy", .null)],
                inputs: [InputDeclaration("go", argumentType: .string)], states: [StateDeclaration("a")],
                effects: [EffectDefinition("e", assignments: [.init("copy", "where"), .init("where", "arg")])],
                transitions: [TransitionDefinition("go", from: .states(["a"]), to: nil, when: "where == null || where < \"m\"", effects: ["e"])]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send(0, argument: .string("here"), into: &recorder)
        runner.send(0, argument: .string("there"), into: &recorder)
        #expect(runner.context == [.string("there"), .string("here")])
    }

    @Test func sentArgumentsMatchTheInput() {
        let found = diagnostics(
            MachineDefinition(
                name: "m", initial: "a", inputs: [InputDeclaration("count", argumentType: .int), InputDeclaration("go")],
                states: [StateDeclaration("a")],
                effects: [
                    EffectDefinition(
                        "e",
                        sends: [
                            .init(Named("count", at: at(5, 10))), .init("go", argument: ExpressionSource("1", at: at(6, 10))),
                            .init("count", argument: ExpressionSource("\"x\"", at: at(7, 10))),
                        ])
                ],
                transitions: [TransitionDefinition("go", from: .states(["a"]), to: nil, effects: ["e"])]))
        #expect(found.map(\.code) == [.argumentType, .argumentType, .expressionType])
    }

    @Test func inputsDefaultToThoseTransitionsUse() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("b")],
                transitions: [
                    TransitionDefinition("go", from: .states(["a"]), to: "b"), TransitionDefinition("back", from: .states(["b"]), to: "a"),
                    TransitionDefinition("go", from: .states(["b"]), to: "b"),
                ]))
        #expect(machine.inputNames == ["go", "back"])
        #expect(machine.argumentTypes == [nil, nil])
    }
}
