// Eventless transitions with guards that may loop forever, for statecharts.
extension MachineLinter {
    /// Loops of eventless transitions, guarded, that nothing stops once their guards all hold:
    /// no effect on the loop (a transition's, or the exit, entry or default-entry effects of
    /// the states it leaves and enters) sets a variable that a guard reads, and no two of their
    /// guards contradict: `x` and `!x`; `x == a` and `x == b` with a ≠ b; `x < a` and `x > b`
    /// with a ≤ b (each a conjunct, `&&` split). A guard that tests `in()` is taken to change as
    /// the loop goes round. An eventless transition after an unguarded one of the same state
    /// is never taken (`shadowed-transition`), so it is on no loop. A loop without guards is
    /// the compiler's error.
    static func eventlessLoops(_ machine: CompiledMachine, _ chart: StateChart, _ definition: MachineDefinition) -> [Diagnostic] {
        var eventless: [Int] = []
        for state in 0..<chart.tree.count {
            for index in chart.transitions(from: state) where chart.transitions[Int(index)].input < 0 {
                eventless.append(Int(index))
                if !chart.transitions[Int(index)].isGuarded { break }
            }
        }
        guard !eventless.isEmpty else { return [] }
        var reported: Set<[Int]> = []
        var warnings: [Diagnostic] = []
        for loop in EventlessCycles.find(in: chart.tree, chart.transitions, among: eventless) {
            let compiled = loop.map { Int(chart.transitions[$0].compiled) }
            guard reported.insert(Set(compiled).sorted()).inserted else { continue }
            let texts = compiled.compactMap { machine.transitions[$0].guardText }
            let guards = texts.compactMap { try? ExpressionParser.parse($0) }
            guard guards.count == texts.count, guards.allSatisfy({ $0.testedStates.isEmpty }) else { continue }
            let read = Set(guards.flatMap(\.valuesRead.variables))
            let assigned = Set(effectsRun(around: loop, machine, chart).flatMap(\.assignedSlots)).compactMap { slot in
                slot < machine.variableNames.count ? machine.variableNames[slot] : nil
            }
            guard read.isDisjoint(with: assigned), !GuardFacts.contradict(guards) else { continue }
            let states = loop.map { "'\(machine.stateNames[Int(chart.transitions[$0].source)])'" }
            let shownGuards = Array(Set(texts)).sorted().map { "'\($0)'" }.joined(separator: ", ")
            warnings.append(
                .warning(
                    .eventlessCycle,
                    "eventless transitions may loop forever: \((states + [states[0]]).joined(separator: " -> ")); their guards (\(shownGuards)) can all hold at once, and no effect on the loop sets a variable they read; make one set such a variable, or give a transition an input",
                    at: machine.transitions[compiled[0]].position))
        }
        return warnings
    }

    /// The effects a loop's transitions may run: their own, their sources' exit effects, and
    /// the exit, entry and default-entry effects of the states they enter (left again as the
    /// loop goes round).
    private static func effectsRun(around loop: [Int], _ machine: CompiledMachine, _ chart: StateChart) -> [CompiledEffect] {
        var ids: Set<Int> = []
        for index in loop {
            let transition = chart.transitions[index]
            ids.formUnion(machine.transitions[Int(transition.compiled)].effects)
            ids.formUnion(machine.exitEffects[Int(transition.source)])
            for state in EventlessCycles.statesEntered(by: transition, in: chart.tree) {
                ids.formUnion(machine.entryEffects[state])
                ids.formUnion(machine.exitEffects[state])
                if !chart.defaultEffects.isEmpty { ids.formUnion(chart.defaultEffects[state]) }
            }
        }
        return ids.map { machine.effects[$0] }
    }
}
