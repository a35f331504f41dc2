import Statecraft

/// Writes a scenario's steps as lines of an input script (`unlock "1234"`, `@wait 30s`), for
/// the input history of a report. One per machine, shared by reference by every
/// ``ScenarioResult``: a result costs one reference, not a copy of the machine.
final class StepScriptWriter: Sendable {
    let machine: CompiledMachine
    let names: MachineNameIndex

    init(machine: CompiledMachine, names: MachineNameIndex) {
        self.machine = machine
        self.names = names
    }

    /// The argument of a `send`, as a value of the input's type; `nil` for none.
    func argument(of send: ScenarioStep.Send, input: Int) -> Value? {
        send.argument.flatMap { value in machine.argumentTypes[input].flatMap { ScenarioValues.converted(value, to: ExpressionType($0)) } }
    }

    /// `step` as a script line; `nil` for a check alone.
    func line(of step: ScenarioStep) -> String? {
        if let send = step.send {
            let id = names.inputs[send.input.name]!
            return argument(of: send, input: id).map { "\(send.input.name) \($0)" } ?? send.input.name
        }
        return step.wait.map { "@wait \($0.text)" }
    }
}
