import Testing

/// In a final state every input is `finished` (docs/semantics.md), yet an unknown name or a bad
/// argument is still reported as such, being checked first.
@Suite struct FinalStateTests {
    @Test func inputsInAFinalStateAreFinished() throws {
        let run = try Smrun.run(fixture: "final-state.yaml", script: "finish\nfinish\nrestart\n", ["--format", "json"])
        let results = try run.jsonLines()
        #expect(results.map { $0["error"] as? String } == [nil, "finished", "finished"])
        #expect(results.map { $0["from"] as? String } == ["running", "done", "done"])
        #expect(run.exited(1))
    }

    @Test func unknownInputAndBadArgumentAreStillReportedAsSuch() throws {
        let run = try Smrun.run(fixture: "final-state.yaml", script: "finish\nfinsh\nfinish now\n")
        #expect(run.lines == [
            "finish: running -> done",
            "line 2: finsh: done: rejected: unknown-input: unknown input 'finsh' (did you mean 'finish'?)",
            "line 3: finish: done: rejected: bad-argument: 'finish' takes no argument, got \"now\"",
        ])
        #expect(run.exited(1))
    }
}
