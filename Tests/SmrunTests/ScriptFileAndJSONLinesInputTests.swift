import Foundation
import Testing

/// `smrun MACHINE SCRIPT` reads the input lines from a file (`-`: standard input), and
/// `--input-format jsonl` reads them as JSON Lines; `--machine-format` names the machine file's
/// format, which `--input-format yaml|scxml` still names too (docs/cli.md).
@Suite struct ScriptFileAndJSONLinesInputTests {
    private let car = "machines/self-driving-car.yaml"
    private let carScript = "machines/self-driving-car.script"

    /// A machine whose inputs take each type of argument.
    private static let typed = """
        initial: idle
        context: { count: 0, ratio: 0.0, on: false, label: "" }
        inputs:
          count: int
          ratio: double
          switch: bool
          label: string
          reset:
        states: [idle]
        effects:
          setCount: { set: { count: arg } }
          setRatio: { set: { ratio: arg } }
          setSwitch: { set: { on: arg } }
          setLabel: { set: { label: arg } }
        transitions:
          - count | idle | setCount
          - ratio | idle | setRatio
          - switch | idle | setSwitch
          - label | idle | setLabel
          - reset | idle
        """

    @Test func aScriptFileGivesWhatTheSameLinesOnStandardInputGive() throws {
        let fromStandardInput = try Smrun.run([car], input: .file(Paths.packageRoot.appendingPathComponent(carScript)))
        let fromFile = try Smrun.run([car, carScript])
        #expect(!fromFile.lines.isEmpty)
        #expect(fromFile.lines == fromStandardInput.lines)
        #expect(fromFile.status == fromStandardInput.status)
        let throughRun = try Smrun.run(["run", car, carScript, "--format", "json"])
        #expect(try throughRun.jsonLines().count == fromFile.lines.count)
    }

    @Test func aDashReadsStandardInput() throws {
        let run = try Smrun.run([car, "-"], input: .bytes(Data("startEngine\ndriveAround\n".utf8)))
        #expect(run.lines == ["startEngine: unstarted -> parked", "driveAround: parked -> drivingAround"])
        #expect(run.exited(0))
    }

    @Test func aRejectionNamesItsLineInTheScriptFile() throws {
        let files = try TemporaryFiles()
        let script = try files.file("journey.script", "startEngine\n# a comment\nnoSuchInput\n")
        let run = try Smrun.run([car, script])
        #expect(run.lines.last == "line 3: noSuchInput: parked: rejected: unknown-input: unknown input 'noSuchInput'")
        #expect(run.exited(1))
    }

    @Test func aScriptThatCannotBeReadIsAnErrorBeforeTheMachineStarts() throws {
        let files = try TemporaryFiles()
        let missing = try Smrun.run(["machines/traffic-light.yaml", files.path("missing.script")])
        #expect(missing.exited(2))
        #expect(missing.lines.isEmpty, "the machine started: \(missing.text)")
        #expect(missing.errorText == "smrun: cannot read script '\(files.path("missing.script"))': No such file or directory\n")
        let directory = try Smrun.run(["machines/traffic-light.yaml", files.directory.path])
        #expect(directory.exited(2))
        #expect(directory.lines.isEmpty)
        #expect(directory.errorText.contains("cannot read script '\(files.directory.path)': it is a directory"), "\(directory.errorText)")
    }

    @Test func aScriptAndSendCannotBeGivenTogether() throws {
        let run = try Smrun.run([car, carScript, "--send", "startEngine"])
        #expect(run.exited(2))
        #expect(run.lines.isEmpty)
        #expect(run.errorText.contains("give inputs in the script '\(carScript)' or with --send and --wait, not both"), "\(run.errorText)")
    }

    @Test func aTooLongLineNamesTheScriptFile() throws {
        let files = try TemporaryFiles()
        let script = try files.file("long.script", "startEngine\n" + String(repeating: "x", count: 200) + "\ndriveAround\n")
        let run = try Smrun.run([car, script, "--max-line-bytes", "100"])
        #expect(run.errorText.contains("smrun: \(script) line 2: 200 bytes, longer than --max-line-bytes 100; line skipped"), "\(run.errorText)")
        #expect(run.lines.count == 2)
        #expect(run.exited(1))
    }

    // MARK: - JSON Lines

    @Test func jsonLinesSendInputsWithArgumentsOfEveryType() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("typed.yaml", Self.typed)
        let lines = [
            #"{"input": "count", "arg": -12}"#, "", #"{"arg": 2.5e1, "input": "ratio"}"#, #"  {"input":"switch","arg":true}  "#,
            #"{"input": "label", "arg": "caf\u00e9 # not a comment"}"#, #"{"input": "reset", "arg": null}"#, #"{"input": "reset"}"#,
        ]
        let run = try Smrun.run([machine, "--input-format", "jsonl", "--format", "json"], input: .bytes(Data(lines.joined(separator: "\r\n").utf8)))
        let results = try run.jsonLines()
        #expect(results.map { JSONValue.int($0["line"]) } == [1, 3, 4, 5, 6, 7])
        #expect(results.allSatisfy { JSONValue.bool($0["ok"]) == true }, "\(run.text)")
        let context = try #require(results.last?["context"] as? [String: Any])
        #expect(JSONValue.int(context["count"]) == -12)
        #expect(JSONValue.double(context["ratio"]) == 25)
        #expect(JSONValue.bool(context["on"]) == true)
        #expect(context["label"] as? String == "café # not a comment")
        #expect(run.exited(0))
    }

    @Test func aWaitLineMovesTheClock() throws {
        let run = try Smrun.run(
            ["machines/timed-traffic-light.yaml", "--input-format", "jsonl"], input: .bytes(Data(#"{"wait": "1m"}"#.utf8)))
        #expect(run.lines == ["start: -> red / stop", "after 30s: red -> green / go", "after 25s: green -> yellow / endCrossing, slow",
            "after 5s: yellow -> red / stop"])
        #expect(run.exited(0))
    }

    /// Each bad line is a `bad-argument` result naming its line, and the run goes on.
    @Test func aBadLineIsABadArgumentResultNamingItsLine() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("typed.yaml", Self.typed)
        let cases: [(line: String, input: String, message: String)] = [
            ("reset", "reset", #"not a JSON input line: expected a JSON object, found 'reset' (column 1); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{input: "reset"}"#, #"{input: "reset"}"#, #"not a JSON input line: expected a key in double quotes, found 'input' (column 2); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"input": "count", "arg": "5"}"#, "count", #"'count' takes one int argument, got "5""#),
            (#"{"input": "label", "arg": 5}"#, "label", "'label' takes one string argument, got 5, not a JSON string"),
            (#"{"input": "count", "arg": [5]}"#, "count", "'arg' must be a string, a number, true or false, not a list (column 27)"),
            (#"{"input": "count", "arg": 05}"#, "count", #"not a JSON input line: expected a JSON value for 'arg', found '05' (column 27); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"input": "reset", "args": 1}"#, "reset", #"unknown key 'args' (did you mean 'arg'?) (column 20); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"input": "reset", "input": "count"}"#, "reset", "key 'input' is given twice (column 20)"),
            (#"{"input": "reset"} trailing"#, "reset", #"not a JSON input line: expected the end of the line after the object, found 'trailing' (column 20); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"input": "reset""#, "reset", #"not a JSON input line: the object is not closed: expected ',' or '}' at the end of the line (column 18); write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"arg": 1}"#, #"{"arg": 1}"#, #"'arg' without 'input'; write {"input": NAME, "arg": VALUE} or {"wait": DURATION}"#),
            (#"{"input": 7}"#, #"{"input": 7}"#, "'input' must be a JSON string, the input's name, not '7' (column 11)"),
            (#"{"wait": "5x"}"#, "@wait", #""5x" is not a duration: 'x' is not a unit of duration: ms, s, m or h"#),
            (#"{"wait": "5s", "input": "reset"}"#, "reset", "a line gives either 'input' (with 'arg') or 'wait', not both"),
        ]
        let script = (cases.map(\.line) + [#"{"input": "reset"}"#]).joined(separator: "\n") + "\n"
        let run = try Smrun.run([machine, "--input-format", "jsonl", "--format", "json"], input: .bytes(Data(script.utf8)))
        let results = try run.jsonLines()
        try #require(results.count == cases.count + 1, "\(run.text)")
        for (index, expected) in cases.enumerated() {
            let result = results[index]
            #expect(JSONValue.int(result["line"]) == index + 1)
            #expect(result["input"] as? String == expected.input, "line \(index + 1)")
            #expect(result["error"] as? String == "bad-argument", "line \(index + 1)")
            #expect(result["message"] as? String == expected.message, "line \(index + 1)")
        }
        #expect(JSONValue.bool(results.last?["ok"]) == true)
        #expect(run.exited(1))
        let text = try Smrun.run([machine, "--input-format", "jsonl"], input: .bytes(Data(script.utf8)))
        #expect(text.lines.first == "line 1: reset: idle: rejected: bad-argument: \(cases[0].message)")
        #expect(text.lines[1] == #"line 2: "{input: \"reset\"}": idle: rejected: bad-argument: \#(cases[1].message)"#)
    }

    @Test func aScriptLineIsABadJSONLinesLineAndAJSONLineAnUnknownScriptInput() throws {
        let asJSON = try Smrun.run([car, "--input-format", "jsonl"], input: .bytes(Data("startEngine\n".utf8)))
        #expect(asJSON.lines.first?.hasPrefix("line 1: startEngine: unstarted: rejected: bad-argument: not a JSON input line") == true, "\(asJSON.text)")
        let asScript = try Smrun.run([car, "--input-format", "script"], input: .bytes(Data(#"{"input": "startEngine"}"#.utf8)))
        #expect(asScript.lines.first?.hasPrefix(#"line 1: {"input":: unstarted: rejected: unknown-input"#) == true, "\(asScript.text)")
    }

    @Test func inputFormatNeedsInputLines() throws {
        let run = try Smrun.run([car, "--input-format", "jsonl", "--send", "startEngine"])
        #expect(run.exited(2))
        #expect(run.errorText.contains("--input-format jsonl names the format of input lines, and with --send there are none"), "\(run.errorText)")
    }

    // MARK: - The machine file's format

    @Test func machineFormatNamesTheMachineFilesFormatAndInputFormatStillDoes() throws {
        let files = try TemporaryFiles()
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><transition event=\"go\" target=\"b\"/></state><state id=\"b\"/></scxml>\n"
        let named = try files.file("door.xml", text)
        for flag in ["--machine-format", "--input-format"] {
            let run = try Smrun.run([named, flag, "scxml", "--send", "go"])
            #expect(run.exited(0), "\(flag): \(run.errorText)")
            #expect(run.lines == ["go: a -> b"])
            let fromLines = try Smrun.run([named, flag, "scxml"], input: .bytes(Data("go\n".utf8)))
            #expect(fromLines.lines == ["go: a -> b"], "\(flag)")
            let validated = try Smrun.run(["validate", flag, "scxml", named])
            #expect(validated.exited(0), "\(flag): \(validated.errorText)")
        }
        let jsonLines = try Smrun.run([named, "--machine-format", "scxml", "--input-format", "jsonl"], input: .bytes(Data(#"{"input": "go"}"#.utf8)))
        #expect(jsonLines.lines == ["go: a -> b"], "\(jsonLines.errorText)")
    }

    @Test func disagreeingFormatsAreAUsageError() throws {
        for arguments in [["validate", "--input-format", "scxml", "--machine-format", "yaml", car], [car, "--input-format", "yaml", "--machine-format", "scxml"]] {
            let run = try Smrun.run(arguments)
            #expect(run.exited(2))
            #expect(
                run.errorText.contains("--input-format \(arguments.contains("validate") ? "scxml" : "yaml") and --machine-format"),
                "\(run.errorText)")
        }
    }
}
