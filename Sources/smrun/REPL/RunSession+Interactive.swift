import Statecraft

/// A flat machine in `smrun repl`: the runner's state and context.
extension RunSession: InteractiveSession {
    var machine: CompiledMachine { current.machine }

    var stateDescription: String {
        let runner = current
        return runner.machine.stateNames[runner.state]
    }

    var activeStates: [Int] { [current.state] }

    var contextValues: [Value] { current.context }

    var saved: Runner { current }

    var inputsForCompletion: [Int] {
        let runner = current
        return AvailableInputs(machine: runner.machine, state: runner.state).inputsForCompletion
    }

    var availableInputs: String {
        let runner = current
        return AvailableInputs(machine: runner.machine, state: runner.state).listing
    }

    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String {
        let runner = current
        return Diagram.render(runner.machine, definition: definition, format: format, options: Diagram.Options(highlightedStates: [runner.state]))
    }
}
