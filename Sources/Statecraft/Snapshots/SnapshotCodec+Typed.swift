// The snapshots of typed machines (``TypedStateMachine``): the document smrun's `--state`
// writes, with the encoded State as `"state"` and the encoded Context as `"context"`
// (docs/snapshots.md, "Typed machines").

/// A typed machine's snapshot document as read, before it is checked against a machine: its
/// format and members are valid; its state and context are JSON values not yet decoded.
struct SavedTypedSnapshot {
    /// The `"machine"` member: the name of the machine that saved it (its State type's).
    let machineName: String
    /// The `"fingerprint"` member, as written.
    let fingerprint: String
    /// The `"state"` member: the encoded State.
    let state: JSONValue
    /// The `"context"` member: the encoded Context.
    let context: JSONValue
    /// The `"clock"`, `"time"` and `"timers"` members (virtual, 0 and none when absent).
    let clock: MachineSnapshot.Clock
    let time: Int
    let timers: [SavedTimer]

    /// Reads a typed machine's snapshot document: UTF-8 JSON, an object with the format name
    /// and a version this library reads, `"machine"`, `"fingerprint"`, `"state"` and
    /// `"context"`, and for a machine with timers `"clock"`, `"time"` and `"timers"`.
    static func read(_ bytes: [UInt8]) throws(SnapshotError) -> SavedTypedSnapshot {
        let members = try SavedSnapshot.members(
            of: bytes, known: ["format", "version", "machine", "fingerprint", "state", "context", "clock", "time", "timers"])
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        let (machineName, fingerprint) = try SavedSnapshot.machine(member)
        guard let state = member("state") else { throw SnapshotError(.invalidField, "missing member \"state\"") }
        guard let context = member("context") else { throw SnapshotError(.invalidField, "missing member \"context\"") }
        let (clock, time, timers) = try SavedSnapshot.readTimers(member)
        return SavedTypedSnapshot(
            machineName: machineName, fingerprint: fingerprint, state: state, context: context, clock: clock, time: time,
            timers: timers)
    }
}

extension SnapshotCodec {
    /// A typed machine's snapshot document, ending with a newline: its encoded `state` and
    /// `context`, and for a machine with timers the clock (virtual), its `time` and its pending
    /// `timers`. A context that is an object has one member a line, as smrun writes variables.
    func encodeTyped(state: JSONValue, context: JSONValue, time: Int, timers: [SnapshotTimer]) -> [UInt8] {
        var writer = SnapshotDocumentWriter(continuing: documentStart)
        writer.member("state")
        writer.append(state.spacedJSONText)
        writer.member("context")
        if case .object(let members) = context, !members.isEmpty {
            writer.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                writer.append(index == 0 ? "\n    " : ",\n    ")
                writer.string(key)
                writer.append(": ")
                writer.append(value.spacedJSONText)
            }
            writer.append("\n  }")
        } else {
            writer.append(context.spacedJSONText)
        }
        if machine.hasTimers {
            writer.member("clock")
            writer.string(MachineSnapshot.Clock.virtual.rawValue)
            writer.member("time")
            writer.append(String(time))
            writer.member("timers")
            appendTimers(timers, to: &writer.bytes)
        }
        return writer.finish()
    }

    /// The pending timers of a typed machine's snapshot, checked against the machine, which is
    /// in `state`: each names one of its delayed rows from that state, due no earlier than the
    /// snapshot's time, on the virtual clock.
    func typedTimers(_ saved: SavedTypedSnapshot, state: Int) throws(SnapshotError) -> [SnapshotTimer] {
        guard saved.clock == .virtual else {
            throw SnapshotError(
                .invalidField, "\"clock\" must be \"virtual\": a typed machine saves its timers on its own clock, in milliseconds since it started")
        }
        return try savedTimers(saved.timers, clock: saved.clock, time: saved.time, configuration: [state]).timers
    }
}
