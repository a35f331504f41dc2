import Statecraft
import StatecraftStore

/// How the API shows a definition (`GET /machines/{m}/definitions/{fingerprint}`): what a page
/// needs to read its diagram and an instance's history against it.
enum DefinitionJSON {
    /// `{"machine","fingerprint","kind","states":[{"name","parent","kind"}],
    /// "transitions":[{"n","input","after","from","to"}],"inputs":[{"name","arg"}]}`: states by id,
    /// transitions in file order (`n` is the index history entries and diagrams use).
    static func definition(_ runtime: MachineRuntime) -> [UInt8] {
        let machine = runtime.machine
        var out: [UInt8] = Array("{\"machine\":".utf8)
        InstanceJSON.string(machine.name, &out)
        out.append(contentsOf: ",\"fingerprint\":".utf8)
        InstanceJSON.string(runtime.fingerprint, &out)
        out.append(contentsOf: ",\"kind\":\"\(runtime.kind)\",\"states\":[".utf8)
        let tree = machine.chart?.tree
        for state in machine.stateNames.indices {
            if state > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "{\"name\":".utf8)
            InstanceJSON.string(machine.stateNames[state], &out)
            out.append(contentsOf: ",\"parent\":".utf8)
            if let parent = tree.map({ Int($0.parents[state]) }), parent >= 0 {
                InstanceJSON.string(machine.stateNames[parent], &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: ",\"kind\":\"\(kind(of: state, machine))\"}".utf8)
        }
        out.append(contentsOf: "],\"transitions\":[".utf8)
        for (n, transition) in machine.transitions.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "{\"n\":\(n),\"input\":".utf8)
            let after = transition.input >= 0 ? machine.timers?.afterTexts[transition.input] ?? nil : nil
            if transition.input >= 0 && after == nil {
                InstanceJSON.string(machine.inputNames[transition.input], &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: ",\"after\":".utf8)
            if let after { InstanceJSON.string(after, &out) } else { out.append(contentsOf: "null".utf8) }
            out.append(contentsOf: ",\"from\":".utf8)
            names(transition.sources, machine, &out)
            out.append(contentsOf: ",\"to\":".utf8)
            names(transition.targets, machine, &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "],\"inputs\":".utf8)
        InstanceJSON.inputs(of: machine, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `atomic`, `compound`, `parallel`, `final` or `history`.
    private static func kind(of state: Int, _ machine: CompiledMachine) -> String {
        if machine.isFinal[state] { return "final" }
        guard let tree = machine.chart?.tree else { return "atomic" }
        switch tree.kinds[state] {
        case .atomic: return "atomic"
        case .compound: return "compound"
        case .parallel: return "parallel"
        case .shallowHistory, .deepHistory: return "history"
        }
    }

    private static func names(_ states: [Int], _ machine: CompiledMachine, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, state) in states.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            InstanceJSON.string(machine.stateNames[state], &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
