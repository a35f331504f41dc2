/// A running machine's current state and context, saved so that a later run resumes where this
/// one stopped (`smrun --state FILE`, or a Swift program through ``SnapshotCodec``).
///
/// A snapshot is bound to one machine definition by its ``MachineFingerprint``: it resumes
/// only a machine whose definition hashes the same.
public struct MachineSnapshot: Hashable, Sendable {
    /// The JSON document's `"format"`.
    public static let formatName = "statecraft-snapshot"
    /// The version of the JSON document this library writes and reads.
    public static let formatVersion = 1

    /// The name of the machine that saved it (for messages; the fingerprint decides).
    public var machineName: String
    /// The fingerprint of the machine that saved it.
    public var fingerprint: MachineFingerprint
    /// The current state's id.
    public var state: Int
    /// Context values by slot, each of its variable's type.
    public var context: [Value]
    /// For a statechart: the active atomic states in document order (``state`` is the first);
    /// empty for a flat machine.
    public var configuration: [Int]
    /// For a statechart: what each history state recorded, by the history state's id; a history
    /// whose parent was never left has no entry.
    public var histories: [Int: [Int]]

    /// A snapshot of `state` and `context` for the machine with this name and fingerprint, and
    /// for a statechart its configuration and history records.
    public init(
        machineName: String, fingerprint: MachineFingerprint, state: Int, context: [Value], configuration: [Int] = [],
        histories: [Int: [Int]] = [:]
    ) {
        self.machineName = machineName
        self.fingerprint = fingerprint
        self.state = state
        self.context = context
        self.configuration = configuration
        self.histories = histories
    }
}
