import Testing

@testable import Statecraft

/// `validate`'s warnings: what makes a valid machine probably wrong, each with its code, where
/// it is, and nothing on a machine without such a problem.
struct MachineLinterTests {
    func at(_ line: Int, _ column: Int = 3) -> SourcePosition { SourcePosition(line: line, column: column) }

    func state(_ name: String, line: Int, isFinal: Bool = false, entry: [Named] = []) -> StateDeclaration {
        StateDeclaration(Named(name, at: at(line)), entry: entry, isFinal: isFinal)
    }

    func row(_ input: String, _ from: [String], _ to: String?, line: Int, when: ExpressionSource? = nil, _ effects: [Named] = [])
        -> TransitionDefinition
    {
        TransitionDefinition(
            Named(input, at: at(line, 5)), from: .states(from.map { Named($0) }), to: to.map { Named($0) }, when: when, effects: effects,
            at: at(line, 5))
    }

    func lint(_ definition: MachineDefinition) throws -> [Diagnostic] {
        let machine = try compile(definition)
        let warnings = MachineLinter.lint(machine, definition: definition)
        #expect(warnings.allSatisfy { $0.severity == .warning })
        return warnings
    }

    @Test func aMachineWithoutProblemsHasNoWarnings() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "idle", context: [ContextVariable("n", .int(0))],
                inputs: [InputDeclaration("start"), InputDeclaration("stop"), InputDeclaration("tick"), InputDeclaration("finish")],
                states: [state("idle", line: 1), state("running", line: 2), state("done", line: 3, isFinal: true)],
                // `tick` sends `stop` once: a chain, not a cycle.
                effects: [EffectDefinition("stopNext", sends: [.init("stop")])],
                transitions: [
                    row("start", ["idle"], "running", line: 10),
                    row("tick", ["running"], nil, line: 11, ["stopNext"]),
                    // Guarded, so it does not hide the next row.
                    row("stop", ["running"], "idle", line: 12, when: "n > 0"),
                    row("stop", ["running"], "idle", line: 13),
                    row("finish", ["idle", "running"], "done", line: 14),
                ]))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func statesNoTransitionLeadsToAreUnreachable() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("b", line: 2), state("lost", line: 3), state("alsoLost", line: 4)],
                transitions: [
                    row("go", ["a"], "b", line: 10), row("back", ["b"], "a", line: 11),
                    // Reached only from an unreachable state: unreachable too.
                    row("go", ["lost"], "alsoLost", line: 12), row("back", ["alsoLost"], "lost", line: 13),
                ]))
        #expect(warnings.map(\.code) == [.unreachableState, .unreachableState])
        #expect(warnings.map(\.position) == [at(3), at(4)])
        #expect(warnings[0].message == "state 'lost' cannot be reached from initial state 'a'")
    }

    @Test func aFinalStateNoTransitionLeadsToIsAnUnreachableFinal() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("b", line: 2), state("done", line: 3, isFinal: true)],
                transitions: [row("go", ["a"], "b", line: 10), row("back", ["b"], "a", line: 11)]))
        #expect(warnings.map(\.code) == [.unreachableFinal])
        #expect(warnings.first?.position == at(3))
        #expect(warnings.first?.message.contains("final state 'done' cannot be reached from 'a'") == true)
    }

    @Test func aStateWithNoWayOutIsATrapUnlessFinal() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("stuck", line: 2), state("spinning", line: 3), state("done", line: 4, isFinal: true)],
                transitions: [
                    row("go", ["a"], "stuck", line: 10), row("spin", ["a"], "spinning", line: 11), row("finish", ["a"], "done", line: 12),
                    // Staying, or going to itself, is no way out.
                    row("tick", ["stuck"], nil, line: 13), row("spin", ["spinning"], "spinning", line: 14),
                ]))
        #expect(warnings.map(\.code) == [.trapState, .trapState])
        #expect(warnings.map(\.position) == [at(2), at(3)])
        #expect(warnings[0].message.hasPrefix("state 'stuck' is not final but has no transition to another state"))
    }

    @Test func aRowEveryStateOfWhichAnEarlierUnguardedRowCoversIsShadowed() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("n", .int(0))],
                states: [state("a", line: 1), state("b", line: 2), state("c", line: 3)],
                transitions: [
                    row("go", ["a"], "b", line: 10),
                    row("go", ["b"], "c", line: 11),
                    row("go", ["a", "b"], "c", line: 12),  // shadowed by lines 10 and 11
                    row("go", ["a"], "c", line: 13),  // shadowed by line 10
                    row("back", ["b"], "a", line: 14, when: "n > 0"),
                    row("back", ["b", "c"], "a", line: 15),  // c is not covered, and a guarded row covers nothing
                    row("back", ["c"], "b", line: 16),  // shadowed by line 15
                    row("other", ["a"], "b", line: 17),  // another input's rows do not cover it
                ]))
        #expect(warnings.map(\.code) == [.shadowedTransition, .shadowedTransition, .shadowedTransition])
        #expect(warnings.map(\.position) == [at(12, 5), at(13, 5), at(16, 5)])
        #expect(warnings[0].message.contains("earlier unguarded ones (lines 10, 11) cover every state"))
        #expect(warnings[1].message.contains("(line 10)"))
        #expect(warnings[2].message.contains("(line 15)"))
    }

    @Test func aPatternIsShadowedOnlyWhenEveryInputItMatchesIs() throws {
        let machine = MachineDefinition(
            name: "m", initial: "a",
            inputs: [InputDeclaration("x"), InputDeclaration("y"), InputDeclaration("z")],
            states: [state("a", line: 1), state("b", line: 2)],
            transitions: [
                row("x", ["a"], "b", line: 10),
                row("y", ["a"], "b", line: 11),
                row("*", ["a"], "a", line: 12),  // a fallback for z: x and y are taken earlier
                row("*", ["b"], "a", line: 13),
                row("*", ["b"], "b", line: 14),  // every input from b is taken by line 13
                row("*", ["a", "b"], "a", line: 15),  // x and y by lines 10 and 11, z by 12 and 13
            ])
        let warnings = try lint(machine)
        #expect(warnings.map(\.position) == [at(14, 5), at(15, 5)])
        #expect(
            warnings[0].message
                == "this '*' transition can never be taken: an earlier unguarded one (line 13) covers every input it matches, from every state it leaves from"
        )
        #expect(warnings[1].message.contains("earlier unguarded ones (lines 10, 11, 12, 13) cover every input it matches"))
    }

    @Test func aStatechartsPatternIsShadowedOnlyWhenEveryInputItMatchesIs() throws {
        let machine = MachineDefinition(
            name: "m", initial: "on",
            inputs: [InputDeclaration("x"), InputDeclaration("y")],
            states: [
                StateDeclaration(Named("on", at: at(1)), children: [state("idle", line: 2), state("busy", line: 3)]),
                state("off", line: 4),
            ],
            transitions: [
                row("x", ["idle"], "busy", line: 10),
                row("*", ["idle"], "off", line: 11),  // y still leaves idle this way
                row("*", ["busy"], "off", line: 12),
                row("*", ["busy"], "idle", line: 13),  // shadowed by line 12 for x and y
                row("x", ["off"], "on", line: 14),
            ])
        let warnings = try lint(machine)
        #expect(warnings.map(\.position) == [at(13, 5)])
        #expect(warnings.first?.message.hasPrefix("this '*' transition can never be taken: an earlier unguarded one (line 12)") == true)
    }

    @Test func aDeclaredInputNoRowUsesIsUnused() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                inputs: [InputDeclaration(Named("go", at: at(5))), InputDeclaration(Named("never", at: at(6))), InputDeclaration(Named("sent", at: at(7)))],
                states: [state("a", line: 1), state("b", line: 2)],
                // Sending an input does not use it: with no row, it is always rejected.
                effects: [EffectDefinition("sendIt", sends: [.init("sent")])],
                transitions: [row("go", ["a"], "b", line: 10, ["sendIt"]), row("go", ["b"], "a", line: 11)]))
        #expect(warnings.map(\.code) == [.unusedInput, .unusedInput])
        #expect(warnings.map(\.position) == [at(6), at(7)])
        #expect(warnings[0].message == "input 'never' is declared but no transition uses it; it is always rejected")
    }

    @Test func inputsTakenFromRowsAreNeverUnused() throws {
        // Without an `inputs:` list, the inputs are the rows' own.
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a", states: [state("a", line: 1), state("b", line: 2)],
                transitions: [row("go", ["a"], "b", line: 10), row("go", ["b"], "a", line: 11)]))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func effectsThatSendAroundACycleAreAPossibleLivelock() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("b", line: 2, entry: ["enterB"])],
                effects: [
                    EffectDefinition(Named("sendPong", at: at(20)), sends: [.init("pong")]),
                    EffectDefinition(Named("sendPing", at: at(21)), sends: [.init("ping")]),
                    EffectDefinition(Named("enterB", at: at(22)), sends: [.init("again")]),
                ],
                transitions: [
                    row("ping", ["a"], nil, line: 10, ["sendPong"]), row("pong", ["a"], nil, line: 11, ["sendPing"]),
                    // An entry effect that sends the input that enters its state again.
                    row("again", ["a", "b"], "b", line: 12), row("back", ["b"], "a", line: 13),
                ]))
        #expect(warnings.map(\.code) == [.sendCycle, .sendCycle])
        #expect(warnings.map(\.position) == [at(20), at(22)])
        #expect(warnings[0].message.contains("'ping' (sendPong sends) -> 'pong' (sendPing sends) -> 'ping'"), "\(warnings[0].message)")
        #expect(warnings[1].message.contains("'again' (enterB sends) -> 'again'"), "\(warnings[1].message)")
    }

    @Test func aChainOfSendsIsNoCycle() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("b", line: 2)],
                effects: [EffectDefinition("sendSecond", sends: [.init("second")]), EffectDefinition("sendThird", sends: [.init("third")])],
                transitions: [
                    row("first", ["a"], nil, line: 10, ["sendSecond"]), row("second", ["a"], nil, line: 11, ["sendThird"]),
                    row("third", ["a"], "b", line: 12), row("back", ["b"], "a", line: 13),
                ]))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func warningsComeInFileOrder() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                inputs: [InputDeclaration(Named("go", at: at(30))), InputDeclaration(Named("unused", at: at(31)))],
                states: [state("a", line: 1), state("b", line: 2), state("orphan", line: 3)],
                transitions: [row("go", ["a"], "b", line: 10), row("go", ["a"], "a", line: 11), row("go", ["orphan", "b"], "a", line: 12)]))
        #expect(warnings.map(\.code) == [.unreachableState, .shadowedTransition, .unusedInput])
        #expect(warnings.map(\.position) == [at(3), at(11, 5), at(31)])
    }

    @Test func anEffectRunButNotDeclaredWarnsWhereEffectsAreDeclared() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("ticks", .int(0))],
                states: [
                    StateDeclaration(Named("a", at: at(1)), entry: [Named("notify", at: at(1, 20))], exit: [Named("leve", at: at(1, 30))]),
                    state("b", line: 2),
                ],
                effects: [
                    EffectDefinition(Named("countTick", at: at(5)), assignments: [.init("ticks", "ticks + 1")]),
                    EffectDefinition(Named("notify", at: at(6))),  // a hook, declared
                    EffectDefinition(Named("leave", at: at(7))),
                ],
                transitions: [
                    row("tick", ["a"], nil, line: 10, [Named("countTik", at: at(10, 20))]),
                    row("go", ["a"], "b", line: 11, [Named("notify", at: at(11, 20))]), row("back", ["b"], "a", line: 12),
                ]))
        #expect(warnings.map(\.code) == [.undeclaredEffect, .unusedEffect, .unusedEffect, .undeclaredEffect])
        #expect(warnings.map(\.position) == [at(1, 30), at(5), at(7), at(10, 20)])
        #expect(warnings[0].message.hasPrefix("state 'a' (exit) runs effect 'leve', which is not declared under 'effects' (did you mean 'leave'?)"))
        #expect(warnings[1].message == "effect 'countTick' is declared but no transition or state runs it")
        #expect(warnings[3].message.hasPrefix("this 'tick' transition runs effect 'countTik', which is not declared under 'effects' (did you mean 'countTick'?)"))
    }

    @Test func hooksNeedNoDeclarationWhereNoEffectIsDeclared() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a", states: [StateDeclaration("a", entry: ["enterA"]), state("b", line: 2)],
                transitions: [row("go", ["a"], "b", line: 10, ["notify"]), row("back", ["b"], "a", line: 11)]))
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func aTransitionFromAFinalStateWarnsAndLeadsNowhere() throws {
        let warnings = try lint(
            MachineDefinition(
                name: "m", initial: "a",
                states: [state("a", line: 1), state("revived", line: 2), state("done", line: 3, isFinal: true)],
                transitions: [
                    row("finish", ["a"], "done", line: 10),
                    TransitionDefinition(
                        Named("revive", at: at(11, 5)), from: .states([Named("done", at: at(11, 15))]), to: "revived", at: at(11, 5)),
                    TransitionDefinition(
                        Named("poke", at: at(12, 5)), from: .states([Named("a", at: at(12, 12)), Named("done", at: at(12, 15))]), to: nil,
                        at: at(12, 5)),
                    row("back", ["revived"], "a", line: 13),
                    // `*` leaves from non-final states only: no warning.
                    TransitionDefinition("reset", from: .anyNonFinal(at(14, 13)), to: "a", at: at(14, 5)),
                ]))
        #expect(warnings.map(\.code) == [.unreachableState, .fromFinalState, .fromFinalState])
        #expect(warnings.map(\.position) == [at(2), at(11, 15), at(12, 15)])
        #expect(warnings[1].message == "this 'revive' transition leaves from final state 'done', which accepts no input; it can never be taken from there")
    }
}
