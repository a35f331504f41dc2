// Fuzzes the machine-file loader (libyaml events -> YAML nodes -> definition -> compiled machine)
// and, when the input is a valid machine, everything smrun does with one: runs it (start, then
// every input with arguments of its type), draws it (DOT and Mermaid) and lints it; a
// statechart's snapshot must read back as itself.
import FuzzSupport
import Statecraft
import StatecraftYAML

/// The default limits except the node budget: 10,000,000 nodes after alias expansion is a
/// legitimate multi-second load, which would read as a timeout; the limit's code is the same.
private let limits = LoadLimits(maximumBytes: 1 << 20, maximumDepth: 256, maximumNodes: 200_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachineFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let loaded = YAMLFile.load(bytes: bytes, defaultName: "fuzz", limits: limits)
    // An upper bound on the lines: YAML also breaks lines at a lone CR, NEL (C2 85), LS and PS (E2 80 A8/A9).
    let lines = bytes.reduce(1) { $0 + ([0x0A, 0x0D, 0x85, 0xA8, 0xA9].contains($1) ? 1 : 0) }
    for diagnostic in loaded.diagnostics {
        let position = diagnostic.position ?? .unknown
        precondition(
            position == .unknown || (1...lines + 1).contains(position.line) && position.column >= 1,
            "diagnostic outside the file: \(diagnostic)")
        _ = diagnostic.description
    }
    precondition(loaded.diagnostics.hasErrors == (loaded.machine == nil), "a machine must load exactly when there are no errors")
    guard let machine = loaded.machine, let definition = loaded.definition else { return 0 }

    for format in Diagram.Format.allCases {
        _ = Diagram.render(machine, definition: definition, format: format)
        _ = Diagram.render(machine, format: format)
        let options = Diagram.Options(direction: .topToBottom, highlightedStates: [0, machine.stateCount - 1])
        _ = Diagram.render(machine, definition: definition, format: format, options: options)
    }
    for warning in MachineLinter.lint(machine, definition: definition) {
        precondition(warning.severity == .warning, "the linter reports warnings only")
    }

    if machine.chart != nil {
        var runner = ChartRunner(machine, stepLimit: 50)
        var sink = ConfigurationChecker()
        runner.start(into: &sink)
        for round in 0..<3 {
            for input in 0..<machine.inputCount {
                let argument = machine.argumentTypes[input].map { Arguments.value(of: $0, round: round) } ?? .null
                runner.send(input, argument: argument, into: &sink)
            }
        }
        // What --state saves (configuration, history records, context) reads back as itself;
        // documents are compared, as a NaN in the context equals nothing.
        let codec = SnapshotCodec(machine)
        let saved = codec.encode(codec.snapshot(of: runner))
        let read = Result { () throws(SnapshotError) in try codec.decode(saved) }
        precondition((try? read.get()).map(codec.encode) == saved, "a statechart's snapshot does not read back: \(read)")
        return 0
    }
    var runner = TableRunner(machine, stepLimit: 50)
    var sink = DiscardingSink(machine)
    runner.start(into: &sink)
    for round in 0..<3 {
        for input in 0..<machine.inputCount {
            let argument = machine.argumentTypes[input].map { Arguments.value(of: $0, round: round) } ?? .null
            runner.send(input, argument: argument, into: &sink)
        }
    }
    return 0
}

/// Builds the text smrun would print for each result, then drops it.
/// Checks on the way that every context variable keeps one type (its initial value's, or for
/// one that starts as `null`, the first type assigned to it).
private struct DiscardingSink: ResultSink {
    var types: [ValueType]

    init(_ machine: CompiledMachine) {
        types = machine.initialContext.map(\.type)
    }

    mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
        precondition(runner.machine.stateNames.indices.contains(result.to), "result in a state that does not exist")
        precondition(runner.context.count == types.count, "context lost a variable")
        for (slot, value) in runner.context.enumerated() where value != .null {
            if types[slot] == .null { types[slot] = value.type }
            precondition(
                value.type == types[slot],
                "'\(runner.machine.variableNames[slot])' holds \(value), of type \(value.type), after holding a \(types[slot])")
        }
        if !result.isAccepted {
            _ = runner.machine.message(for: result, stepLimit: runner.stepLimit)
        }
    }
}

private enum Arguments {
    static func value(of type: ValueType, round: Int) -> Value {
        switch type {
        case .int: [.int(1), .int(0), .int(.min)][round % 3]
        case .double: [.double(1.5), .double(0), .double(-1e308)][round % 3]
        case .bool: .bool(round % 2 == 0)
        case .string: [.string("x"), .string(""), .string("The Witches Brew")][round % 3]
        case .null, .list, .record: .null
        }
    }
}

#if !FUZZING
    @main enum Main {
        static func main() { Reproducer.main("FuzzMachineFile", fuzzMachineFile) }
    }
#endif

/// Checks after every statechart result that the configuration is one SCXML allows: every
/// active state's parent active, one child of each active compound state, every region of each
/// active parallel state, no history state; and words the result's message.
private struct ConfigurationChecker: ResultSink {
    mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
        let tree = runner.chart.tree
        for state in 0..<tree.count where runner.isActive(state) {
            precondition(!tree.kinds[state].isHistory, "a history state is active")
            let parent = Int(tree.parents[state])
            precondition(parent < 0 || runner.isActive(parent), "an active state's parent is not active")
            let active = tree.children[state].filter { runner.isActive(Int($0)) }.count
            switch tree.kinds[state] {
            case .compound: precondition(active == 1, "an active compound state has \(active) active children")
            case .parallel: precondition(active == tree.children[state].count, "a region of an active parallel state is not active")
            default: break
            }
        }
        precondition(tree.topLevel.filter { runner.isActive(Int($0)) }.count == 1, "not exactly one top-level state is active")
        if !result.isAccepted { _ = runner.message(for: result) }
    }
}
