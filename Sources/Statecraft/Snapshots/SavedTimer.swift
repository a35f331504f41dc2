/// A pending timer as a snapshot document holds it, before it is checked against a machine:
/// an `after` transition's timer (`{"due": 90000, "after": "30s", "state": "red"}`) or a
/// delayed send (`{"due": 105000, "input": "cross", "sent_by": "requestCrossing", "timer":
/// "crossing"}`), its names not yet resolved.
package struct SavedTimer {
    /// `"due"`: when it is due, in milliseconds on the snapshot's clock.
    package let due: Int
    /// What scheduled it and what it fires.
    let kind: Kind
    /// The entry as compact JSON text, as saved (`smrun status --format json`).
    package let json: String

    /// What scheduled a saved timer.
    enum Kind {
        /// The `nth` (from 1) `after: DURATION` transition of `state` with that duration, in
        /// document order: `"after"`, `"state"` and, past the first, `"nth"`.
        case after(duration: String, state: String, nth: Int)
        /// A delayed send of `input`: `"input"`, `"arg"` when the input takes one, `"sent_by"`
        /// the effect that sent it (which a document must have), `"timer"` its id when it has
        /// one.
        case send(input: String, argument: JSONValue?, sentBy: String?, timer: String?)
    }

    /// The timer in words, for messages and `smrun status`: `after 30s of red`, `cross (sent
    /// by requestCrossing, timer crossing)`.
    package var label: String {
        switch kind {
        case .after(let duration, let state, let nth):
            return "after \(duration)\(nth > 1 ? " #\(nth)" : "") of \(state)"
        case .send(let input, let argument, let sentBy, let timer):
            var text = input
            if let argument { text += " \(argument.jsonText)" }
            var origin: [String] = []
            if let sentBy { origin.append("sent by \(sentBy)") }
            if let timer { origin.append("timer \(timer)") }
            return origin.isEmpty ? text : "\(text) (\(origin.joined(separator: ", ")))"
        }
    }
}

extension SavedSnapshot {
    /// Reads the `"clock"`, `"time"` and `"timers"` members, each optional: a snapshot of a
    /// machine without timers has none of them.
    static func readTimers(_ member: (String) -> JSONValue?) throws(SnapshotError) -> (
        clock: MachineSnapshot.Clock, time: Int, timers: [SavedTimer]
    ) {
        var clock = MachineSnapshot.Clock.virtual
        if let value = member("clock") {
            guard case .string(let name) = value, let named = MachineSnapshot.Clock(rawValue: name) else {
                throw SnapshotError(.invalidField, "\"clock\" must be \"virtual\" or \"real\", not \(value.jsonText.prefix(40))")
            }
            clock = named
        }
        var time = 0
        if let value = member("time") {
            guard clock == .virtual else {
                throw SnapshotError(.invalidField, "\"time\" is the virtual clock's; a snapshot on the real clock has none")
            }
            time = try milliseconds(value, of: "\"time\"")
        }
        var timers: [SavedTimer] = []
        if let value = member("timers") {
            guard case .array(let items) = value else {
                throw SnapshotError(.invalidField, "\"timers\" must be an array, not \(value.kind)")
            }
            for (index, item) in items.enumerated() {
                timers.append(try timer(item, at: index + 1))
            }
        }
        return (clock, time, timers)
    }

    /// One entry of `"timers"`, the `position`th (from 1).
    private static func timer(_ item: JSONValue, at position: Int) throws(SnapshotError) -> SavedTimer {
        let place = "timer \(position) in \"timers\""
        guard case .object(let members) = item else { throw SnapshotError(.invalidField, "\(place) must be an object, not \(item.kind)") }
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func string(_ key: String) throws(SnapshotError) -> String? {
            guard let value = member(key) else { return nil }
            guard case .string(let text) = value, !text.isEmpty else {
                throw SnapshotError(.invalidField, "\(place): \"\(key)\" must be a name, not \(value.kind)")
            }
            return text
        }
        guard let dueValue = member("due") else { throw SnapshotError(.invalidField, "\(place) has no \"due\"") }
        let due = try milliseconds(dueValue, of: "\(place): \"due\"")
        let kind: SavedTimer.Kind
        let known: [String]
        if let duration = try string("after") {
            known = ["due", "after", "state", "nth"]
            do {
                _ = try Delay(parsing: duration)
            } catch {
                throw SnapshotError(.invalidField, "\(place): \"after\" \(JSONText.quoted(duration)) is not a duration: \(error.message)")
            }
            guard let state = try string("state") else { throw SnapshotError(.invalidField, "\(place) has \"after\" but no \"state\"") }
            var nth = 1
            if let value = member("nth") {
                guard case .number(let text) = value, let number = Int(text), number >= 1 else {
                    throw SnapshotError(.invalidField, "\(place): \"nth\" must be an integer from 1, not \(value.jsonText.prefix(40))")
                }
                nth = number
            }
            kind = .after(duration: duration, state: state, nth: nth)
        } else if let input = try string("input") {
            known = ["due", "input", "arg", "sent_by", "timer"]
            kind = .send(input: input, argument: member("arg"), sentBy: try string("sent_by"), timer: try string("timer"))
        } else {
            throw SnapshotError(.invalidField, "\(place) needs \"after\" (an after transition's timer) or \"input\" (a delayed send)")
        }
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw SnapshotError(.invalidField, "\(place) has an unknown member \(JSONText.quoted(unknown.key))")
        }
        return SavedTimer(due: due, kind: kind, json: item.jsonText)
    }

    /// A time in milliseconds: an integer from 0.
    private static func milliseconds(_ value: JSONValue, of member: String) throws(SnapshotError) -> Int {
        guard case .number(let text) = value, let number = Int(text), number >= 0 else {
            throw SnapshotError(.invalidField, "\(member) must be a time in milliseconds, an integer from 0, not \(value.jsonText.prefix(40))")
        }
        return number
    }
}
