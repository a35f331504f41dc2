import Statecraft

/// A machine in `smrun repl`: the prompt shows the state (a statechart's configuration, as
/// results print it), `:undo` goes back to an earlier runner (configuration, history records
/// and context), and `:inputs` lists the transitions that leave an active state.
extension RunSession: InteractiveSession {
    var machine: CompiledMachine { current.machine }

    var stateDescription: String { current.activeStates.map { current.machine.stateNames[$0] }.joined(separator: ", ") }

    var activeStates: [Int] { current.activeStates }

    var contextValues: [Value] { current.context }

    var saved: Runner { current }

    var inputsForCompletion: [Int] { AvailableInputs(current).inputsForCompletion }

    var availableInputs: String { AvailableInputs(current).listing }

    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String {
        let runner = current
        return Diagram.render(runner.machine, definition: definition, format: format, options: Diagram.Options(highlightedStates: Set(runner.activeStates)))
    }
}
