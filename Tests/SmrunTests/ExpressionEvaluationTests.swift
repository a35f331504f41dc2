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

    /// `{ x: y, y: x }` is not a swap: `y` reads the `x` just set, so both end as `y` was. A swap
    /// goes through a temporary variable: `{ t: x, x: y, y: t }`.
    @Test func setIsNotSimultaneousSoSwapThroughATemporary() throws {
        let naive = try #require(try Smrun.run(fixture: "set-in-written-order.yaml", script: "swapNaively\n", ["--format", "json"]).jsonLines().first)
        #expect(JSONValue.int(context(naive)?["x"]) == 2)
        #expect(JSONValue.int(context(naive)?["y"]) == 2)
        let swapped = try #require(try Smrun.run(fixture: "set-in-written-order.yaml", script: "swap\n", ["--format", "json"]).jsonLines().first)
        #expect(JSONValue.int(context(swapped)?["x"]) == 2)
        #expect(JSONValue.int(context(swapped)?["y"]) == 1)
    }

    /// Functions convert, bound and measure values; a failed conversion is an `expression-error`
    /// that changes nothing; guards written in rows select as in the mapping form.
    @Test func functionsAndRowGuardsEndToEnd() throws {
        let script = """
            setLimit 2
            fail
            add 2.5
            report
            add 1e3
            add lots
            setLimit two
            setLimit -4
            greet Zoë
            greet Roberta
            greet everyone
            report
            fail

            """
        let text = try Smrun.run(fixture: "functions-and-row-guards.yaml", script: script)
        #expect(text.lines == [
            "setLimit \"2\": trying -> trying / parseLimit",
            "fail: trying -> trying / countRetry",
            "add \"2.5\": trying -> trying / addAmount",
            "report: trying -> trying / describe",
            "add \"1e3\": trying -> trying / addAmount",
            "line 6: add \"lots\": trying: rejected: expression-error: cannot convert \"lots\" to double (not a finite decimal number) in 'min(total + double(arg), 100)' of effect 'addAmount'; nothing changed",
            "line 7: setLimit \"two\": trying: rejected: expression-error: cannot convert \"two\" to int (not a decimal integer) in 'max(int(arg), 1)' of effect 'parseLimit'; nothing changed",
            "setLimit \"-4\": trying -> trying / parseLimit",
            "greet \"Zoë\": trying -> trying",
            "line 10: greet \"Roberta\": trying: rejected: guard-rejected: every guard of 'greet' from 'trying' is false: 'len(arg) <= 5 || arg == \"everyone\"' (arg = \"Roberta\")",
            "greet \"everyone\": trying -> trying",
            "report: trying -> trying / describe",
            "fail: trying -> gaveUp / countRetry, giveUp",
        ])
        #expect(text.exited(1))
        let results = try Smrun.run(fixture: "functions-and-row-guards.yaml", script: script, ["--format", "json"]).jsonLines()
        try #require(results.count == 13)
        #expect(context(results[3])?["message"] as? String == "2.5 of 100, 1 tries left")
        #expect(JSONValue.double(context(results[4])?["total"]) == 100, "min() caps the total")
        #expect(JSONValue.int(context(results[7])?["limit"]) == 1, "max() keeps the limit at least 1")
        #expect(context(results[11])?["message"] as? String == "100.0 of 100, 0 tries left", "a whole double prints as smrun prints it")
        #expect(context(results[12])?["message"] as? String == "gave up after 2 retries")
    }

    @Test(arguments: [("3.5", "heavy"), ("3.1", "heavy"), ("4", "heavy"), ("3.0", "light"), ("2.5", "light")])
    func intsAndDoublesCompareAsNumbers(weight: String, target: String) throws {
        let run = try Smrun.run([Paths.fixture("int-double-comparison.yaml"), "--format", "json", "--send", "weigh=\(weight)"])
        let result = try #require(try run.jsonLines().first)
        #expect(result["to"] as? String == target)
        #expect(JSONValue.double(result["arg"]) == Double(weight))
    }
}
