import Testing

/// Effect bodies as lists of steps, end to end (docs/semantics.md#effect-steps): branches, loops,
/// log lines on standard error, and the external queue.
@Suite struct EffectStepsTests {
    static let fixture = "effect-steps.yaml"

    @Test func branchesChooseByTheArgumentAndLogLinesGoToStandardError() throws {
        let run = try Smrun.run(fixture: Self.fixture, script: "measure 3\nmeasure 7\nmeasure 12\nspell \"abc\"\n")
        #expect(run.lines == [
            "measure 3: idle -> idle / classify",
            "measure 7: idle -> idle / classify",
            "measure 12: idle -> idle / classify",
            "spell \"abc\": idle -> idle / spellOut",
        ])
        #expect(run.errorText == "log: size: \"small\"\nlog: size: \"medium\"\nlog: size: \"big\"\nlog: spelled\n")
        #expect(run.exited(0))
    }

    @Test func foreachAssignsEachCharacterAndItsIndex() throws {
        let run = try Smrun.run(fixture: Self.fixture, script: "spell \"héllo\"\n", ["--format", "json"])
        let context = try #require(try run.jsonLines().first?["context"] as? [String: Any])
        #expect(context["letters"] as? String == "h0é1l2l3o4")
        #expect(JSONValue.int(context["total"]) == 5)
        #expect(context["letter"] as? String == "o")
        #expect(JSONValue.int(context["position"]) == 4)
    }

    @Test func aForeachPastTheStepLimitIsAnExpressionErrorThatChangesNothing() throws {
        let run = try Smrun.run(fixture: Self.fixture, script: "spell \"abc\"\n", ["--max-steps", "2"])
        #expect(run.lines == [
            "line 1: spell \"abc\": idle: rejected: expression-error: foreach over 3 items passes the step limit of 2 in 'arg' of effect 'spellOut'; nothing changed"
        ])
        #expect(run.errorText == "", "the log step after the loop never ran")
        #expect(run.exited(1))
    }

    @Test func anExternalSendRunsAfterTheInternalOnesBeforeTheNextLine() throws {
        let run = try Smrun.run(fixture: Self.fixture, script: "chain\nchain\n", ["--format", "json"])
        let results = try run.jsonLines()
        #expect(results.map { $0["input"] as? String } == ["chain", "inner", "outer", "chain", "inner", "outer"])
        #expect(results.map { ($0["context"] as? [String: Any])?["trail"] as? String } == ["c", "ci", "cio", "cioc", "cioci", "ciocio"])
    }

    @Test func aStatechartsExternalSendWaitsForEventlessTransitionsAndLogsToStandardError() throws {
        let run = try Smrun.run(["Tests/SmrunTests/Fixtures/effect-steps-chart.yaml", "--send", "go"])
        #expect(run.lines == [
            "go: a -> a / fanOut",
            "  inner (sent by fanOut): a -> b / markInner",
            "  (eventless): b -> c",
            "  outer (sent by fanOut): c -> c / markOuter",
        ])
        #expect(run.errorText == "log: trail: \"ic\"\n")
        #expect(run.exited(0))
    }
}
