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

    /// A snapshot of `state` and `context` for the machine with this name and fingerprint.
    public init(machineName: String, fingerprint: MachineFingerprint, state: Int, context: [Value]) {
        self.machineName = machineName
        self.fingerprint = fingerprint
        self.state = state
        self.context = context
    }
}
