/// Why a snapshot cannot be resumed by a machine.
public struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with a snapshot.
    public enum Kind: String, Hashable, Sendable {
        /// Not UTF-8 JSON.
        case syntax
        /// JSON, but not a snapshot document.
        case notASnapshot
        /// A snapshot of a format version this library does not read.
        case unsupportedVersion
        /// A member missing, unknown, or of the wrong JSON type.
        case invalidField
        /// Saved by another machine definition (the fingerprints differ).
        case differentMachine
        /// The state is not one of the machine's, or a statechart's configuration or history
        /// record is not one it can have.
        case unknownState
        /// The context does not have the machine's variables, or a value has the wrong type.
        case invalidContext
        /// A pending timer names an `after` transition, input, effect or send id the machine
        /// does not have, belongs to a state that is not active, or has an argument of the
        /// wrong type.
        case invalidTimer
    }

    /// What is wrong.
    public let kind: Kind
    /// What is wrong, in the words smrun prints.
    public let message: String

    /// What is wrong with the one item at fault, without naming it (a dropped timer's reason
    /// in a migration); the ``message`` when there is no such item.
    package let reason: String

    package init(_ kind: Kind, _ message: String, reason: String? = nil) {
        self.kind = kind
        self.message = message
        self.reason = reason ?? message
    }

    /// The ``message``.
    public var description: String { message }
}
