import Statecraft

/// What running an instance did in one transaction: its new history entries (without their
/// seq), and the instance after them.
package struct InstanceRun: Sendable {
    /// One history entry to append, numbered when stored.
    package struct Entry: Sendable {
        package var kind: HistoryEntry.Kind
        package var at: Int
        package var input: String?
        package var argument: String?
        package var timer: String?
        /// The results, as a JSON array's text.
        package var results: String
        /// The instance after the entry (``HistoryEntry/stateAfter``); empty until the entry ends.
        package var stateAfter = ""
    }

    package var entries: [Entry]
    package var snapshot: MachineSnapshot
    /// The snapshot document, as `--state` saves it.
    package var document: [UInt8]
    package var isFinal: Bool
    /// The active states and their ancestors, by name; `nil` when they did not change.
    package var activeStates: [String]?
    /// When ``activeStates`` changed from a stored instance's: the ones it had, so that a store
    /// rewrites only the rows that differ.
    package var activeStatesBefore: [String]?
    /// The pending timers; `nil` when they did not change.
    package var timers: [PendingTimer]?

    /// This run of a new instance after `start`, its creation, as one run: `start`'s entries
    /// first, and its index rows unless this run changed them.
    package func following(_ start: InstanceRun) -> InstanceRun {
        var combined = self
        combined.entries = start.entries + entries
        combined.activeStates = activeStates ?? start.activeStates
        combined.activeStatesBefore = nil
        combined.timers = timers ?? start.timers
        return combined
    }
}

/// Why an input sent from outside was refused before it reached the machine: nothing is
/// stored, and the request is answered 400.
package enum InputRefusal: Error, Sendable, Equatable {
    /// No such input, or one the machine sends only to itself.
    case unknownInput(name: String, message: String)
    /// The argument does not fit the input's declared type.
    case badArgument(input: String, message: String)
}
