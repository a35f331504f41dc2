import SmrunCore
import Statecraft

/// Writes `smrun paths`' output: each path replayed on the engine, then printed as a script or
/// as a scenario of a scenario file; what no path reaches, as comments at the end.
struct PathsPrinter {
    let machine: CompiledMachine
    let format: PathsFormat
    /// Whether expectations name the whole configuration (`states:`): a statechart with nested
    /// states.
    private let expectsConfigurations: Bool
    private(set) var text = ""
    private var notes: [String] = []

    init(machine: CompiledMachine, machinePath: String, format: PathsFormat) {
        self.machine = machine
        self.format = format
        expectsConfigurations = machine.chart?.tree.parents.contains(where: { $0 >= 0 }) ?? false
        if format == .test {
            let name = machinePath.split(separator: "/").last.map(String.init) ?? machinePath
            text = "# Shortest paths to every state and transition of \(machinePath), from smrun paths.\n"
            text += "# Save beside the machine as NAME.test.yaml and run it with smrun test.\n"
            text += "machine: \(Self.yaml(name))\nscenarios:\n"
        }
    }

    /// Adds the path to `state` if replaying it enters the state; false otherwise.
    mutating func addState(_ state: Int, path: [MachinePaths.Step]) -> Bool {
        let replay = PathReplay(path, on: machine)
        guard replay.enters(state) else { return false }
        add("to \(machine.stateNames[state])", path, replay)
        return true
    }

    /// Adds the path to `transition` if replaying it takes the transition; false otherwise.
    mutating func addTransition(_ transition: Int, path: [MachinePaths.Step]) -> Bool {
        let replay = PathReplay(path, on: machine)
        guard replay.takes(transition) else { return false }
        add("to \(describe(transition))", path, replay, refusesLastStep: machine.transitions[transition].refusal != nil)
        return true
    }

    mutating func addUnreachable(_ state: Int, why: String) {
        notes.append("# unreachable: \(machine.stateNames[state]): \(why)\n")
    }

    mutating func addUntaken(_ transition: Int) {
        notes.append("# no path takes \(describe(transition))\n")
    }

    /// The whole output.
    var finished: String { text + notes.joined() }

    /// Adds a path; `refusesLastStep`: its last step selects a refusal (`reject:`), which the
    /// scenario expects (`ok: false, error: refused`).
    private mutating func add(_ title: String, _ path: [MachinePaths.Step], _ replay: PathReplay, refusesLastStep: Bool = false) {
        switch format {
        case .script:
            text += "# \(title)\n"
            for step in path { text += script(step) + "\n" }
        case .test:
            text += "  - name: \(Self.yaml(title))\n    steps:\n"
            if path.isEmpty { text += "      - expect: { \(expectation(replay.statesAtStart)) }\n" }
            for (index, (step, states)) in zip(path, replay.statesAfter).enumerated() {
                if step.isWait {
                    text += "      - wait: \(step.waitText)\n"
                } else {
                    let input = Self.yaml(machine.inputNames[step.input])
                    let send = machine.argumentTypes[step.input] == nil ? input : "{ input: \(input), arg: \(step.argument) }"
                    text += "      - send: \(send)\n"
                }
                let refused = refusesLastStep && index == path.count - 1 ? "ok: false, error: refused, " : ""
                text += "        expect: { \(refused)\(expectation(states)) }\n"
            }
        }
    }

    /// `state: NAME`, or a statechart's `states: [A, B]`.
    private func expectation(_ states: [Int]) -> String {
        let names = states.map { Self.yaml(machine.stateNames[$0]) }
        return expectsConfigurations ? "states: [\(names.joined(separator: ", "))]" : "state: \(names[0])"
    }

    /// `INPUT`, `INPUT ARG` or `@wait DURATION`, a line of an input script.
    private func script(_ step: MachinePaths.Step) -> String {
        if step.isWait { return "\(ScriptLineParser.waitDirective) \(step.waitText)" }
        let input = machine.inputNames[step.input]
        return machine.argumentTypes[step.input] == nil ? input : "\(input) \(step.argument)"
    }

    /// `line 23: open | closed => opened`.
    private func describe(_ id: Int) -> String {
        "line \(machine.transitions[id].position.line): " + TransitionText.row(id, of: machine)
    }

    /// A name or title as a YAML scalar: plain when it reads back as the same string, else JSON-quoted.
    static func yaml(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == " " || $0 == "." }
            && !text.hasPrefix("-") && !text.hasPrefix(" ") && !text.hasSuffix(" ") && text.first.map { !$0.isNumber } == true
            && !["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"].contains(text.lowercased())
        return plain ? text : JSONText.quoted(text)
    }
}
