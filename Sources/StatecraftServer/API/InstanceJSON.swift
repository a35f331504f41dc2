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
        var out: [UInt8] = []
        append(stored, snapshot: snapshot, runtime: runtime, clock: clock, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the instance object (``instance(_:snapshot:runtime:clock:)``) to `out`.
    static func append(_ stored: StoredInstance, snapshot: MachineSnapshot, runtime: MachineRuntime, clock: MachineSnapshot.Clock, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + 512 + stored.snapshot.count)
        out.append(contentsOf: "{\"machine\":".utf8)
        string(stored.id.machine, &out)
        out.append(contentsOf: ",\"key\":".utf8)
        string(stored.id.key, &out)
        // Appended piece by piece, not interpolated: the writer builds one for every input.
        out.append(contentsOf: ",\"kind\":\"".utf8)
        out.append(contentsOf: runtime.kind.utf8)
        out.append(contentsOf: "\",".utf8)
        InstanceStateJSON.append(
            configuration: snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration, histories: snapshot.histories,
            context: snapshot.context, machine: runtime.machine, isFlat: runtime.kind == "flat", to: &out)
        out.append(contentsOf: ",\"timers\":[".utf8)
        for (index, timer) in snapshot.timers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            runtime.codec.appendTimer(timer, due: clock == .real ? DueTime.utc(timer.due) : nil, compact: true, to: &out)
        }
        out.append(contentsOf: "],\"clock\":\"".utf8)
        out.append(contentsOf: clock.rawValue.utf8)
        out.append(UInt8(ascii: "\""))
        // A machine without timers keeps no time: its clock stays at 0.
        if clock == .virtual {
            out.append(contentsOf: ",\"now\":".utf8)
            out.append(contentsOf: String(snapshot.time).utf8)
        }
        out.append(contentsOf: ",\"version\":".utf8)
        out.append(contentsOf: String(stored.version).utf8)
        out.append(contentsOf: ",\"fingerprint\":".utf8)
        string(stored.fingerprint, &out)
        out.append(contentsOf: ",\"status\":\"".utf8)
        out.append(contentsOf: stored.status.rawValue.utf8)
        out.append(contentsOf: "\",\"created\":\"".utf8)
        out.append(contentsOf: DueTime.utc(stored.created).utf8)
        out.append(contentsOf: "\",\"updated\":\"".utf8)
        out.append(contentsOf: DueTime.utc(stored.updated).utf8)
        out.append(contentsOf: "\"}".utf8)
    }

    /// A history entry: `seq`, `at`, `start`, `input`, `arg`, `timer`, `results`, then the
    /// instance after it (``HistoryEntry/stateAfter``: `status`, `state` or `configuration` and
    /// `history_states`, `context`, `transitions`); with `identified`, `machine` and `key`
    /// first (the events feeds).
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
        out.append(contentsOf: ",\"arg\":\(entry.argument ?? "null"),\"timer\":\(entry.timer ?? "null"),\"results\":\(entry.results),".utf8)
        out.append(contentsOf: (entry.stateAfter ?? Self.unrecordedStateAfter).utf8)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `[{"name","arg"}]`: the inputs a client may send, `arg` the argument's type or null.
    static func inputs(of machine: CompiledMachine, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, input) in machine.externalInputs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            openInput(input, of: machine, &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `GET .../inputs`: per input a client may send, `{"name","arg","enabled","reason"}`.
    static func availableInputs(_ available: AvailableInputs) -> [UInt8] {
        let machine = available.machine
        let hasTransition = available.hasTransition
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, input) in machine.externalInputs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            openInput(input, of: machine, &out)
            if available.isFinished {
                out.append(contentsOf: ",\"enabled\":false,\"reason\":\"the instance has finished\"}".utf8)
            } else if hasTransition[input] {
                out.append(contentsOf: ",\"enabled\":true,\"reason\":null}".utf8)
            } else {
                out.append(contentsOf: ",\"enabled\":false,\"reason\":".utf8)
                string(available.noTransitionReason(input), &out)
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `{"name":…,"arg":…` of an input, `arg` its argument's type or null; the caller closes it.
    private static func openInput(_ input: Int, of machine: CompiledMachine, _ out: inout [UInt8]) {
        out.append(contentsOf: "{\"name\":".utf8)
        string(machine.inputNames[input], &out)
        out.append(contentsOf: ",\"arg\":".utf8)
        if let type = machine.argumentTypes[input] { string("\(type)", &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// The state after an entry stored before the store kept it: every member null.
    static let unrecordedStateAfter =
        "\"status\":null,\"state\":null,\"configuration\":null,\"history_states\":null,\"context\":null,\"transitions\":null"

    static func string(_ text: String, _ out: inout [UInt8]) {
        JSONText.appendQuoted(text, to: &out)
    }
}
