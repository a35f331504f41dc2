import Statecraft
import StatecraftYAML
import Testing

/// Runs a machine file's text with timers on the virtual clock, flat or statechart, over steps
/// that are input names or `@wait DURATION`, and records each result as a line:
/// `INPUT: FROM -> TO`, a timer's as `after 30s@30000: FROM -> TO` (the clock after `@`),
/// rejections as `INPUT: FROM: rejected: KIND`.
struct TimedTrace: ResultSink, ChartResultSink {
    var lines: [String] = []

    mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
        let machine = runner.machine
        var name = result.isStart ? "start" : machine.inputNames[result.input]
        if result.isTimer { name += "@\(runner.time)" }
        let from = machine.stateNames[result.from]
        switch result.outcome {
        case .accepted(let to): lines.append("\(name): \(from) -> \(machine.stateNames[to])")
        case .ignored: lines.append("\(name): \(from): ignored")
        case .rejected(let kind): lines.append("\(name): \(from): rejected: \(kind.rawValue)")
        }
    }

    mutating func receive(_ result: ChartResult, from runner: borrowing ChartRunner) {
        let machine = runner.machine
        var name = result.trigger == .start ? "start" : result.trigger == .eventless ? "(eventless)" : machine.inputNames[result.input]
        if result.isTimer { name += "@\(runner.time)" }
        let from = runner.configurationText(runner.previousConfiguration)
        switch result.outcome {
        case .accepted: lines.append("\(name): \(from) -> \(runner.configurationText(runner.configuration))")
        case .ignored: lines.append("\(name): \(from): ignored")
        case .rejected(let kind): lines.append("\(name): \(from): rejected: \(kind.rawValue)")
        }
    }

    /// Loads `yaml`, starts it and runs `steps`; the lines of every result.
    static func run(_ yaml: String, _ steps: [String], stepLimit: Int = Runner.defaultStepLimit, timerLimit: Int = Runner.defaultTimerLimit) throws -> [String] {
        let machine = try machine(yaml)
        var trace = TimedTrace()
        if machine.isStatechart {
            var runner = ChartRunner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
            runner.start(into: &trace)
            for step in steps {
                if let wait = try Self.wait(step) {
                    runner.advance(to: runner.time + wait, into: &trace)
                } else {
                    runner.send(try #require(machine.inputNames.firstIndex(of: step), "no input \(step)"), into: &trace)
                }
            }
        } else {
            var runner = Runner(machine, stepLimit: stepLimit, timerLimit: timerLimit)
            runner.start(into: &trace)
            for step in steps {
                if let wait = try Self.wait(step) {
                    runner.advance(to: runner.time + wait, into: &trace)
                } else {
                    runner.send(try #require(machine.inputNames.firstIndex(of: step), "no input \(step)"), into: &trace)
                }
            }
        }
        return trace.lines
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
