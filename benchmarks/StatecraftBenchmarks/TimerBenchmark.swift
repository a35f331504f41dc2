import Foundation
import Statecraft
import StatecraftYAML

/// Nanoseconds per timer of the flat engine's virtual clock, in-process: an input whose effect
/// schedules a delayed send of an hour, sent N times one millisecond apart (so that N timers are
/// pending at once, each due at its own time), then one wait that fires them all, each processed
/// as an input.
enum TimerBenchmark {
    struct Options {
        var timers = 1_000_000
        var runs = 3
    }

    static let machineText = """
        machine: timer-bench
        initial: a
        inputs: [arm, ring]
        states: [a]
        effects:
          schedule: { send: { input: ring, delay: 1h } }
        transitions:
          - arm  | a | schedule
          - ring | a
        """

    struct CountingSink: ResultSink {
        var results = 0
        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) { results &+= 1 }
    }

    static func run(_ options: Options) {
        let file = YAMLFile.load(bytes: Array(machineText.utf8), defaultName: "timer-bench")
        guard let machine = file.machine else { fail("the timer benchmark's machine does not load") }
        var scheduling: [Double] = []
        var firing: [Double] = []
        for _ in 0..<options.runs {
            var runner = TableRunner(machine, stepLimit: Int.max, timerLimit: options.timers)
            var sink = CountingSink()
            let start = nanoseconds()
            for _ in 0..<options.timers {
                runner.send(0, into: &sink)
                runner.advance(to: runner.time + 1, into: &sink)
            }
            let scheduled = nanoseconds()
            runner.advance(to: runner.time + 3_600_000, into: &sink)
            let fired = nanoseconds()
            guard sink.results == 2 * options.timers, runner.pendingTimerCount == 0 else {
                fail("timer benchmark: \(sink.results) results, \(runner.pendingTimerCount) timers left")
            }
            scheduling.append(Double(scheduled - start) / Double(options.timers))
            firing.append(Double(fired - scheduled) / Double(options.timers))
        }
        let n = options.timers.formatted()
        print("timers: \(n) scheduled (an input each, 1 ms apart) in ns per timer: best \(format(scheduling.min()!)), median \(format(median(scheduling)))")
        print("timers: \(n) fired by one wait, in ns per timer: best \(format(firing.min()!)), median \(format(median(firing)))")
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func format(_ value: Double) -> String { String(format: "%.0f", value) }
}
