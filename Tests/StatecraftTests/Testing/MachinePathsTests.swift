import Testing

@testable import Statecraft

/// `smrun paths`' search: shortest paths by breadth, argument values from the guards, a flag
/// set by one input and read by a later guard, and why a state is not reached.
struct MachinePathsTests {
    func row(_ input: String, _ from: [String], _ to: String?, when: ExpressionSource? = nil, _ effects: [Named] = [])
        -> TransitionDefinition
    {
        TransitionDefinition(Named(input), from: .states(from.map { Named($0) }), to: to.map { Named($0) }, when: when, effects: effects)
    }

    /// The path to each state, as `input arg` words.
    func paths(_ machine: CompiledMachine) -> [String: [String]] {
        let found = MachinePaths(machine)
        var paths: [String: [String]] = [:]
        for (state, path) in found.toState.enumerated() {
            guard let path else { continue }
            paths[machine.stateNames[state]] = path.map { step in
                machine.argumentTypes[step.input] == nil ? machine.inputNames[step.input] : "\(machine.inputNames[step.input]) \(step.argument)"
            }
        }
        return paths
    }

    @Test func pathsAreShortestAndGuardsDecideWithTheValuesTheyCompareAgainst() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("limit", .double(2.5))],
                inputs: [InputDeclaration("next"), InputDeclaration("jump"), InputDeclaration("pick", argumentType: .int),
                    InputDeclaration("ratio", argumentType: .double), InputDeclaration("word", argumentType: .string)],
                states: ["a", "b", "c", "d", "e", "f"].map { StateDeclaration(Named($0)) },
                transitions: [
                    row("next", ["a"], "b"), row("next", ["b"], "c"), row("next", ["c"], "d"),
                    // A shortcut: d is two inputs away, not three.
                    row("jump", ["b"], "d"),
                    // 7 is tried, and 8 (7 + 1) passes `arg > 7`.
                    row("pick", ["a"], "e", when: "arg > 7"),
                    // The value of the variable the guard reads (3 and its neighbours all fail).
                    row("ratio", ["e"], "f", when: "arg >= limit && arg < 3"),
                ]))
        let found = paths(machine)
        #expect(found["a"] == [])
        #expect(found["d"] == ["next", "jump"])
        #expect(found["e"] == ["pick 8"])
        #expect(found["f"] == ["pick 8", "ratio 2.5"])
        let all = MachinePaths(machine)
        #expect(all.toTransition.allSatisfy { $0 != nil })
        for (index, path) in all.toTransition.enumerated() {
            #expect(PathReplay(path!, on: machine).takes(index), "transition \(index)")
        }
    }

    /// A flag set by an input that stays in its state, then read by a guard: the search
    /// goes on from the state with the new context too.
    @Test func aFlagSetInTheSameStateOpensAGuardedTransition() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "idle", context: [ContextVariable("armed", .bool(false))],
                inputs: [InputDeclaration("arm", argumentType: .bool), InputDeclaration("fire")],
                states: [StateDeclaration("idle"), StateDeclaration("fired")],
                effects: [EffectDefinition("setArmed", assignments: [.init("armed", "arg")])],
                transitions: [row("arm", ["idle"], nil, ["setArmed"]), row("fire", ["idle"], "fired", when: "armed")]))
        #expect(paths(machine)["fired"] == ["arm true", "fire"])
    }

    @Test func unreachedStatesSayWhy() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", inputs: [InputDeclaration("go"), InputDeclaration("n", argumentType: .int)],
                states: ["a", "b", "island", "beyond", "never"].map { StateDeclaration(Named($0)) },
                transitions: [
                    row("go", ["a"], "b"), row("go", ["island"], "beyond"),
                    row("n", ["b"], "never", when: "arg > 3 && arg < 2"),
                ]))
        let found = MachinePaths(machine)
        #expect(found.whyUnreached[0] == nil && found.whyUnreached[1] == nil)
        #expect(found.whyUnreached[2] == "no transition leads to it")
        #expect(found.whyUnreached[3] == "only transitions from unreachable states lead to it (from island)")
        #expect(found.whyUnreached[4]?.contains("its guard 'arg > 3 && arg < 2' held for no argument value tried") == true)
    }

    @Test func literalsAreReadFromTheGuardText() {
        let scanned = ArgumentCandidates.scan(#"arg == "a \"b\"" || n2 >= 10 && x < 2.5 && flag != true"#)
        #expect(scanned.literals == [.string("a \"b\""), .int(10), .double(2.5), .bool(true)])
        #expect(scanned.words == ["arg", "n2", "x", "flag"])
    }
}
