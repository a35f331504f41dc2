// StatecraftBenchmarks: the in-process benchmarks that `make bench` runs (benchmarks/bench.sh).
//
//   StatecraftBenchmarks engine [MACHINE] [--transitions N] [--runs N] [--case TEXT]
//       Nanoseconds per transition of a file-loaded machine (default
//       machines/self-driving-car.yaml), with and without its context effects and with one
//       observer, and of the typed API; allocations per transition when
//       benchmarks/.work/malloc_count.so is preloaded. `--case` runs only the cases whose name
//       contains TEXT (for a short run, or one under callgrind).
//   StatecraftBenchmarks statechart [MACHINE] [--inputs N]
//       Nanoseconds per input of the statechart engine on a machine with parallel regions,
//       history and eventless transitions (default benchmarks/statechart/player.yaml).
//   StatecraftBenchmarks timers [--timers N]
//       Nanoseconds per timer of the virtual clock: N delayed sends scheduled, then fired by one
//       wait (default 1,000,000).
//   StatecraftBenchmarks load FILE [--timeout SECONDS]
//       One in-process YAMLFile.load of FILE: `wall user sys peak-RSS-KiB`, as measure.c prints;
//       past the timeout, the same so far, and exit status 124.
//   StatecraftBenchmarks phases FILE
//       Where loading FILE's time goes: read, YAML parse, load, lint.
//
// Build it in release mode: swift build -c release --product StatecraftBenchmarks

let usage =
    "usage: StatecraftBenchmarks engine [MACHINE] [--transitions N] [--runs N] [--case TEXT] | statechart [MACHINE] [--inputs N] | timers [--timers N] | load FILE [--timeout SECONDS] | phases FILE"
var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage) }
arguments.removeFirst()

switch command {
case "engine":
    var options = EngineBenchmark.Options()
    while let argument = arguments.first {
        arguments.removeFirst()
        switch argument {
        case "--transitions", "--runs":
            guard let text = arguments.first, let value = Int(text), value > 0 else { fail("\(argument) needs a positive number") }
            arguments.removeFirst()
            if argument == "--runs" { options.runs = value } else { options.transitions = value }
        case "--case":
            guard let text = arguments.first else { fail("--case needs part of a case's name") }
            arguments.removeFirst()
            options.caseFilter = text
        default:
            if argument.hasPrefix("-") { fail(usage) }
            options.machinePath = argument
        }
    }
    EngineBenchmark.run(options)
case "statechart":
    var options = StatechartBenchmark.Options()
    while let argument = arguments.first {
        arguments.removeFirst()
        if argument == "--inputs" {
            guard let text = arguments.first, let value = Int(text), value > 0 else { fail("--inputs needs a positive number") }
            arguments.removeFirst()
            options.inputs = value
        } else if argument.hasPrefix("-") {
            fail(usage)
        } else {
            options.machinePath = argument
        }
    }
    StatechartBenchmark.run(options)
case "timers":
    var options = TimerBenchmark.Options()
    if arguments.count == 2 && arguments[0] == "--timers", let value = Int(arguments[1]), value > 0 {
        options.timers = value
    } else if !arguments.isEmpty {
        fail(usage)
    }
    TimerBenchmark.run(options)
case "load" where arguments.count == 1:
    LoadBenchmark.load(arguments[0], timeout: nil)
case "load" where arguments.count == 3 && arguments[1] == "--timeout":
    guard let timeout = Double(arguments[2]), timeout > 0 else { fail("--timeout needs a positive number of seconds") }
    LoadBenchmark.load(arguments[0], timeout: timeout)
case "phases" where arguments.count == 1:
    LoadBenchmark.phases(arguments[0])
default:
    fail(usage)
}
