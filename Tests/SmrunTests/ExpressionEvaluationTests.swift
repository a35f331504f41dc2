import Testing

/// Guards and `set` values evaluated at run time (docs/machine-files.md, docs/semantics.md), seen through the context
/// that JSON results carry.
@Suite struct ExpressionEvaluationTests {
    private func context(_ result: [String: Any]) -> [String: Any]? { result["context"] as? [String: Any] }

    @Test func runTimeFailureLeavesStateAndContextUnchanged() throws {
        let run = try Smrun.run(
            fixture: "division-by-zero.yaml",
            script: "split 0\npeek\ncheck 0\npeek\nscale 9223372036854775807\npeek\n", ["--format", "json"])
        let results = try run.jsonLines()
        try #require(results.count == 6)
        for failed in [results[0], results[2], results[4]] {
            #expect(failed["error"] as? String == "expression-error")
            #expect(failed["from"] as? String == "ready")
        }
        #expect((results[0]["message"] as? String)?.contains("division by zero") == true)
        #expect((results[4]["message"] as? String)?.contains("overflow") == true)
        for peek in [results[1], results[3], results[5]] {
            #expect(peek["from"] as? String == "ready")
            #expect(JSONValue.int(context(peek)?["total"]) == 100)
            #expect(JSONValue.bool(context(peek)?["touched"]) == false)
        }
        #expect(run.exited(1))
    }

    @Test func integerDivisionTruncatesTowardZero() throws {
        let run = try Smrun.run(fixture: "division-by-zero.yaml", script: "split -7\n", ["--format", "json"])
        let result = try #require(try run.jsonLines().first)
        #expect(result["to"] as? String == "done")
        #expect(JSONValue.int(context(result)?["total"]) == -14)
        #expect(JSONValue.bool(context(result)?["touched"]) == true)
    }

    @Test func setAssignsInWrittenOrderAndJoinsStrings() throws {
        let forward = try #require(try Smrun.run(fixture: "set-in-written-order.yaml", script: "forward\n", ["--format", "json"]).jsonLines().first)
        #expect(JSONValue.int(context(forward)?["a"]) == 10)
        #expect(JSONValue.int(context(forward)?["b"]) == 11)
        #expect(context(forward)?["log"] as? String == "a=set")

        let backward = try #require(try Smrun.run(fixture: "set-in-written-order.yaml", script: "backward\n", ["--format", "json"]).jsonLines().first)
        #expect(JSONValue.int(context(backward)?["a"]) == 20)
        #expect(JSONValue.int(context(backward)?["b"]) == 2)
    }

    @Test(arguments: [("3.5", "heavy"), ("3.1", "heavy"), ("4", "heavy"), ("3.0", "light"), ("2.5", "light")])
    func intsAndDoublesCompareAsNumbers(weight: String, target: String) throws {
        let run = try Smrun.run([Paths.fixture("int-double-comparison.yaml"), "--format", "json", "--send", "weigh=\(weight)"])
        let result = try #require(try run.jsonLines().first)
        #expect(result["to"] as? String == target)
        #expect(JSONValue.double(result["arg"]) == Double(weight))
    }
}
