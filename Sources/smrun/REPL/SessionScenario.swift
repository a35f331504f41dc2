import SmrunCore
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun repl`'s `:save FILE.test.yaml`: the session's inputs and waits as a scenario file
/// that `smrun test` passes, each input sent (or wait, `wait:`) and the state (or a statechart's
/// active atomic states) it left the machine in expected.
struct SessionScenario {
    /// What a line of the session did.
    enum Action {
        /// An input of the machine, with its argument (`.null` for none).
        case send(input: Int, argument: Value)
        /// `@wait DURATION` (`:wait`): the clock moved forward, as written.
        case wait(Delay)
    }

    /// One input or wait of the session, and where it left the machine.
    struct Step {
        var action: Action
        var statesAfter: [Int]
    }

    let machine: CompiledMachine
    /// The machine file as given to `smrun repl`.
    let machinePath: String

    /// Whether `path` names a scenario file rather than a script.
    static func isScenarioFile(_ path: String) -> Bool { path.hasSuffix(".test.yaml") || path.hasSuffix(".test.yml") }

    /// The scenario file for `steps`, saved as `path`.
    func text(_ steps: [Step], savedAs path: String) -> String {
        var text = "# A session of smrun repl: each input, and the state it left the machine in.\n"
        text += "machine: \(PathsPrinter.yaml(relativePath(of: machinePath, from: StateFile.directory(of: path))))\n"
        text += "scenarios:\n  - name: repl session\n    steps:\n"
        if steps.isEmpty { text += "      - expect: { \(expectation(initialStates)) }\n" }
        for step in steps {
            switch step.action {
            case .send(let input, let argument):
                let name = PathsPrinter.yaml(machine.inputNames[input])
                let send = machine.argumentTypes[input] == nil ? name : "{ input: \(name), arg: \(argument) }"
                text += "      - send: \(send)\n"
            case .wait(let delay):
                text += "      - wait: \(delay.text)\n"
            }
            text += "        expect: { \(expectation(step.statesAfter)) }\n"
        }
        return text
    }

    /// The duration of a valid `@wait DURATION` line, as written.
    static func durationText(ofWaitLine line: UnsafeRawBufferPointer) -> String {
        let uncommented = UnsafeRawBufferPointer(rebasing: line[..<ScriptLineParser.commentStart(line, from: 0, end: line.count)])
        let text = String(decoding: uncommented, as: UTF8.self).trimmingBlanks
        return text.dropFirst(ScriptLineParser.waitDirective.count).trimmingBlanks
    }

    /// The states a fresh machine starts in, for a session without inputs.
    private var initialStates: [Int] {
        machine.visitRunner(InitialStates(machine: machine))
    }

    /// The active atomic states once the machine has started, on the runner its compiler chose.
    private struct InitialStates: RunnerVisitor {
        let machine: CompiledMachine

        func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> [Int] {
            var runner = Runner(machine, stepLimit: RunLimits.defaultStepLimit, timerLimit: RunLimits.defaultTimerLimit)
            var ignored = IgnoredResults<Runner>()
            runner.start(into: &ignored)
            return runner.activeStates
        }
    }

    private struct IgnoredResults<Runner: MachineRunner>: ResultSink {
        mutating func receive(_ result: TransitionResult, from runner: inout Runner) {}
    }

    /// `state: NAME`, or `states: [A, B]` for a statechart with nested states.
    private func expectation(_ states: [Int]) -> String {
        let names = states.map { PathsPrinter.yaml(machine.stateNames[$0]) }
        let nests = machine.chart?.tree.parents.contains(where: { $0 >= 0 }) ?? false
        return nests ? "states: [\(names.joined(separator: ", "))]" : "state: \(names[0])"
    }

    /// `path` relative to the folder `directory` (both as given, resolved against the current
    /// folder), so that the scenario file finds the machine wherever the two are moved together;
    /// the absolute path when either cannot be resolved.
    private func relativePath(of path: String, from directory: String) -> String {
        guard let target = Self.resolved(path), let base = Self.resolved(directory) else { return path }
        let targetParts = target.split(separator: "/")
        let baseParts = base.split(separator: "/")
        var common = 0
        while common < min(targetParts.count, baseParts.count), targetParts[common] == baseParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        return (ups + targetParts[common...].map(String.init)).joined(separator: "/")
    }

    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
