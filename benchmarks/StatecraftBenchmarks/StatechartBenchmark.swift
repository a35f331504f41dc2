import Foundation
import Statecraft
import StatecraftYAML

/// Nanoseconds per input of the statechart engine (``ChartRunner``), in-process: a machine with
/// parallel regions, history and eventless transitions (default `benchmarks/statechart/player.yaml`),
/// driven by a fixed-seed random walk of its inputs (ids, nothing to parse), replayed; the sink counts
/// results. With `malloc_count.so` preloaded, it also counts heap allocations in the timed loop
/// after a first, untimed pass over the walk has grown the runner's buffers.
enum StatechartBenchmark {
    struct Options {
        var machinePath = "benchmarks/statechart/player.yaml"
        var inputs = 1_000_000
        var runs = 5
        var walkLength = 4096
    }

    /// Counts results and accepted ones, and sums the active atomic states' ids after each.
    struct CountingSink: ResultSink {
        var results = 0
        var accepted = 0

        mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
            results &+= 1
            if result.isAccepted { accepted &+= 1 }
        }
    }

    static func run(_ options: Options) {
        let file = YAMLFile.load(path: options.machinePath)
        guard let machine = file.machine, machine.isStatechart else {
            fail("\(options.machinePath) does not load as a statechart: \(file.diagnostics.map(\.description).joined(separator: "; "))")
        }
        var random = SplitMix64(seed: 1)  // the same walk in every run and every build, to compare them
        let walk = (0..<options.walkLength).map { _ in Int.random(in: 0..<machine.inputCount, using: &random) }
        let counter = AllocationCounter()
        var perInput: [Double] = []
        var allocations: UInt = 0
        var accepted = 0
        for _ in 0..<options.runs {
            var runner = ChartRunner(machine)
            var sink = CountingSink()
            runner.start(into: &sink)
            for input in walk { runner.send(input, into: &sink) }
            let cycles = max(1, options.inputs / walk.count)
            let allocationsBefore = counter.count
            let start = nanoseconds()
            for _ in 0..<cycles {
                for input in walk { runner.send(input, into: &sink) }
            }
            let elapsed = nanoseconds() - start
            allocations = max(allocations, counter.count - allocationsBefore)
            perInput.append(Double(elapsed) / Double(cycles * walk.count))
            accepted = sink.accepted
        }
        print(
            "statechart engine, \(options.machinePath): \(format(median(perInput), decimals: 1)) ns per input "
                + "(median of \(options.runs) runs of \(options.inputs) random inputs; \(accepted) accepted in the last), "
                + (counter.isAvailable ? "\(allocations) allocations in the timed loop" : "allocations not counted"))
    }
}
