import Statecraft
import StatecraftYAML
import Testing

/// Runs a statechart written as machine-file text on ``ChartRunner`` and records each result
/// as a line: `INPUT: FROM -> TO / EFFECTS`, queued inputs, done events and eventless
/// microsteps indented, rejections as `INPUT: FROM: rejected: KIND`.
struct ChartTrace: ResultSink {
    var lines: [String] = []

    mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
        let machine = runner.machine
        var line = result.isFollowUp ? "  " : ""
        switch result.trigger {
        case .start: line += "start"
        case .eventless: line += "(eventless)"
        default: line += machine.inputNames[result.input]
        }
        let from = runner.configurationText(runner.previousConfiguration)
        switch result.outcome {
        case .accepted:
            line += ": \(result.trigger == .start ? "" : from + " ")-> \(runner.configurationText(runner.configuration))"
            if !runner.effectsRun.isEmpty { line += " / " + runner.effectsRun.map { machine.effectNames[Int($0)] }.joined(separator: ", ") }
        case .ignored: line += ": \(from): ignored"
        case .rejected(let kind): line += ": \(from): rejected: \(kind.rawValue)"
        }
        lines.append(line)
    }

    /// Loads `yaml`, which must compile, starts it and sends `inputs` (names without arguments).
    static func run(_ yaml: String, _ inputs: [String], stepLimit: Int = RunLimits.defaultStepLimit) throws -> [String] {
        var runner = try ChartRunner(machine(yaml), stepLimit: stepLimit)
        var trace = ChartTrace()
        runner.start(into: &trace)
        for input in inputs {
            let id = try #require(runner.machine.inputNames.firstIndex(of: input), "no input \(input)")
            runner.send(id, into: &trace)
        }
        return trace.lines
    }

    static func machine(_ yaml: String) throws -> CompiledMachine {
        let loaded = YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "test")
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)")
        return try #require(loaded.machine)
    }

    /// The diagnostics of `yaml` as `LINE:COL CODE: MESSAGE`.
    static func diagnostics(_ yaml: String) -> [String] {
        YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "test").diagnostics.map {
            "\($0.position.map { "\($0)" } ?? "-") \($0.code.rawValue): \($0.message)"
        }
    }
}
