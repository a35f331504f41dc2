/// A snapshot document as read, before it is checked against a machine: its format and members
/// are valid, but its state and context are names and JSON values that no machine has vouched
/// for yet. What `smrun status` shows, and what ``SnapshotCodec/decode(_:)`` and
/// ``SnapshotCodec/migrate(_:now:)`` check.
package struct SavedSnapshot {
    /// The `"machine"` member: the name of the machine that saved it.
    package let machineName: String
    /// The `"fingerprint"` member, as written (`sha256:...`).
    package let fingerprint: String
    /// The `"state"` member: the current state's name, or a statechart's active atomic states
    /// (a JSON array of names).
    package let stateNames: [String]
    /// Whether `"state"` was written as an array (a statechart with nested states).
    package let isConfiguration: Bool
    /// The `"history"` member of a statechart with history states: each history state's name
    /// and the names it recorded, in the file's order; `nil` when there is no such member.
    package let histories: [(name: String, states: [String])]?
    /// The `"context"` member, in the file's order.
    let context: [(name: String, value: JSONValue)]
    /// The `"clock"` member: which clock the times are on (virtual when there is none).
    package let clock: MachineSnapshot.Clock
    /// The `"time"` member: the virtual clock's time (0 when there is none).
    package let time: Int
    /// The `"timers"` member: the pending timers in the order they would fire (none when there
    /// is no such member, as in a snapshot of a machine without timers).
    package let timers: [SavedTimer]
    /// Whether the document has a `"clock"`, `"time"` or `"timers"` member: it was saved by a
    /// machine with timers.
    package let hasClock: Bool

    /// The state as smrun prints it: a name, or a configuration's names joined by `, `.
    package var stateText: String { stateNames.joined(separator: ", ") }

    /// The context's variables and their values as JSON text, in the file's order.
    package var contextJSON: [(name: String, json: String)] { context.map { ($0.name, $0.value.jsonText) } }

    /// Reads a snapshot document: UTF-8 JSON, an object with the format name and a version this
    /// library reads, and exactly the members it must have, each of its JSON type.
    package static func read(_ bytes: [UInt8]) throws(SnapshotError) -> SavedSnapshot {
        let members = try members(
            of: bytes, known: ["format", "version", "machine", "fingerprint", "state", "history", "context", "clock", "time", "timers"])
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        let (machineName, fingerprint) = try machine(member)
        guard let stateValue = member("state") else { throw SnapshotError(.invalidField, "missing member \"state\"") }
        let stateNames: [String]
        var isConfiguration = false
        switch stateValue {
        case .string(let name): stateNames = [name]
        case .array(let items):
            stateNames = try names(items, of: "\"state\"")
            isConfiguration = true
        default: throw SnapshotError(.invalidField, "\"state\" must be a string or an array of strings, not \(stateValue.kind)")
        }
        var histories: [(name: String, states: [String])]?
        if let historyValue = member("history") {
            guard case .object(let records) = historyValue else {
                throw SnapshotError(.invalidField, "\"history\" must be an object, not \(historyValue.kind)")
            }
            histories = []
            for (name, record) in records {
                guard case .array(let items) = record else {
                    throw SnapshotError(.invalidField, "\"history\" member \(JSONText.quoted(name)) must be an array of state names, not \(record.kind)")
                }
                histories?.append((name, try names(items, of: "\"history\" member \(JSONText.quoted(name))")))
            }
        }
        guard let contextValue = member("context") else { throw SnapshotError(.invalidField, "missing member \"context\"") }
        guard case .object(let context) = contextValue else {
            throw SnapshotError(.invalidField, "\"context\" must be an object, not \(contextValue.kind)")
        }
        let (clock, time, timers) = try readTimers(member)
        return SavedSnapshot(
            machineName: machineName, fingerprint: fingerprint, stateNames: stateNames, isConfiguration: isConfiguration,
            histories: histories, context: context.map { ($0.key, $0.value) }, clock: clock, time: time, timers: timers,
            hasClock: ["clock", "time", "timers"].contains { member($0) != nil })
    }

    /// The members of a snapshot document: UTF-8 JSON, an object with the format name and a
    /// version this library reads, and no member but the `known` ones.
    static func members(of bytes: [UInt8], known: [String]) throws(SnapshotError) -> [(key: String, value: JSONValue)] {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            let position = SourcePosition(offset: error.offset, in: bytes)
            throw SnapshotError(.syntax, "not valid JSON: \(error.message) at line \(position.line), column \(position.column)")
        }
        guard case .object(let members) = document else {
            throw SnapshotError(.notASnapshot, "not a Statecraft snapshot: the document is \(document.kind), not an object")
        }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
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
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw SnapshotError(.invalidField, "unknown member \(JSONText.quoted(unknown.key))")
        }
        return members
    }

    /// The `"machine"` and `"fingerprint"` members, strings both.
    static func machine(_ member: (String) -> JSONValue?) throws(SnapshotError) -> (name: String, fingerprint: String) {
        func string(_ key: String) throws(SnapshotError) -> String {
            guard let value = member(key) else { throw SnapshotError(.invalidField, "missing member \"\(key)\"") }
            guard case .string(let text) = value else {
                throw SnapshotError(.invalidField, "\"\(key)\" must be a string, not \(value.kind)")
            }
            return text
        }
        return (try string("machine"), try string("fingerprint"))
    }

    /// The strings of a JSON array of state names (at least one).
    private static func names(_ items: [JSONValue], of member: String) throws(SnapshotError) -> [String] {
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item else { throw SnapshotError(.invalidField, "\(member) must hold state names, not \(item.kind)") }
            names.append(name)
        }
        if names.isEmpty { throw SnapshotError(.invalidField, "\(member) must name at least one state") }
        return names
    }
}
