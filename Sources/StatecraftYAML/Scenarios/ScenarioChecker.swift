import Statecraft

/// Checks a decoded ``ScenarioDocument`` against the machine it tests: every input, state,
/// effect and variable it names exists (with a did-you-mean), and every argument and value
/// has the type the machine declares. A file with an error is not run.
enum ScenarioChecker {
    static func check(_ file: ScenarioDocument, against machine: CompiledMachine) -> [Diagnostic] {
        var checker = Checker(machine: machine, names: MachineNameIndex(machine))
        for scenario in file.scenarios { checker.check(scenario) }
        return checker.diagnostics
    }

    private struct Checker {
        let machine: CompiledMachine
        let names: MachineNameIndex
        var diagnostics: [Diagnostic] = []

        mutating func check(_ scenario: Scenario) {
            if let states = scenario.state { checkStart(states) }
            for entry in scenario.context { check(variable: entry.variable, value: entry.value, at: entry.position) }
            for step in scenario.steps {
                if let send = step.send { check(send) }
                let expectation = step.expectation
                if let state = expectation.state { check(state: state.value) }
                for state in expectation.states?.value ?? [] { check(state: state) }
                for state in expectation.includes?.value ?? [] { check(state: state) }
                for effect in expectation.effects?.value ?? [] where names.effects[effect.name] == nil {
                    error(.invalidValue, "machine '\(machine.name)' has no effect '\(effect.name)'" + Suggestion.didYouMean(effect.name, in: machine.effectNames), effect.position)
                }
                for entry in expectation.context?.value ?? [] { check(variable: entry.variable, value: entry.value, at: entry.position) }
                for sent in expectation.sent?.value ?? [] {
                    if let input = sent.input { check(input: input) }
                    if let after = sent.after { check(after: after) }
                    if let timer = sent.timer { check(timer: timer) }
                    if let state = sent.state { check(state: state) }
                }
            }
        }

        private mutating func error(_ code: DiagnosticCode, _ message: String, _ position: SourcePosition) {
            diagnostics.append(.error(code, message, at: position))
        }

        /// A scenario's start: one state of a flat machine, or a statechart's configuration.
        private mutating func checkStart(_ states: [Named]) {
            guard let first = states.first else { return }
            for state in states { check(state: state) }
            let ids = states.compactMap { names.states[$0.name] }
            guard ids.count == states.count else { return }
            if let problem = ScenarioRunner.startProblem(ids, in: machine) {
                error(.invalidValue, "'state' \(problem)", first.position)
            }
        }

        private mutating func check(state: Named) {
            guard names.states[state.name] == nil else { return }
            error(.undefinedState, "machine '\(machine.name)' has no state '\(state.name)'" + Suggestion.didYouMean(state.name, in: machine.stateNames), state.position)
        }

        @discardableResult
        private mutating func check(input: Named) -> Int? {
            if let id = names.inputs[input.name] { return id }
            error(.undefinedInput, "machine '\(machine.name)' has no input '\(input.name)'" + Suggestion.didYouMean(input.name, in: machine.inputNames), input.position)
            return nil
        }

        /// A `sent` entry's `after`: the delay of some `after` transition of the machine.
        private mutating func check(after: StepExpectation.Key<Delay>) {
            let delays = machine.timers.map { timers in timers.afterTexts.compactMap { $0 } } ?? []
            let milliseconds = delays.compactMap { try? Delay.milliseconds($0.utf8) }
            guard !milliseconds.contains(after.value.milliseconds) else { return }
            var listed: Set<String> = []
            let known = delays.isEmpty ? "it has none" : "it has " + delays.filter { listed.insert($0).inserted }.joined(separator: ", ")
            error(.invalidValue, "machine '\(machine.name)' has no 'after' transition of \(after.value.text) (\(known))", after.position)
        }

        /// A `sent` entry's `timer`: the id of a delayed send of the machine.
        private mutating func check(timer: Named) {
            let names = machine.timers?.timerNames ?? []
            guard !names.contains(timer.name) else { return }
            error(.undefinedTimer, "machine '\(machine.name)' has no delayed send with id '\(timer.name)'" + Suggestion.didYouMean(timer.name, in: names), timer.position)
        }

        private mutating func check(_ send: ScenarioStep.Send) {
            guard let id = check(input: send.input) else { return }
            let name = send.input.name
            if machine.inputIsInternal[id] {
                error(.undefinedInput, "input '\(name)' is internal: only effects may send it", send.input.position)
                return
            }
            switch (machine.argumentTypes[id], send.argument) {
            case (nil, nil): break
            case (nil, let argument?):
                error(.argumentType, "input '\(name)' takes no argument, but the step gives \(argument)", send.argumentPosition)
            case (let type?, nil):
                error(.argumentType, "input '\(name)' takes a \(type) argument; give it with { input: \(name), arg: VALUE }", send.input.position)
            case (let type?, let argument?):
                if ScenarioValues.converted(argument, to: ExpressionType(type)) == nil {
                    error(.argumentType, "input '\(name)' takes a \(type) argument, not \(ScenarioValues.describe(argument))", send.argumentPosition)
                }
            }
        }

        private mutating func check(variable: Named, value: Value, at position: SourcePosition) {
            guard let slot = names.variables[variable.name] else {
                error(
                    .undefinedVariable,
                    "machine '\(machine.name)' has no context variable '\(variable.name)'" + Suggestion.didYouMean(variable.name, in: machine.variableNames),
                    variable.position)
                return
            }
            let type = machine.variableTypes[slot]
            if ScenarioValues.converted(value, to: type) == nil {
                error(.argumentType, "context variable '\(variable.name)' holds \(ScenarioValues.describe(type)), not \(ScenarioValues.describe(value))", position)
            }
        }
    }
}
