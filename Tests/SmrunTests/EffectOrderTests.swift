import Testing

/// Which effects a transition runs, and in what order (docs/semantics.md).
@Suite struct EffectOrderTests {
    @Test func exitThenTransitionThenEntryAndSelfTransitions() throws {
        let run = try Smrun.run(fixture: "effect-order.yaml", script: "go\nagain\nstay\nstayMapped\n")
        #expect(run.lines == [
            "start: -> a / enterA",
            "go: a -> b / exitA, t1, t2, enterB1, enterB2",
            // `=> b` from b: external, so b is exited and entered again.
            "again: b -> b / exitB, t3, enterB1, enterB2",
            // No target (row form, and `to: null`): internal, no exit or entry.
            "stay: b -> b / t4",
            "stayMapped: b -> b / t5",
        ])
        #expect(run.exited(0))
    }

    @Test func initialEntryEffectsGiveTheStartLine() throws {
        let run = try Smrun.run(fixture: "effect-order.yaml", script: "", ["--format", "json"])
        #expect(run.text == #"{"start":true,"ok":true,"to":"a","effects":["enterA"]}"# + "\n")
        #expect(run.exited(0))
    }

    @Test func noStartLineWithoutInitialEntryEffects() throws {
        let run = try Smrun.run(fixture: "final-state.yaml", script: "", ["--format", "json"])
        #expect(run.text == "")
        #expect(run.exited(0))
    }
}
