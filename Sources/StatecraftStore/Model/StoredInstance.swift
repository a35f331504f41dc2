/// An instance as the store keeps it: the definition it runs on, its snapshot (the document
/// `smrun --state` saves), and its version (the seq of its last history entry).
package struct StoredInstance: Sendable, Equatable {
    package var id: InstanceID
    /// The fingerprint of the definition the instance runs on (`sha256:...`).
    package var fingerprint: String
    package var status: Status
    package var snapshot: [UInt8]
    package var version: Int
    /// Milliseconds since the Unix epoch.
    package var created: Int
    package var updated: Int

    package enum Status: String, Sendable {
        case running
        /// The machine reached a final state: it takes no more inputs.
        case final
    }

    package init(id: InstanceID, fingerprint: String, status: Status, snapshot: [UInt8], version: Int, created: Int, updated: Int) {
        self.id = id
        self.fingerprint = fingerprint
        self.status = status
        self.snapshot = snapshot
        self.version = version
        self.created = created
        self.updated = updated
    }
}
