import Statecraft

/// Runs scenarios on the engine's ``Runner``: starts the machine (or resumes it in the
/// scenario's state and context), sends each step's input, and checks the step's expectations
/// against the results of its run to completion. The scenario must have passed
/// ``ScenarioChecker``: every name it uses exists.
package struct ScenarioRunner {
    package let machine: CompiledMachine
    private let inputIDs: [String: Int]
    private let stateIDs: [String: Int]
    private let variableSlots: [String: Int]

    package init(_ machine: CompiledMachine) {
        self.machine = machine
        inputIDs = Self.ids(machine.inputNames)
        stateIDs = Self.ids(machine.stateNames)
        variableSlots = Self.ids(machine.variableNames)
    }

    private static func ids(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Collects a step's results.
    private struct Recorder: ResultSink {
        var results: [TransitionResult] = []
        mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
            results.append(result)
        }
    }

    /// Runs `scenario`, recording what it exercised in `coverage`.
    package func run(_ scenario: Scenario, coverage: inout ScenarioCoverage) -> ScenarioResult {
        var runner = Runner(machine)
        var context = machine.initialContext
        for entry in scenario.context {
            let slot = variableSlots[entry.variable.name]!
            context[slot] = ScenarioValues.converted(entry.value, to: machine.variableTypes[slot])!
        }
        var recorder = Recorder()
        if let state = scenario.state {
            runner.restore(state: stateIDs[state.name]!, context: context)
            coverage.enter(runner.state)
        } else {
            if !scenario.context.isEmpty { runner.restore(state: machine.initialState, context: context) }
            coverage.enter(runner.state)
            runner.start(into: &recorder)
        }
        var outcome = ScenarioResult(name: scenario.name, position: scenario.position, failure: nil, inputs: [])
        for (index, step) in scenario.steps.enumerated() {
            var action = "check"
            if let send = step.send {
                let id = inputIDs[send.input.name]!
                let argument = send.argument.flatMap { value in
                    machine.argumentTypes[id].flatMap { ScenarioValues.converted(value, to: ExpressionType($0)) }
                }
                action = argument.map { "\(send.input.name) \($0)" } ?? send.input.name
                outcome.inputs.append(action)
                action = "send " + action
                recorder.results.removeAll(keepingCapacity: true)
                runner.send(id, argument: argument ?? .null, into: &recorder)
            }
            for result in recorder.results { coverage.record(result) }
            let mismatches = check(step.expectation, results: recorder.results, runner: runner)
            recorder.results.removeAll(keepingCapacity: true)
            if !mismatches.isEmpty {
                outcome.failure = .init(step: index + 1, position: step.position, action: action, mismatches: mismatches)
                break
            }
        }
        return outcome
    }

    /// The expectations that do not hold after a step whose results were `results` (an
    /// external input's, then the queued ones; or, for a check, the start's if it came first).
    private func check(_ expected: StepExpectation, results: [TransitionResult], runner: Runner) -> [ScenarioResult.Mismatch] {
        var mismatches: [ScenarioResult.Mismatch] = []
        // The texts are built only for a mismatch: a passing step allocates no string.
        func compare(_ key: String, _ holds: Bool, _ expected: @autoclosure () -> String, _ actual: @autoclosure () -> String) {
            if !holds { mismatches.append(.init(key: key, expected: expected(), actual: actual())) }
        }
        let main = results.first
        let queued = results.dropFirst()
        if let ok = expected.ok {
            let actual = main.map { !$0.isRejected } ?? true
            compare("ok", ok.value == actual, "\(ok.value)", "\(actual)")
        }
        if let error = expected.error {
            compare("error", main?.rejection == error.value, error.value.rawValue, main?.rejection?.rawValue ?? "none")
        }
        if let state = expected.state {
            compare("state", machine.stateNames[runner.state] == state.value.name, state.value.name, machine.stateNames[runner.state])
        }
        if let effects = expected.effects {
            var ran = results.lazy.flatMap { self.machine.effectsRun(by: $0) }.makeIterator()
            var holds = true
            for effect in effects.value where holds {
                guard let id = ran.next(), machine.effectNames[id] == effect.name else { holds = false; break }
            }
            if holds && ran.next() != nil { holds = false }
            compare(
                "effects", holds, list(effects.value.map(\.name)),
                list(results.flatMap { machine.effectsRun(by: $0).map { machine.effectNames[$0] } }))
        }
        for entry in expected.context?.value ?? [] {
            let slot = variableSlots[entry.variable.name]!
            let value = ScenarioValues.converted(entry.value, to: machine.variableTypes[slot]) ?? entry.value
            compare("context.\(entry.variable.name)", runner.context[slot] == value, "\(value)", "\(runner.context[slot])")
        }
        if let sent = expected.sent {
            let holds = sent.value.count == queued.count && zip(sent.value, queued).allSatisfy { self.matches($0, $1) }
            compare("sent", holds, list(sent.value.map(describe)), list(queued.map(describe)))
        }
        if let finished = expected.finished {
            compare("finished", machine.isFinal[runner.state] == finished.value, "\(finished.value)", "\(machine.isFinal[runner.state])")
        }
        return mismatches
    }

    private func matches(_ expected: StepExpectation.Sent, _ result: TransitionResult) -> Bool {
        if let input = expected.input, result.input < 0 || machine.inputNames[result.input] != input.name { return false }
        if let state = expected.state, machine.stateNames[result.to] != state.name { return false }
        if let error = expected.error, result.rejection != error.value { return false }
        return true
    }

    private func describe(_ sent: StepExpectation.Sent) -> String {
        var fields: [String] = []
        if let input = sent.input { fields.append("input: \(input.name)") }
        if let state = sent.state { fields.append("state: \(state.name)") }
        if let error = sent.error { fields.append("error: \(error.value.rawValue)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private func describe(_ result: TransitionResult) -> String {
        var text = "{input: \(result.input >= 0 ? machine.inputNames[result.input] : "?"), state: \(machine.stateNames[result.to])"
        if let kind = result.rejection { text += ", error: \(kind.rawValue)" }
        return text + "}"
    }

    private func list(_ items: [String]) -> String {
        "[" + items.joined(separator: ", ") + "]"
    }
}
