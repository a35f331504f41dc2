import Statecraft

/// What `smrun repl` needs of the session that runs a machine: ``RunSession`` for flat
/// machines. Everything about what the machine does stays in the session and the engine; the
/// REPL only asks.
protocol InteractiveSession: ~Copyable {
    /// What `:undo` goes back to.
    associatedtype Saved

    var machine: CompiledMachine { get }
    /// The current state, or configuration, as the prompt and `:state` show it.
    var stateDescription: String { get }
    /// The current state's id, or the active atomic states of a statechart.
    var activeStates: [Int] { get }
    /// The context's values, by variable id.
    var contextValues: [Value] { get }
    /// The state and context now, to come back to.
    var saved: Saved { get }
    /// Input ids, those with a transition from the current state first (TAB's order).
    var inputsForCompletion: [Int] { get }
    /// `:inputs`: what can be sent now and where each input leads, one line each.
    var availableInputs: String { get }
    /// `:timers`: the pending timers in the order they would fire, each with the time left
    /// until it is due, one line each.
    var pendingTimers: String { get }
    /// `:save-state`: the machine's state, context, clock and pending timers as a snapshot
    /// document (docs/snapshots.md), on the virtual clock.
    var snapshotDocument: [UInt8] { get }

    /// Goes back to `saved`, without running effects.
    mutating func restore(_ saved: Saved)
    /// Starts over from the initial state, printing the start result as at first.
    mutating func restart()
    /// Whether a script line is blank or a comment.
    mutating func isSkipped(line: UnsafeRawBufferPointer) -> Bool
    /// What a script line does as a scenario step, or `nil` when it is neither an input of the
    /// machine nor a wait.
    mutating func scenarioAction(of line: UnsafeRawBufferPointer) -> SessionScenario.Action?
    /// Runs a script line and prints its result as `run` does for line `number`.
    mutating func run(line: UnsafeRawBufferPointer, number: Int)
    /// Writes out the results printed so far.
    mutating func flush()
    /// The machine as a diagram, the current state (or configuration) highlighted.
    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String
}
