import SmrunCore
import Statecraft
import StatecraftStore

/// How the API shows an instance, a history entry and a page of them.
enum InstanceJSON {
    /// The instance object: `machine`, `key`, `kind`, `state` (flat) or `configuration` and
    /// `history_states` (statechart), `context`, `timers`, `clock` (and `now`, on a virtual
    /// clock), `version`, `fingerprint`, `status`, `created`, `updated`. Timers are due at a
    /// time on the real clock, and at milliseconds of the instance's own on a virtual one.
    static func instance(_ stored: StoredInstance, snapshot: MachineSnapshot, runtime: MachineRuntime, clock: MachineSnapshot.Clock) -> String {
        let machine = runtime.machine
        var out: [UInt8] = []
        out.reserveCapacity(512 + stored.snapshot.count)
        out.append(contentsOf: "{\"machine\":".utf8)
        string(stored.id.machine, &out)
        out.append(contentsOf: ",\"key\":".utf8)
        string(stored.id.key, &out)
        out.append(contentsOf: ",\"kind\":\"\(runtime.kind)\"".utf8)
        if runtime.kind == "flat" {
            out.append(contentsOf: ",\"state\":".utf8)
            string(machine.stateNames[snapshot.state], &out)
        } else {
            out.append(contentsOf: ",\"configuration\":".utf8)
            names(snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration, machine, &out)
            out.append(contentsOf: ",\"history_states\":{".utf8)
            for (index, history) in snapshot.histories.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                string(machine.stateNames[history], &out)
                out.append(UInt8(ascii: ":"))
                names(snapshot.histories[history] ?? [], machine, &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: ",\"context\":{".utf8)
        for (slot, name) in machine.variableNames.enumerated() {
            if slot > 0 { out.append(UInt8(ascii: ",")) }
            string(name, &out)
            out.append(UInt8(ascii: ":"))
            SnapshotCodec.append(snapshot.context[slot], to: &out)
        }
        out.append(contentsOf: "},\"timers\":[".utf8)
        for (index, timer) in snapshot.timers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            runtime.codec.appendTimer(timer, due: clock == .real ? DueTime.utc(timer.due) : nil, compact: true, to: &out)
        }
        out.append(contentsOf: "],\"clock\":\"\(clock.rawValue)\"".utf8)
        // A machine without timers keeps no time: its clock stays at 0.
        if clock == .virtual { out.append(contentsOf: ",\"now\":\(snapshot.time)".utf8) }
        out.append(contentsOf: ",\"version\":\(stored.version),\"fingerprint\":".utf8)
        string(stored.fingerprint, &out)
        out.append(contentsOf: ",\"status\":\"\(stored.status.rawValue)\",\"created\":\"\(DueTime.utc(stored.created))\",\"updated\":\"\(DueTime.utc(stored.updated))\"}".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// A history entry: `seq`, `at`, `start`, `input`, `arg`, `timer`, `results`; with
    /// `identified`, `machine` and `key` first (the events feeds).
    static func entry(_ entry: HistoryEntry, identified: Bool = false) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(128 + entry.results.utf8.count)
        if identified {
            out.append(contentsOf: "\"machine\":".utf8)
            string(entry.id.machine, &out)
            out.append(contentsOf: ",\"key\":".utf8)
            string(entry.id.key, &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: "\"seq\":\(entry.seq),\"at\":\"\(DueTime.utc(entry.at))\",\"start\":\(entry.kind == .start),\"input\":".utf8)
        if let input = entry.input { string(input, &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: ",\"arg\":\(entry.argument ?? "null"),\"timer\":\(entry.timer ?? "null"),\"results\":\(entry.results)}".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    static func string(_ text: String, _ out: inout [UInt8]) {
        JSONText.appendQuoted(text, to: &out)
    }

    private static func names(_ states: [Int], _ machine: CompiledMachine, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, state) in states.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(machine.stateNames[state], &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
