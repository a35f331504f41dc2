import Statecraft

/// Runs scenarios on the engine, with the runner the machine's compiler chose. Starts the machine (or resumes it in the scenario's state and context), sends each step's
/// input, and checks the step's expectations against the results of its run to completion.
/// The scenario must have passed ``ScenarioChecker``: every name it uses exists.
package struct ScenarioRunner {
    package let machine: CompiledMachine
    let names: MachineNameIndex
    let scriptWriter: StepScriptWriter
    /// Per input id, the delay of the `after` transition taken on it, in milliseconds; -1 for
    /// any other input.
    let afterMilliseconds: [Int]

    package init(_ machine: CompiledMachine) {
        self.machine = machine
        names = MachineNameIndex(machine)
        scriptWriter = StepScriptWriter(machine: machine, names: names)
        afterMilliseconds = (0..<machine.inputCount).map { input in
            machine.timers?.afterTexts[input].flatMap { try? Delay.milliseconds($0.utf8) } ?? -1
        }
    }

    /// What is wrong with starting a scenario in `states`, or `nil`.
    static func startProblem(_ states: [Int], in machine: CompiledMachine) -> String? {
        if machine.isStatechart { return chartStartProblem(states, in: machine) }
        return states.count == 1 ? nil : "names \(states.count) states; a flat machine is in one"
    }

    /// The machine after a step: what `state`, `states`, `in`, `context` and `finished` are checked against.
    struct After {
        /// The active atomic states.
        var states: [Int]
        var context: [Value]
        var isFinished: Bool
        /// Every active state, ancestors included, in id order: empty unless an `in:`
        /// expectation asked for them (``Driver/after(active:)``).
        var active: [Int] = []
    }

    /// Runs `scenario`, recording what it exercised in `coverage`.
    package func run(_ scenario: Scenario, coverage: inout ScenarioCoverage) -> ScenarioResult {
        let (result, exercised) = machine.visitRunner(Visit(runner: self, scenario: scenario, coverage: coverage))
        coverage = exercised
        return result
    }

    /// ``run(_:coverage:)`` with the runner type the machine's compiler chose.
    private struct Visit: RunnerVisitor {
        let runner: ScenarioRunner
        let scenario: Scenario
        let coverage: ScenarioCoverage

        func visit<Runner: MachineRunner>(_ type: Runner.Type) -> (ScenarioResult, ScenarioCoverage) {
            var driver = Driver<Runner>(runner.machine)
            var coverage = coverage
            let result = runner.run(scenario, with: &driver, coverage: &coverage)
            return (result, coverage)
        }
    }

    private func run<Runner>(_ scenario: Scenario, with driver: inout Driver<Runner>, coverage: inout ScenarioCoverage) -> ScenarioResult {
        var context = machine.initialContext
        for entry in scenario.context {
            let slot = names.variables[entry.variable.name]!
            context[slot] = ScenarioValues.converted(entry.value, to: machine.variableTypes[slot])!
        }
        var results = StepResults()
        driver.start(in: scenario.state.map { $0.map { names.states[$0.name]! } }, context: context, into: &results, coverage: &coverage)
        for (index, step) in scenario.steps.enumerated() {
            if let send = step.send {
                results.removeAll()
                let id = names.inputs[send.input.name]!
                driver.send(id, argument: scriptWriter.argument(of: send, input: id) ?? .null, into: &results)
            } else if let wait = step.wait {
                results.removeAll()
                driver.wait(milliseconds: wait.milliseconds, into: &results)
            }
            coverage.record(results)
            let mismatches = check(step.expectation, results: results, waited: step.wait != nil, after: driver.after(active: step.expectation.includes != nil))
            // A check alone sees the start's results only as the first step.
            results.removeAll()
            if !mismatches.isEmpty {
                // The texts of the failure, built only now: a passing scenario builds none.
                let action =
                    if let wait = step.wait { "wait \(wait.text)" } else if step.send != nil { "send " + scriptWriter.line(of: step)! } else { "check" }
                let failure = ScenarioResult.Failure(step: index + 1, position: step.position, action: action, mismatches: mismatches)
                return ScenarioResult(name: scenario.name, position: scenario.position, failure: failure, stepsTaken: scenario.steps[...index], scriptWriter: scriptWriter)
            }
        }
        return ScenarioResult(name: scenario.name, position: scenario.position, failure: nil, stepsTaken: scenario.steps[...], scriptWriter: scriptWriter)
    }

    /// The expectations that do not hold after a step with these results (an external
    /// input's, then the queued ones; a wait's fired timers and what they queued; or, for a
    /// check, the start's if it came first). A wait has no input of its own: its `ok` and
    /// `error` are those of the first result that was rejected.
    private func check(_ expected: StepExpectation, results: StepResults, waited: Bool, after: After) -> [ScenarioResult.Mismatch] {
        var mismatches: [ScenarioResult.Mismatch] = []
        // The texts are built only for a mismatch: a passing step allocates no string.
        func compare(_ key: @autoclosure () -> String, _ holds: Bool, _ expected: @autoclosure () -> String, _ actual: @autoclosure () -> String) {
            if !holds { mismatches.append(.init(key: key(), expected: expected(), actual: actual())) }
        }
        let records = results.records
        let main = waited ? records.first { $0.rejection != nil } : records.first { $0.isMain }
        let queued = records.lazy.filter { !$0.isMain }
        if let ok = expected.ok {
            let actual = main.map { $0.rejection == nil } ?? true
            compare("ok", ok.value == actual, "\(ok.value)", "\(actual)")
        }
        if let error = expected.error {
            compare("error", main?.rejection == error.value, error.value.rawValue, main?.rejection?.rawValue ?? "none")
        }
        if let state = expected.state {
            let holds = after.states.count == 1 && machine.stateNames[after.states[0]] == state.value.name
            compare("state", holds, state.value.name, describe(states: after.states))
        }
        if let states = expected.states {
            let holds = Set(states.value.map(\.name)) == Set(after.states.map { machine.stateNames[$0] }) && states.value.count == after.states.count
            compare("states", holds, list(states.value.map(\.name)), list(after.states.map { machine.stateNames[$0] }))
        }
        if let includes = expected.includes {
            let active = Set(after.active.map { machine.stateNames[$0] })
            let holds = includes.value.allSatisfy { active.contains($0.name) }
            compare("in", holds, list(includes.value.map(\.name)), list(after.active.map { machine.stateNames[$0] }))
        }
        if let effects = expected.effects {
            var ran = results.effects.makeIterator()
            var holds = true
            for effect in effects.value {
                guard let id = ran.next(), machine.effectNames[id] == effect.name else {
                    holds = false
                    break
                }
            }
            if holds && ran.next() != nil { holds = false }
            compare("effects", holds, list(effects.value.map(\.name)), list(results.effects.map { machine.effectNames[$0] }))
        }
        for entry in expected.context?.value ?? [] {
            let slot = names.variables[entry.variable.name]!
            let value = ScenarioValues.converted(entry.value, to: machine.variableTypes[slot]) ?? entry.value
            compare("context.\(entry.variable.name)", after.context[slot] == value, "\(value)", "\(after.context[slot])")
        }
        if let sent = expected.sent {
            let holds = sent.value.count == queued.count && zip(sent.value, queued).allSatisfy { self.matches($0, $1, in: results) }
            compare("sent", holds, list(sent.value.map(describe)), list(queued.map { describe($0, in: results) }))
        }
        if let finished = expected.finished {
            compare("finished", after.isFinished == finished.value, "\(finished.value)", "\(after.isFinished)")
        }
        return mismatches
    }

    private func matches(_ expected: StepExpectation.Sent, _ record: StepRecord, in results: StepResults) -> Bool {
        if let input = expected.input, record.input < 0 || machine.inputNames[record.input] != input.name { return false }
        if let after = expected.after, record.input < 0 || afterMilliseconds[record.input] != after.value.milliseconds { return false }
        if let timer = expected.timer, record.timer < 0 || machine.timers?.timerNames[Int(record.timer)] != timer.name { return false }
        let statesAfter = results.statesAfter(record)
        if let state = expected.state, statesAfter.count != 1 || machine.stateNames[statesAfter[statesAfter.startIndex]] != state.name {
            return false
        }
        if let error = expected.error, record.rejection != error.value { return false }
        return true
    }

    private func describe(_ sent: StepExpectation.Sent) -> String {
        var fields: [String] = []
        if let input = sent.input { fields.append("input: \(input.name)") }
        if let after = sent.after { fields.append("after: \(after.value.text)") }
        if let timer = sent.timer { fields.append("timer: \(timer.name)") }
        if let state = sent.state { fields.append("state: \(state.name)") }
        if let error = sent.error { fields.append("error: \(error.value.rawValue)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private func describe(_ record: StepRecord, in results: StepResults) -> String {
        var text: String
        if record.input >= 0, let after = machine.timers?.afterTexts[record.input] {
            text = "{after: \(after)"
        } else {
            text = "{input: " + (record.input >= 0 ? machine.inputNames[record.input] : "(eventless)")
        }
        if record.timer >= 0, let name = machine.timers?.timerNames[Int(record.timer)] { text += ", timer: \(name)" }
        text += ", state: \(describe(states: Array(results.statesAfter(record))))"
        if let kind = record.rejection { text += ", error: \(kind.rawValue)" }
        return text + "}"
    }

    /// One state's name, or several as a list.
    private func describe(states: [Int]) -> String {
        states.count == 1 ? machine.stateNames[states[0]] : list(states.map { machine.stateNames[$0] })
    }

    private func list(_ items: [String]) -> String {
        "[" + items.joined(separator: ", ") + "]"
    }
}
