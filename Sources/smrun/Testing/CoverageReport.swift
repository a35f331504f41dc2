import Statecraft
import StatecraftYAML

/// `smrun test --coverage`: per machine, the states entered, transitions taken and effects
/// run, with those that never were (docs/testing-machines.md).
enum CoverageReport {
    /// One line per kind, with what was missed under it.
    static func text(_ coverage: [(machinePath: String, coverage: ScenarioCoverage)]) -> String {
        var out = ""
        for (path, coverage) in coverage {
            let machine = coverage.machine
            out += "coverage of \(path):\n"
            let states = countedStates(coverage)
            out += line("states", states.map(\.entered))
            for state in states.filter({ !$0.entered }).map(\.id) { out += "    never entered: \(machine.stateNames[state])\n" }
            out += line("transitions", coverage.transitionsTaken)
            for transition in missed(coverage.transitionsTaken) {
                out += "    never taken: \(path):\(machine.transitions[transition].position.line): \(TransitionText.row(transition, of: machine))\n"
            }
            out += line("effects", coverage.effectsRun)
            for effect in missed(coverage.effectsRun) { out += "    never run: \(machine.effectNames[effect])\n" }
        }
        return out
    }

    /// One `{"coverage": ...}` object per machine.
    static func jsonLines(_ coverage: [(machinePath: String, coverage: ScenarioCoverage)]) -> String {
        var out = ""
        for (path, coverage) in coverage {
            let machine = coverage.machine
            func names(_ ids: [Int], _ names: [String]) -> String { ids.map { JSONText.quoted(names[$0]) }.joined(separator: ",") }
            func counts(_ covered: [Bool]) -> String { #""covered":\#(covered.count { $0 }),"total":\#(covered.count)"# }
            let transitions = missed(coverage.transitionsTaken).map { id in
                let transition = machine.transitions[id]
                // An `after` transition's timer, as `smrun run` shows it: `"after":"30s"`, not its internal input.
                let trigger =
                    if transition.input >= 0, let after = machine.timers?.afterTexts[transition.input] {
                        #""after":\#(JSONText.quoted(after))"#
                    } else {
                        #""input":\#(transition.input >= 0 ? JSONText.quoted(machine.inputNames[transition.input]) : "null")"#
                    }
                // A refusal (`reject:`) has no target, and says so with its message.
                let refusal = transition.refusal.map { #","reject":\#(JSONText.quoted($0))"# } ?? ""
                return #"{"line":\#(transition.position.line),\#(trigger),"from":[\#(names(transition.sources, machine.stateNames))],"to":\#(transition.target >= 0 ? JSONText.quoted(machine.stateNames[transition.target]) : "null")\#(refusal)}"#
            }
            out += #"{"coverage":{"machine":\#(JSONText.quoted(path)),"#
            let states = countedStates(coverage)
            out += #""states":{\#(counts(states.map(\.entered))),"missed":[\#(names(states.filter { !$0.entered }.map(\.id), machine.stateNames))]},"#
            out += #""transitions":{\#(counts(coverage.transitionsTaken)),"missed":[\#(transitions.joined(separator: ","))]},"#
            out += #""effects":{\#(counts(coverage.effectsRun)),"missed":[\#(names(missed(coverage.effectsRun), machine.effectNames))]}}}"# + "\n"
        }
        return out
    }

    /// The percentage of all the machines' transitions taken (100 when there are none).
    static func transitionPercentage(_ coverage: [(machinePath: String, coverage: ScenarioCoverage)]) -> Double {
        let taken = coverage.reduce(0) { $0 + $1.coverage.transitionsTaken.count { $0 } }
        let total = coverage.reduce(0) { $0 + $1.coverage.transitionsTaken.count }
        return total == 0 ? 100 : Double(taken) * 100 / Double(total)
    }

    /// `83.3%`, `100%`.
    static func formatted(_ percent: Double) -> String {
        let tenths = (percent * 10).rounded(.down) / 10
        return (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)) + "%"
    }

    private static func line(_ kind: String, _ covered: [Bool]) -> String {
        let count = covered.count { $0 }
        let percent = covered.isEmpty ? 100 : Double(count) * 100 / Double(covered.count)
        let label = kind + String(repeating: " ", count: max(1, 13 - kind.count))
        return "  \(label)\(count)/\(covered.count) (\(formatted(percent)))\n"
    }

    /// The states that count (not a statechart's history pseudo-states), each with whether it was entered.
    private static func countedStates(_ coverage: ScenarioCoverage) -> [(id: Int, entered: Bool)] {
        coverage.statesEntered.indices.filter { coverage.countsState[$0] }.map { ($0, coverage.statesEntered[$0]) }
    }

    private static func missed(_ covered: [Bool]) -> [Int] {
        covered.indices.filter { !covered[$0] }
    }
}
