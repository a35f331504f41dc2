import Statecraft

/// What scenarios exercised of one machine: the states entered, the transitions taken (a
/// transition of the file counts once, whichever of its sources it was taken from) and the
/// effects run.
package struct ScenarioCoverage: Sendable {
    package let machine: CompiledMachine
    package private(set) var statesEntered: [Bool]
    /// Whether each state counts: a statechart's history pseudo-states are never active.
    package let countsState: [Bool]
    package private(set) var transitionsTaken: [Bool]
    package private(set) var effectsRun: [Bool]

    package init(_ machine: CompiledMachine) {
        self.machine = machine
        statesEntered = Array(repeating: false, count: machine.stateCount)
        countsState = (0..<machine.stateCount).map { !ScenarioRunner.isPseudoState($0, in: machine) }
        transitionsTaken = Array(repeating: false, count: machine.transitions.count)
        effectsRun = Array(repeating: false, count: machine.effectNames.count)
    }

    /// Records the state a scenario starts in.
    package mutating func enter(_ state: Int) {
        statesEntered[state] = true
    }

    /// Records a step's results: the transitions each took, the states active after it and the
    /// effects it ran.
    mutating func record(_ results: StepResults) {
        for record in results.records {
            // A refusal (`reject:`) is covered when selected, though it rejects the input.
            for transition in results.transitions(of: record) { transitionsTaken[transition] = true }
            guard record.isAccepted else { continue }
            for state in results.statesActive(record) { statesEntered[state] = true }
            for effect in results.effects(of: record) { effectsRun[effect] = true }
        }
    }

    /// Adds what `other`, on the same machine, exercised.
    package mutating func merge(_ other: ScenarioCoverage) {
        for i in statesEntered.indices where other.statesEntered[i] { statesEntered[i] = true }
        for i in transitionsTaken.indices where other.transitionsTaken[i] { transitionsTaken[i] = true }
        for i in effectsRun.indices where other.effectsRun[i] { effectsRun[i] = true }
    }
}
