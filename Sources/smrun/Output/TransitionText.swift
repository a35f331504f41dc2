import Statecraft

/// A compiled transition as a row would write it, for `smrun test --coverage` and `smrun
/// paths`: `lock | closed => locked`, at most three sources named, `(stays)` without a target,
/// `(refused)` for a `reject:` transition, a statechart's several targets joined by `, `,
/// `(eventless)` for a transition without input.
enum TransitionText {
    static func row(_ id: Int, of machine: CompiledMachine) -> String {
        let transition = machine.transitions[id]
        var sources = transition.sources.prefix(3).map { machine.stateNames[$0] }.joined(separator: ", ")
        if transition.sources.count > 3 { sources += ", ... (\(transition.sources.count) states)" }
        let targets = ([transition.target] + transition.moreTargets).filter { $0 >= 0 }.map { machine.stateNames[$0] }
        let target = transition.refusal != nil ? "(refused)" : targets.isEmpty ? "(stays)" : targets.joined(separator: ", ")
        let input = transition.input >= 0 ? machine.inputNames[transition.input] : "(eventless)"
        return "\(input) | \(sources) => \(target)"
    }
}
