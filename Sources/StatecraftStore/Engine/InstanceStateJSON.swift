import Statecraft

/// Where an instance is, as the API shows it in the instance object and in each history entry
/// (the state after the entry): `"state":NAME` for a flat machine, else
/// `"configuration":[NAMES],"history_states":{HISTORY:[NAMES]}`, then `,"context":{...}`.
package enum InstanceStateJSON {
    /// Appends the members for the active atomic states `configuration` (a flat machine's one
    /// state), the history records `histories` and the context's values `context` (the
    /// machine's variables first; any slots after them are the runner's own).
    package static func append(
        configuration: [Int], histories: [Int: [Int]], context: [Value], machine: CompiledMachine, isFlat: Bool, to out: inout [UInt8]
    ) {
        if isFlat {
            out.append(contentsOf: "\"state\":".utf8)
            JSONText.appendQuoted(machine.stateNames[configuration[0]], to: &out)
        } else {
            out.append(contentsOf: "\"configuration\":".utf8)
            names(configuration, machine, &out)
            out.append(contentsOf: ",\"history_states\":{".utf8)
            for (index, history) in histories.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(machine.stateNames[history], to: &out)
                out.append(UInt8(ascii: ":"))
                names(histories[history] ?? [], machine, &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: ",\"context\":{".utf8)
        for (slot, name) in machine.variableNames.enumerated() {
            if slot > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            SnapshotCodec.append(context[slot], to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func names(_ states: [Int], _ machine: CompiledMachine, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, state) in states.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(machine.stateNames[state], to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
