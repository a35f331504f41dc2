import Foundation
import StatecraftYAML
import TestSupport
import Testing

@testable import Statecraft

/// A machine whose states only nest takes its inputs through its leaf table
/// (``LeafDispatchTable``); every other statechart through selection and the microstep. The
/// two must agree on everything a caller sees: each result, the configurations before and
/// after it, the effects that ran in order, the transitions taken, the context, the pending
/// timers and whether the machine finished. Each machine here runs on both, over the same
/// random inputs (and clock moves), and the two records must be equal.
@Suite struct LeafTableDifferentialTests {
    /// Records everything a sink can read of each result.
    struct Recorder: ResultSink {
        var lines: [String] = []

        mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
            let names = runner.machine.effectNames
            lines.append(
                "\(result.trigger) input \(result.input) \(result.outcome) slot \(result.queueSlot) discarded \(result.discarded) "
                    + "error \(String(describing: result.evaluationError)) site \(String(describing: result.failedExpression)) "
                    + "refusing \(result.refusingTransition) timer \(result.timer) argument \(String(describing: runner.queuedArgument(of: result))) | "
                    + "\(runner.configurationText(runner.previousConfiguration)) -> \(runner.configurationText(runner.configuration)) "
                    + "\(runner.previousConfiguration) \(runner.configuration) | effects \(runner.effectsRun.map { names[Int($0)] }) "
                    + "| transitions \(runner.transitionsTaken) | context \(runner.context) version \(runner.contextVersion) "
                    + "| finished \(runner.isFinished) timers \(runner.pendingTimerCount) at \(runner.time)")
        }
    }

    /// Runs `machine` from its start over `steps` random inputs (and, for a machine with timers,
    /// clock moves) from `seed`, through the leaf table or not; what each result showed.
    static func record(_ machine: CompiledMachine, leafTable: Bool, seed: UInt64, steps: Int = 150) -> [String] {
        var runner = ChartRunner(machine, stepLimit: 40)
        runner.usesLeafTable = leafTable
        var recorder = Recorder()
        var random = SplitMix(seed: seed)
        runner.start(into: &recorder)
        let inputs = machine.inputNames.indices.filter { !machine.inputIsInternal[$0] }
        for step in 0..<steps {
            if machine.hasTimers && Int.random(in: 0..<6, using: &random) == 0 {
                runner.advance(to: runner.time + Int.random(in: 0...2500, using: &random), into: &recorder)
                continue
            }
            let input = inputs.randomElement(using: &random)!
            let argument: Value =
                switch machine.argumentTypes[input] {
                case .int?: .int(Int.random(in: 0...5, using: &random))
                case .double?: .double(Double(Int.random(in: 0...20, using: &random)) / 4)
                case .bool?: .bool(Bool.random(using: &random))
                case .string?, .null?, .list?, .record?: .string(["", "x", "forty-two"].randomElement(using: &random)!)
                case nil: .null
                }
            recorder.lines.append("step \(step): send \(machine.inputNames[input]) \(argument)")
            runner.send(input, argument: argument, into: &recorder)
        }
        let saved = runner.savedState
        // By history state: a dictionary's order differs between two equal ones built apart.
        let histories = saved.histories.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        recorder.lines.append("saved \(saved.configuration) \(histories)")
        return recorder.lines
    }

    /// The first line where the two records differ, with the lines before it, for a message.
    static func firstDifference(_ a: [String], _ b: [String]) -> String {
        let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let context = a[max(0, index - 3)..<min(index, a.count)].joined(separator: "\n")
        return "\(context)\nleaf table: \(index < a.count ? a[index] : "(end)")\ngeneral:    \(index < b.count ? b[index] : "(end)")"
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: 0..<240)
    func generatedNestedMachinesRunAlikeOnBoth(seed: Int) throws {
        var generator = NestedMachineGenerator(seed: UInt64(seed), timers: seed % 3 == 0)
        let text = generator.machine()
        let loaded = YAMLFile.load(bytes: Array(text.utf8), defaultName: "generated")
        guard let machine = loaded.machine else {
            Issue.record("seed \(seed) does not compile: \(loaded.diagnostics)\n\(text)")
            return
        }
        guard machine.chart?.leafTable != nil else {
            Issue.record("seed \(seed) does not run on a leaf table:\n\(text)")
            return
        }
        for inputSeed in 0..<3 {
            let table = Self.record(machine, leafTable: true, seed: UInt64(inputSeed))
            let general = Self.record(machine, leafTable: false, seed: UInt64(inputSeed))
            #expect(table == general, "seed \(seed), inputs \(inputSeed):\n\(Self.firstDifference(table, general))\n\(text)")
        }
    }

    /// Every statechart among the example machines and the benchmarks' (the nested-only ones
    /// run on a leaf table; the others on both paths alike, as a check of the switch).
    @Test func exampleStatechartsRunAlikeOnBoth() throws {
        let folders = ["machines", "benchmarks/statechart"].map { Self.repository.appendingPathComponent($0) }
        var onLeafTables: [String] = []
        for folder in folders {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") && !$0.contains(".sismic.") }
            for file in files.sorted() {
                let loaded = YAMLFile.load(path: folder.appendingPathComponent(file).path)
                let machine = try #require(loaded.machine, "\(file): \(loaded.diagnostics)")
                guard machine.isStatechart else { continue }
                if machine.chart?.leafTable != nil { onLeafTables.append(file) }
                for seed in 0..<20 {
                    let table = Self.record(machine, leafTable: true, seed: UInt64(seed), steps: 300)
                    let general = Self.record(machine, leafTable: false, seed: UInt64(seed), steps: 300)
                    #expect(table == general, "\(file), seed \(seed):\n\(Self.firstDifference(table, general))")
                }
            }
        }
        #expect(onLeafTables.contains("network-link.yaml") && onLeafTables.contains("connection.yaml"), "\(onLeafTables)")
    }
}
