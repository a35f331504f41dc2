import Testing

/// Inputs sent by effects run after the current transition, first in first out, before the next
/// external input, each with its own result; a step limit stops a livelock (docs/semantics.md).
@Suite struct RunToCompletionTests {
    @Test func sentInputsRunFirstInFirstOutBeforeTheNextExternalInput() throws {
        let run = try Smrun.run(fixture: "send-fifo.yaml", script: "start\nfirst\n", ["--format", "json"])
        let results = try run.jsonLines()
        #expect(results.map { $0["input"] as? String } == ["start", "first", "second", "nested", "first", "nested"])
        #expect(results.map { $0["sent_by"] as? String } == [nil, "fanOut", "fanOut", "markFirst", nil, "markFirst"])
        #expect(results.map { JSONValue.int($0["line"]) } == [1, 1, 1, 1, 2, 2])
        #expect(results.map { ($0["context"] as? [String: Any])?["trail"] as? String } == ["", "1", "12", "12n", "12n1", "12n1n"])
        #expect(JSONValue.int(results[2]["arg"]) == 2)
        #expect(run.exited(0))
    }

    @Test func sentInputsAreIndentedInText() throws {
        let run = try Smrun.run(fixture: "send-fifo.yaml", script: "start\n")
        #expect(run.lines == [
            "start: idle -> busy / fanOut",
            "  first (sent by fanOut): busy -> busy / markFirst",
            "  second 2 (sent by fanOut): busy -> busy / markSecond",
            "  nested (sent by markFirst): busy -> busy / markNested",
        ])
    }

    @Test func inputsSentAtStartRunBeforeTheFirstExternalInput() throws {
        let run = try Smrun.run(fixture: "start-sends-input.yaml", script: "reboot\n", ["--format", "json"])
        let results = try run.jsonLines()
        try #require(results.count == 4)
        #expect(JSONValue.bool(results[0]["start"]) == true)
        #expect(JSONValue.int((results[0]["context"] as? [String: Any])?["boots"]) == 1)
        #expect(results[1]["input"] as? String == "finishBoot")
        #expect(results[1]["sent_by"] as? String == "boot")
        #expect(results[1]["line"] == nil)
        #expect(results[1]["to"] as? String == "ready")
        #expect(results[2]["input"] as? String == "reboot")
        #expect(JSONValue.int(results[3]["line"]) == 1)
        #expect(JSONValue.int((results[3]["context"] as? [String: Any])?["boots"]) == 2)
        #expect(run.exited(0))
    }

    @Test func livelockHitsTheDefaultStepLimit() throws {
        let run = try Smrun.run(fixture: "livelock.yaml", script: "tick\nrest\n", ["--format", "json"])
        let results = try run.jsonLines()
        // The external tick, 10,000 queued ticks, the step-limit result, then the next line.
        try #require(results.count == 10_003)
        #expect(results[1...10_000].allSatisfy { JSONValue.bool($0["ok"]) == true && $0["sent_by"] as? String == "again" })
        let limit = results[10_001]
        #expect(limit["error"] as? String == "step-limit")
        #expect(limit["sent_by"] as? String == "again")
        // 2 sent by the external tick + 2 by each of 10,000 queued ones, less the 10,001 taken.
        #expect((limit["message"] as? String)?.contains("10001 more queued inputs were discarded") == true, "\(limit)")
        #expect(results[10_002]["input"] as? String == "rest")
        #expect(JSONValue.bool(results[10_002]["ok"]) == true)
        #expect(run.exited(1))
    }

    @Test func maxStepsLowersTheLimit() throws {
        let run = try Smrun.run(fixture: "livelock.yaml", script: "tick\nrest\n", ["--max-steps", "5"])
        let lines = run.lines
        try #require(lines.count == 8)
        #expect(lines[1...5].allSatisfy { $0 == "  tick (sent by again): spinning -> spinning / again" })
        #expect(lines[6].hasPrefix("  line 1: tick (sent by again): spinning: rejected: step-limit: "))
        #expect(lines[6].contains("more than 5 queued inputs"))
        #expect(lines[6].contains("6 more queued inputs were discarded"))
        #expect(lines[7] == "rest: spinning -> spinning")
        #expect(run.exited(1))
    }
}
