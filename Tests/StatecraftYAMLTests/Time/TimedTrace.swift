import Statecraft
import StatecraftYAML
import Testing

/// Runs a machine file's text with timers on the virtual clock, flat or statechart, over steps
/// that are input names or `@wait DURATION`, and records each result as a line:
/// `INPUT: FROM -> TO`, a timer's as `after 30s@30000: FROM -> TO` (the clock after `@`),
/// rejections as `INPUT: FROM: rejected: KIND`.
struct TimedTrace<Runner: MachineRunner>: ResultSink {
    var lines: [String] = []

    mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
        let machine = runner.machine
        var name = result.trigger == .start ? "start" : result.trigger == .eventless ? "(eventless)" : machine.inputNames[result.input]
        if result.isTimer { name += "@\(runner.time)" }
        let from = runner.statesText(before: true, of: result)
        switch result.outcome {
        case .accepted: lines.append("\(name): \(from) -> \(runner.statesText(before: false, of: result))")
        case .ignored: lines.append("\(name): \(from): ignored")
        case .rejected(let kind): lines.append("\(name): \(from): rejected: \(kind.rawValue)")
        }
    }
}

extension TimedTrace where Runner == TableRunner {
    /// Loads `yaml`, starts it and runs `steps`; the lines of every result.
    static func run(_ yaml: String, _ steps: [String], stepLimit: Int = RunLimits.defaultStepLimit, timerLimit: Int = RunLimits.defaultTimerLimit) throws -> [String] {
        let machine = try machine(yaml)
        return try machine.visitRunner(Run(machine: machine, steps: steps, stepLimit: stepLimit, timerLimit: timerLimit)).get()
    }

    /// ``run(_:_:stepLimit:timerLimit:)`` on the runner the machine's compiler chose.
    private struct Run: RunnerVisitor {
        let machine: CompiledMachine
        let steps: [String]
        let stepLimit: Int
        let timerLimit: Int

        func visit<Chosen: MachineRunner>(_ type: Chosen.Type) -> Result<[String], any Error> {
            Result {
                var runner = Chosen(machine, stepLimit: stepLimit, timerLimit: timerLimit)
                var trace = TimedTrace<Chosen>()
                runner.start(into: &trace)
                for step in steps {
                    if let wait = try TimedTrace.wait(step) {
                        runner.advance(to: runner.time + wait, into: &trace)
                    } else {
                        runner.send(try #require(machine.inputNames.firstIndex(of: step), "no input \(step)"), argument: .null, into: &trace)
                    }
                }
                return trace.lines
            }
        }
    }

    /// The milliseconds of `@wait DURATION`, or `nil` for an input.
    static func wait(_ step: String) throws -> Int? {
        guard step.hasPrefix("@wait ") else { return nil }
        return try Delay(parsing: String(step.dropFirst(6))).milliseconds
    }

    static func machine(_ yaml: String) throws -> CompiledMachine {
        let loaded = YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "test")
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)")
        return try #require(loaded.machine)
    }
}
