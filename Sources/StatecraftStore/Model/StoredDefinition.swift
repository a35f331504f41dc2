/// The source of a definition some instance runs on, kept by fingerprint: an instance keeps
/// running on it after its file changes.
package struct StoredDefinition: Sendable, Equatable {
    package var fingerprint: String
    package var machine: String
    package var format: Format
    package var source: [UInt8]
    /// The names of its states, so that listing by a state can tell an unknown name.
    package var stateNames: [String]

    package enum Format: String, Sendable {
        case yaml, scxml
    }

    package init(fingerprint: String, machine: String, format: Format, source: [UInt8], stateNames: [String]) {
        self.fingerprint = fingerprint
        self.machine = machine
        self.format = format
        self.source = source
        self.stateNames = stateNames
    }
}
