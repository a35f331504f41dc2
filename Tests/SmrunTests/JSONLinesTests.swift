import Foundation
import Testing

/// `--format json` prints one JSON object per result with the fields listed in docs/cli.md.
@Suite struct JSONLinesTests {
    private func runExample(_ machine: String, script: String) throws -> (SmrunOutput, [[String: Any]]) {
        let run = try Smrun.run(
            ["machines/\(machine).yaml", "--format", "json"],
            input: .file(Paths.machines.appendingPathComponent(script)))
        #expect(run.errorText == "")
        return (run, try run.jsonLines())
    }

    @Test func carResultsCarryLineTypedArgumentStatesEffectsAndContext() throws {
        let (run, results) = try runExample("self-driving-car", script: "self-driving-car.script")
        #expect(run.exited(1))
        try #require(results.count == 10)
        // Comments and the blank line are skipped but counted.
        #expect(results.map { JSONValue.int($0["line"]) } == [2, 3, 4, 5, 6, 7, 8, 9, 11, 13])

        let entered = results[4]
        #expect(entered["input"] as? String == "passengersHaveEntered")
        #expect(JSONValue.int(entered["arg"]) == 4)
        #expect(JSONValue.bool(entered["ok"]) == true)
        #expect(entered["from"] as? String == "pickingUpPassengers")
        #expect(entered["to"] as? String == "pickingUpPassengers")
        #expect(entered["effects"] as? [String] == ["pickedUpPassengers"])
        #expect(JSONValue.int((entered["context"] as? [String: Any])?["passengers"]) == 4)

        let drive = results[5]
        #expect(drive["arg"] as? String == "The Witches Brew")
        #expect((drive["context"] as? [String: Any])?["location"] as? String == "The Witches Brew")

        let startEngine = results[0]
        #expect(startEngine["arg"] == nil)
        #expect(startEngine["effects"] as? [String] == [])
        #expect((startEngine["context"] as? [String: Any])?["location"] is NSNull)
        #expect(startEngine["sent_by"] == nil)

        let refused = results[8]
        #expect(refused["input"] as? String == "noMapInput")
        #expect(JSONValue.bool(refused["ok"]) == false)
        #expect(refused["from"] as? String == "droppingOffPassengers")
        #expect(refused["error"] as? String == "no-transition")
        #expect((refused["message"] as? String)?.contains("noMapInput") == true)
        #expect(refused["to"] == nil)
    }

    /// Over a run whose output is written out many times, every result keeps its own line
    /// number (counting past 9, 99, ... and over skipped lines) and its own context, also when
    /// the context stays the same across many write-outs.
    @Test func lineNumbersAndContextStayRightOverALongRun() throws {
        var script = "startEngine\npickUpPassengers\n"
        var expected: [(line: Int, passengers: Int)] = []
        var line = 2
        for index in 0..<30_000 {
            if index % 97 == 0 {
                script += "# \(String(repeating: "-", count: index % 50))\n"
                line += 1
            }
            let passengers = (index &* 7919) % 100_003
            script += "passengersHaveEntered \(passengers)\n"
            line += 1
            expected.append((line, passengers))
        }
        for _ in 0..<30_000 {
            script += "noFailInput\n"
            line += 1
            expected.append((line, expected[expected.count - 1].passengers))
        }
        let run = try Smrun.run(["machines/self-driving-car.yaml", "--format", "json"], input: .bytes(Data(script.utf8)))
        #expect(run.exited(0))
        let results = Array(try run.jsonLines().dropFirst(2))
        try #require(results.count == expected.count)
        for (result, expected) in zip(results, expected) {
            #expect(JSONValue.int(result["line"]) == expected.line)
            #expect(JSONValue.int((result["context"] as? [String: Any])?["passengers"]) == expected.passengers)
        }
    }

    @Test func queuedResultsNameTheEffectThatSentThemAndTheCausingLine() throws {
        let (run, results) = try runExample("app-launcher", script: "app-launcher.upgrade-login.script")
        #expect(run.exited(0))
        try #require(results.count == 7)
        #expect(JSONValue.bool(results[0]["arg"]) == true)
        #expect(results.map { $0["input"] as? String } == [
            "setUpgradePending", "setCanLogIn", "initialize", "upgrade", "indexDatabase", "logIn", "logOut",
        ])
        #expect(results.map { $0["sent_by"] as? String } == [nil, nil, nil, "initialize", "upgrade", "indexDatabase", nil])
        #expect(results.map { JSONValue.int($0["line"]) } == [2, 3, 5, 5, 5, 5, 7])
        #expect(results[4]["effects"] as? [String] == ["indexDatabase", "showLoadingAnimation"])
        for result in results {
            #expect(result["context"] is [String: Any], "accepted result without context: \(result)")
        }
    }

    @Test func startLineAndIgnoredInputs() throws {
        let (run, results) = try runExample("traffic-light", script: "traffic-light.script")
        #expect(run.exited(0))
        try #require(results.count == 9)
        let start = results[0]
        #expect(start["line"] == nil && start["input"] == nil && start["from"] == nil)
        #expect(JSONValue.bool(start["start"]) == true)
        #expect(JSONValue.bool(start["ok"]) == true)
        #expect(start["to"] as? String == "red")
        #expect(start["effects"] as? [String] == ["stop"])

        let ignored = results.filter { JSONValue.bool($0["ignored"]) == true }
        #expect(ignored.map { JSONValue.int($0["line"]) } == [4, 7, 9, 11])
        for result in ignored {
            #expect(JSONValue.bool(result["ok"]) == true)
            #expect(result["from"] as? String != nil)
            #expect(result["from"] as? String == result["to"] as? String)
            #expect(result["effects"] as? [String] == [])
            #expect(result["error"] == nil)
        }
    }
}
