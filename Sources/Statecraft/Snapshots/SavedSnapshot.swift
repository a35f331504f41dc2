/// A snapshot document as read, before it is checked against a machine: its format and members
/// are valid, but its state and context are names and JSON values that no machine has vouched
/// for yet. What `smrun status` shows, and what ``SnapshotCodec/decode(_:)`` and
/// ``SnapshotCodec/migrate(_:)`` check.
package struct SavedSnapshot {
    /// The `"machine"` member: the name of the machine that saved it.
    package let machineName: String
    /// The `"fingerprint"` member, as written (`sha256:...`).
    package let fingerprint: String
    /// The `"state"` member: the current state's name.
    package let stateName: String
    /// The `"context"` member, in the file's order.
    let context: [(name: String, value: SnapshotJSON)]

    /// The context's variables and their values as JSON text, in the file's order.
    package var contextJSON: [(name: String, json: String)] { context.map { ($0.name, $0.value.jsonText) } }

    /// Reads a snapshot document: UTF-8 JSON, an object with the format name and a version this
    /// library reads, and exactly the members it must have, each of its JSON type.
    package static func read(_ bytes: [UInt8]) throws(SnapshotError) -> SavedSnapshot {
        let document: SnapshotJSON
        do {
            document = try SnapshotJSON.parse(bytes)
        } catch {
            let position = SourcePosition(offset: error.offset, in: bytes)
            throw SnapshotError(.syntax, "not valid JSON: \(error.message) at line \(position.line), column \(position.column)")
        }
        guard case .object(let members) = document else {
            throw SnapshotError(.notASnapshot, "not a Statecraft snapshot: the document is \(document.kind), not an object")
        }
        func member(_ key: String) -> SnapshotJSON? { members.first { $0.key == key }?.value }
        guard case .string(MachineSnapshot.formatName)? = member("format") else {
            throw SnapshotError(.notASnapshot, "not a Statecraft snapshot: no \"format\": \"\(MachineSnapshot.formatName)\" member")
        }
        guard case .number(let versionText)? = member("version"), let version = Int(versionText) else {
            throw SnapshotError(.invalidField, "\"version\" must be an integer, the snapshot format version")
        }
        guard version == MachineSnapshot.formatVersion else {
            throw SnapshotError(
                .unsupportedVersion,
                "snapshot format version \(version) is not supported (this version of Statecraft reads version \(MachineSnapshot.formatVersion))")
        }
        let known = ["format", "version", "machine", "fingerprint", "state", "context"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw SnapshotError(.invalidField, "unknown member \(JSONText.quoted(unknown.key))")
        }
        func string(_ key: String) throws(SnapshotError) -> String {
            guard let value = member(key) else { throw SnapshotError(.invalidField, "missing member \"\(key)\"") }
            guard case .string(let text) = value else {
                throw SnapshotError(.invalidField, "\"\(key)\" must be a string, not \(value.kind)")
            }
            return text
        }
        let machineName = try string("machine")
        let fingerprint = try string("fingerprint")
        let stateName = try string("state")
        guard let contextValue = member("context") else { throw SnapshotError(.invalidField, "missing member \"context\"") }
        guard case .object(let context) = contextValue else {
            throw SnapshotError(.invalidField, "\"context\" must be an object, not \(contextValue.kind)")
        }
        return SavedSnapshot(
            machineName: machineName, fingerprint: fingerprint, stateName: stateName, context: context.map { ($0.key, $0.value) })
    }
}
