import Testing

@testable import Statecraft

/// A `guard-rejected` message names each false guard of the input's candidates with the values
/// it read, built only when the message is.
@Suite struct GuardRejectionMessageTests {
    static let car = MachineDefinition(
        name: "car", initial: "picking",
        context: [ContextVariable("passengers", .int(0)), ContextVariable("mode", .string("eco"))],
        inputs: [InputDeclaration("drive", argumentType: .string), InputDeclaration("honk")],
        states: [StateDeclaration("picking"), StateDeclaration("driving")],
        transitions: [
            TransitionDefinition("drive", from: .states(["picking"]), to: "driving", when: "passengers > 0"),
            TransitionDefinition("drive", from: .states(["picking"]), to: "driving", when: "arg == mode && passengers >= 0 && mode != \"x\""),
            TransitionDefinition("honk", from: .states(["picking"]), to: nil, when: "false"),
        ])

    func rejected(_ input: String, _ argument: Value = .null) throws -> (CompiledMachine, TransitionResult, TableRunner) {
        let machine = try compile(Self.car)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send(input, argument, into: &recorder)
        let result = try #require(recorder.entries.last?.result)
        #expect(result.rejection == .guardRejected)
        return (machine, result, runner)
    }

    @Test func eachFalseGuardIsShownWithTheValuesItRead() throws {
        let (machine, result, runner) = try rejected("drive", .string("sport"))
        #expect(
            machine.message(for: result, context: runner.context, argument: .string("sport"))
                == #"every guard of 'drive' from 'picking' is false: 'passengers > 0' (passengers = 0); 'arg == mode && passengers >= 0 && mode != "x"' (arg = "sport", mode = "eco", passengers = 0)"#)
    }

    @Test func aGuardThatReadsNothingIsNamedAlone() throws {
        let (machine, result, runner) = try rejected("honk")
        #expect(machine.message(for: result, context: runner.context) == "every guard of 'honk' from 'picking' is false: 'false'")
    }

    @Test func withoutTheContextTheGuardsAreNamedWithoutValues() throws {
        let (machine, result, _) = try rejected("drive", .string("sport"))
        #expect(
            machine.message(for: result)
                == #"every guard of 'drive' from 'picking' is false: 'passengers > 0'; 'arg == mode && passengers >= 0 && mode != "x"'"#)
    }

    @Test func aLongStringValueIsCut() throws {
        let (machine, result, runner) = try rejected("drive", .string(String(repeating: "a", count: 500)))
        let message = machine.message(for: result, context: runner.context, argument: .string(String(repeating: "a", count: 500)))
        #expect(message.contains("arg = \"\(String(repeating: "a", count: 57))\"..."))
        #expect(message.count < 300)
    }

    @Test func theFileMachineShowsTheValues() throws {
        let machine = try StateMachine(try compile(Self.car))
        #expect(
            machine.send("drive", .string("sport")).error?.message
                == #"every guard of 'drive' from 'picking' is false: 'passengers > 0' (passengers = 0); 'arg == mode && passengers >= 0 && mode != "x"' (arg = "sport", mode = "eco", passengers = 0)"#)
    }
}
