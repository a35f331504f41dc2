import SmrunCore
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

    var snapshotDocument: [UInt8] {
        let codec = SnapshotCodec(current.machine)
        var snapshot = codec.snapshot(of: current)
        snapshot.clock = .virtual
        if !current.machine.hasTimers { snapshot.time = 0 }
        return codec.encode(snapshot)
    }

    var pendingTimers: String {
        guard current.machine.hasTimers else { return "the machine has no timers" }
        // Read back as a document, so that each timer is named as `smrun status` names it.
        guard let saved = try? SavedSnapshot.read(snapshotDocument) else { return "" }
        guard !saved.timers.isEmpty else { return "no timers pending (the clock is at \(Delay.compoundText(milliseconds: saved.time)))" }
        return saved.timers.map { "\(JSONText.escapingControls($0.label)), due \(DueTime.relative($0.due, now: saved.time))" }
            .joined(separator: "\n")
    }

    func diagram(_ format: Diagram.Format, definition: MachineDefinition?) -> String {
        let runner = current
        return Diagram.render(runner.machine, definition: definition, format: format, options: Diagram.Options(highlightedStates: Set(runner.activeStates)))
    }
}
