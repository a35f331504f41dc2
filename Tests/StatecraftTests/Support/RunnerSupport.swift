import Testing

@testable import Statecraft

/// A sink that keeps every result with the state and context after it.
struct Recorder: ResultSink {
    struct Entry {
        var result: TransitionResult
        var state: String
        var context: [Value]
        var effects: [String]
    }

    var entries: [Entry] = []

    mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
        let machine = runner.machine
        entries.append(
            Entry(
                result: result, state: machine.stateNames[runner.state], context: runner.context,
                effects: machine.effectsRun(by: result).map { machine.effectNames[$0] }))
    }

    /// `input:outcome` per result, e.g. `go:accepted`, `stop:no-transition`.
    var outcomes: [String] {
        entries.map { entry in
            let name = entry.result.isStart ? "start" : entry.result.input >= 0 ? "\(entry.result.input)" : "?"
            switch entry.result.outcome {
            case .accepted: return "\(name):accepted"
            case .ignored: return "\(name):ignored"
            case .rejected(let kind): return "\(name):\(kind.rawValue)"
            }
        }
    }
}

func compile(_ definition: MachineDefinition) throws -> CompiledMachine {
    let output = MachineCompiler.compile(definition)
    #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
    return try #require(output.machine)
}

extension TableRunner {
    mutating func send(_ name: String, _ argument: Value = .null, into recorder: inout Recorder) {
        send(machine.inputNames.firstIndex(of: name)!, argument: argument, into: &recorder)
    }
}
