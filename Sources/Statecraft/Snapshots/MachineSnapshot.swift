/// A running machine's current state and context, saved so that a later run resumes where this
/// one stopped (`smrun --state FILE`, or a Swift program through ``SnapshotCodec``).
///
/// A snapshot is bound to one machine definition by its ``MachineFingerprint``: it resumes
/// only a machine whose definition hashes the same.
@usableFromInline
package struct MachineSnapshot: Hashable, Sendable {
    /// The JSON document's `"format"`.
    package static let formatName = "statecraft-snapshot"
    /// The version of the JSON document this library writes and reads.
    package static let formatVersion = 1

    /// The name of the machine that saved it (for messages; the fingerprint decides).
    package var machineName: String
    /// The fingerprint of the machine that saved it.
    package var fingerprint: MachineFingerprint
    /// The current state's id.
    package var state: Int
    /// Context values by slot, each of its variable's type.
    package var context: [Value]
    /// For a statechart: the active atomic states in document order (``state`` is the first);
    /// empty for a flat machine.
    package var configuration: [Int]
    /// For a statechart: what each history state recorded, by the history state's id; a history
    /// whose parent was never left has no entry.
    package var histories: [Int: [Int]]
    /// The clock that ``time`` and the timers' due times are on.
    package var clock: Clock
    /// The virtual clock's time when the snapshot was taken, in milliseconds (not saved for the
    /// real clock, whose time is the wall clock's).
    package var time: Int
    /// The pending timers, in the order they would fire (ties on the due time in the order
    /// they were started).
    package var timers: [SnapshotTimer]

    /// A snapshot of `state` and `context` for the machine with this name and fingerprint, for
    /// a statechart its configuration and history records, and for a machine with timers its
    /// clock and pending timers.
    package init(
        machineName: String, fingerprint: MachineFingerprint, state: Int, context: [Value], configuration: [Int] = [],
        histories: [Int: [Int]] = [:], clock: Clock = .virtual, time: Int = 0, timers: [SnapshotTimer] = []
    ) {
        self.machineName = machineName
        self.fingerprint = fingerprint
        self.state = state
        self.context = context
        self.configuration = configuration
        self.histories = histories
        self.clock = clock
        self.time = time
        self.timers = timers
    }
}
