import Foundation
import Statecraft
import StatecraftYAML

/// Nanoseconds per transition of the engine, in-process: the machine is loaded from its file,
/// the inputs are a pre-built walk over it (ids and typed arguments, nothing left to parse),
/// and the sink that receives the results only counts them.
///
/// Each case runs `transitions` inputs a run, `runs` times, the cases interleaved; every run
/// starts from a fresh runner, so each prints the same checksum. With `malloc_count.so`
/// preloaded, it also counts heap allocations in the timed loop.
enum EngineBenchmark {
    struct Options {
        var machinePath = "machines/self-driving-car.yaml"
        var transitions = 10_000_000
        var runs = 5
        /// Inputs in the walk replayed over and over; it starts and ends in one state.
        var walkLength = 4096
        /// Share of the walk's inputs that have no transition from the state they are sent in.
        var rejectedShare = 0.05
        var seed: UInt64 = 1
        /// When set, only the cases whose name contains it run.
        var caseFilter: String?
    }

    /// One input of the walk, as a caller holds it: the input's id and its typed argument.
    struct Step {
        var input: Int
        var argument: Value
    }

    struct Case {
        var name: String
        var machine: CompiledMachine
        /// Runs the walk on a fresh runner, returning the checksum of what its sink saw.
        var run: (CompiledMachine, Walk, Int) -> Checksum
    }

    struct Walk {
        /// Sent once, untimed, to leave the initial state (which the car never comes back to).
        var prefix: [Step]
        /// Replayed: it ends in the state it starts from.
        var cycle: [Step]
    }

    /// What a sink counted, and where the machine ended: equal for every run of a case.
    struct Checksum: Equatable {
        var results = 0
        var accepted = 0
        /// The sum of the target states of accepted results.
        var targets = 0
        var finalState = -1

        var text: String { "\(results)/\(accepted)/\(targets)/\(finalState)" }
    }

    static func run(_ options: Options) {
        let file = YAMLFile.load(path: options.machinePath)
        guard let withEffects = file.machine else {
            fail("\(options.machinePath) does not load: \(file.diagnostics.map(\.description).joined(separator: "; "))")
        }
        let withoutEffects = machineWithoutContextEffects(options.machinePath)
        let walk = makeWalk(withEffects, options)
        let cycles = max(1, options.transitions / walk.cycle.count)
        let transitions = cycles * walk.cycle.count

        let allCases = [
            Case(name: "file-loaded machine, counting sink", machine: withEffects, run: countingRun),
            Case(name: "file-loaded, no context effects, counting sink", machine: withoutEffects, run: countingRun),
            Case(name: "file-loaded, one observer (closure sink)", machine: withEffects, run: observerRun),
            Case(name: "typed API, enum states (Jester's car)", machine: withEffects, run: TypedBenchmark.run),
            Case(name: "typed API, owned machine (Jester's car)", machine: withEffects, run: TypedBenchmark.runOwned),
        ]
        let cases = allCases.filter { options.caseFilter.map($0.name.contains) ?? true }
        if cases.isEmpty { fail("no case's name contains '\(options.caseFilter ?? "")'") }

        let counter = AllocationCounter()
        say(
            "engine: \(machineName(options.machinePath)), \(grouped(transitions)) transitions a run (a \(walk.cycle.count)-input walk, "
                + "\(Int(options.rejectedShare * 100))% without a transition, replayed), median of \(options.runs) runs, cases interleaved")
        var nanosecondsPerTransition = [[Double]](repeating: [], count: cases.count)
        var allocations = [UInt](repeating: 0, count: cases.count)
        var checksums = [Checksum?](repeating: nil, count: cases.count)
        for _ in 0..<options.runs {
            for (index, benchmark) in cases.enumerated() {
                let allocationsBefore = counter.count
                let start = nanoseconds()
                let checksum = benchmark.run(benchmark.machine, walk, cycles)
                let elapsed = nanoseconds() - start
                allocations[index] = max(allocations[index], counter.count - allocationsBefore)
                nanosecondsPerTransition[index].append(Double(elapsed) / Double(transitions))
                if let first = checksums[index], first != checksum {
                    fail("\(benchmark.name): checksum \(checksum.text) differs from the first run's \(first.text)")
                }
                checksums[index] = checksum
            }
        }

        let width = cases.map(\.name.count).max()! + 2
        say(
            padded("case", width) + "ns/transition      min      max  vs first  allocs/transition  checksum (results/accepted/targets/state)")
        let first = median(nanosecondsPerTransition[0])
        for (index, benchmark) in cases.enumerated() {
            let times = nanosecondsPerTransition[index]
            let perTransition =
                counter.isAvailable ? format(Double(allocations[index]) / Double(transitions), decimals: 4) : "n/a"
            say(
                padded(benchmark.name, width) + padded(format(median(times), decimals: 2), 13, right: true)
                    + padded(format(times.min()!, decimals: 2), 9, right: true)
                    + padded(format(times.max()!, decimals: 2), 9, right: true)
                    + padded(format(median(times) / first, decimals: 2) + "x", 10, right: true)
                    + padded(perTransition, 19, right: true) + "  " + checksums[index]!.text)
        }
        if counter.isAvailable {
            say("(allocations: the most over one run's timed loop, divided by its transitions; the target is 0)")
        } else {
            say("(allocations not counted: run with LD_PRELOAD=benchmarks/.work/malloc_count.so to count them)")
        }
    }

    // MARK: Cases

    /// A sink that only counts.
    struct CountingSink: ResultSink {
        var checksum = Checksum()

        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
            checksum.results &+= 1
            if result.isAccepted {
                checksum.accepted &+= 1
                checksum.targets &+= result.to
            }
        }
    }

    /// One observer: a sink that hands every result to a closure.
    struct ObserverSink: ResultSink {
        let observer: (TransitionResult) -> Void

        mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
            observer(result)
        }
    }

    final class Tally {
        var checksum = Checksum()
    }

    @inline(never)
    static func countingRun(_ machine: CompiledMachine, _ walk: Walk, _ cycles: Int) -> Checksum {
        var sink = CountingSink()
        var runner = startedRunner(machine, walk, &sink)
        replay(walk.cycle, cycles, &runner, &sink)
        sink.checksum.finalState = runner.state
        return sink.checksum
    }

    @inline(never)
    static func observerRun(_ machine: CompiledMachine, _ walk: Walk, _ cycles: Int) -> Checksum {
        let tally = Tally()
        var sink = ObserverSink { result in
            tally.checksum.results &+= 1
            if result.isAccepted {
                tally.checksum.accepted &+= 1
                tally.checksum.targets &+= result.to
            }
        }
        var runner = startedRunner(machine, walk, &sink)
        replay(walk.cycle, cycles, &runner, &sink)
        tally.checksum.finalState = runner.state
        return tally.checksum
    }

    /// A runner that has started and taken the walk's prefix; the sink's counts start at zero.
    private static func startedRunner<Sink: ResultSink<TableRunner>>(_ machine: CompiledMachine, _ walk: Walk, _ sink: inout Sink) -> TableRunner {
        var runner = TableRunner(machine)
        var ignored = CountingSink()
        runner.start(into: &ignored)
        for step in walk.prefix { runner.send(step.input, argument: step.argument, into: &ignored) }
        return runner
    }

    /// The timed loop.
    @inline(never)
    private static func replay<Sink: ResultSink<TableRunner>>(_ cycle: [Step], _ cycles: Int, _ runner: inout TableRunner, _ sink: inout Sink) {
        for _ in 0..<cycles {
            for step in cycle {
                runner.send(step.input, argument: step.argument, into: &sink)
            }
        }
    }

    // MARK: Set-up

    /// The machine file without its `context` and `effects` sections: the same states and
    /// transitions, the effects left as hooks without bodies.
    static func machineWithoutContextEffects(_ path: String) -> CompiledMachine {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
        var kept: [Substring] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", first != "#" {
                skipping = line.hasPrefix("context:") || line.hasPrefix("effects:")
            }
            if !skipping { kept.append(line) }
        }
        let loaded = YAMLFile.load(bytes: Array(kept.joined(separator: "\n").utf8), defaultName: machineName(path))
        guard let machine = loaded.machine, !machine.hasContext, !machine.effects.contains(where: \.hasBody) else {
            fail("\(path) without 'context' and 'effects' does not load as a machine without context effects: "
                + loaded.diagnostics.map(\.description).joined(separator: "; "))
        }
        return machine
    }

    /// A random walk over `machine`, simulated with a runner: mostly inputs that have a
    /// transition from the current state, `rejectedShare` of them inputs that have none.
    static func makeWalk(_ machine: CompiledMachine, _ options: Options) -> Walk {
        var random = SplitMix64(seed: options.seed)
        var runner = TableRunner(machine)
        var sink = CountingSink()
        runner.start(into: &sink)

        func step(rejecting: Bool = true) -> Step {
            let state = runner.state
            let handled = (0..<machine.inputCount).filter { !machine.candidates(state: state, input: $0).isEmpty }
            let unhandled = (0..<machine.inputCount).filter { machine.candidates(state: state, input: $0).isEmpty }
            let reject = rejecting && Double.random(in: 0..<1, using: &random) < options.rejectedShare
            let pool = (reject && !unhandled.isEmpty) || handled.isEmpty ? unhandled : handled
            let input = pool.randomElement(using: &random)!
            let argument: Value
            switch machine.argumentTypes[input] {
            case nil: argument = .null
            case .int?: argument = .int(Int.random(in: 0...7, using: &random))
            case .double?: argument = .double(Double(Int.random(in: 0...100, using: &random)) / 4)
            case .bool?: argument = .bool(Bool.random(using: &random))
            case .string?, .null?, .list?, .record?: argument = .string(["The Witches Brew", "Jester's Garage", "Main Street", "Airport", "Pier 39"].randomElement(using: &random)!)
            }
            runner.send(input, argument: argument, into: &sink)
            return Step(input: input, argument: argument)
        }

        var prefix = [step(rejecting: false)]
        while runner.state == machine.initialState && prefix.count < 100 { prefix.append(step(rejecting: false)) }
        let home = runner.state
        var cycle: [Step] = []
        while cycle.count < options.walkLength || runner.state != home {
            cycle.append(step())
            if cycle.count > options.walkLength * 64 { fail("the walk does not come back to state \(machine.stateNames[home])") }
        }
        return Walk(prefix: prefix, cycle: cycle)
    }

    static func machineName(_ path: String) -> String {
        String((path.split(separator: "/").last ?? Substring(path)).split(separator: ".").first ?? "")
    }
}

/// A small, fixed-seed random number generator (SplitMix64), so that every run builds the same walk.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
