import Foundation
import Testing

/// `smrun test`: scenario files run against their machines, failures reported as diffs,
/// invalid files refused before running, three output formats, coverage.
struct TestCommandTests {
    static let door = "Tests/SmrunTests/Fixtures/scenarios/door.test.yaml"
    static let doorMachine = Paths.packageRoot.appendingPathComponent("Tests/SmrunTests/Fixtures/scenarios/door.yaml").path

    /// A scenario file in a temporary folder testing the door fixture, with `body` under `scenarios:`.
    static func scenarioFile(_ files: TemporaryFiles, _ body: String, name: String = "door.test.yaml") throws -> String {
        try files.file(name, "machine: \(doorMachine)\nscenarios:\n" + body)
    }

    @Test func passingScenariosExitZeroWithASummary() throws {
        let run = try Smrun.run(["test", Self.door])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines == ["2 passed, 0 failed"])
    }

    /// Each expectation key, made to fail: the report names the step's line and shows the
    /// expected (`-`) and actual (`+`) values.
    @Test(arguments: [
        ("ok: false", "ok: false", "ok: true"),
        ("state: opened", "state: opened", "state: locked"),
        ("states: [opened]", "states: [opened]", "states: [locked]"),
        ("effects: []", "effects: []", "effects: [engageBolt]"),
        ("effects: [engageBolt, releaseBolt]", "effects: [engageBolt, releaseBolt]", "effects: [engageBolt]"),
        ("context: { attempts: 1 }", "context.attempts: 1", "context.attempts: 0"),
        ("error: no-transition", "error: no-transition", "error: none"),
        ("sent: [{ input: lock }]", "sent: [{input: lock}]", "sent: []"),
        ("finished: true", "finished: true", "finished: false"),
    ])
    func eachExpectationKeyReportsItsMismatch(_ expectation: String, _ expected: String, _ actual: String) throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: locking
                steps:
                  - send: lock
                    expect: { \(expectation) }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1), "\(run.text)\(run.errorText)")
        #expect(
            run.lines == [
                "FAIL \(path):3: locking", "  step 1 at \(path):5: send lock", "    - \(expected)", "    + \(actual)", "  inputs: lock",
                "0 passed, 1 failed",
            ])
    }

    @Test func aFailingStepStopsItsScenarioAndShowsTheInputHistory() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: wrong code
                steps:
                  - send: lock
                  - send: { input: unlock, arg: "0000" }
                    expect: { state: closed, context: { attempts: 1 } }
                  - send: open
                    expect: { state: opened }
              - name: passes
                steps:
                  - send: open
                    expect: { state: opened }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1))
        #expect(
            run.lines == [
                "FAIL \(path):3: wrong code", "  step 2 at \(path):6: send unlock \"0000\"", "    - state: closed", "    + state: locked",
                "  inputs: lock, unlock \"0000\"", "1 passed, 1 failed",
            ])
    }

    @Test func queuedResultsAreMatchedOnTheFieldsTheyName() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: slamming latches the lock
                state: opened
                steps:
                  - send: slam
                    expect: { state: locked, effects: [latch, engageBolt], sent: [{ input: lock, state: locked }] }
                  - send: smash
                    expect: { state: broken, finished: true, sent: [] }
                  - send: open
                    expect: { ok: false, error: finished }
              - name: wrong queued state
                state: opened
                steps:
                  - send: slam
                    expect: { sent: [{ state: closed }] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1))
        #expect(run.lines.contains("    - sent: [{state: closed}]"), "\(run.text)")
        #expect(run.lines.contains("    + sent: [{input: lock, state: locked}]"), "\(run.text)")
        #expect(run.lines.last == "1 passed, 1 failed")
    }

    @Test func aCheckAloneSeesTheStartAndContextStartsTheMachine() throws {
        let files = try TemporaryFiles()
        _ = try files.file(
            "lamp.yaml",
            """
            initial: on
            context: { level: 0.5 }
            inputs: [toggle]
            states: { on: { entry: [glow] }, off: }
            transitions: [toggle | on => off, toggle | off => on]
            """)
        let path = try files.file(
            "lamp.test.yaml",
            """
            machine: lamp.yaml
            scenarios:
              - name: starts glowing
                context: { level: 1 }
                steps:
                  - expect: { ok: true, state: on, effects: [glow], context: { level: 1.0 } }
                  - expect: { effects: [] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
    }

    /// Unknown names, bad types and unknown keys are reported with file:line:col before anything runs.
    @Test func invalidScenariosAreRefusedBeforeRunning() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: invalid
                state: lockd
                context: { attempts: "three", atempts: 1 }
                steps:
                  - send: { input: unlock, arg: 1234 }
                    expect: { stat: locked, effects: [engageBlot], error: no-transtion }
                  - send: opne
                  - wait: 30sec
                  - send: lock
                    expect: { sent: [{ input: lok }] }
              - name: never runs
                steps:
                  - send: lock
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(2))
        #expect(run.stdout.isEmpty, "\(run.text)")
        let expected = [
            (4, 12, "undefined-state", "no state 'lockd' (did you mean 'locked'?)"),
            (5, 26, "argument-type", "context variable 'attempts' holds an int, not a string \"three\""),
            (5, 35, "undefined-variable", "no context variable 'atempts' (did you mean 'attempts'?)"),
            (7, 37, "argument-type", "input 'unlock' takes a string argument, not an int 1234"),
            (8, 19, "unknown-key", "unknown key 'stat' in 'expect' (did you mean 'state'?)"),
            (8, 43, "invalid-value", "no effect 'engageBlot' (did you mean 'engageBolt'?)"),
            (8, 63, "invalid-value", "'error' is a rejection kind, not 'no-transtion' (did you mean 'no-transition'?)"),
            (9, 15, "undefined-input", "no input 'opne' (did you mean 'open'?)"),
            (10, 17, "invalid-value", "'30sec' is not a duration for 'wait': 'sec' is not a unit of duration: ms, s, m or h"),
            (12, 35, "undefined-input", "no input 'lok' (did you mean 'lock'?)"),
        ]
        for (line, column, code, message) in expected {
            let found = run.diagnostic(path, line, column, code)
            #expect(found?.contains(message) == true, "\(line):\(column) \(code): \(found ?? "missing") in\n\(run.errorText)")
        }
        #expect(run.errorLines.count == expected.count, "\(run.errorText)")
    }

    @Test func anInvalidOrMissingMachineIsReportedWhereTheScenarioFileNamesIt() throws {
        let files = try TemporaryFiles()
        let missing = try files.file("a.test.yaml", "machine: nowhere.yaml\nscenarios: []\n")
        let run = try Smrun.run(["test", missing])
        #expect(run.exited(2))
        #expect(run.diagnostic(missing, 1, 10, "unreadable-file")?.contains("nowhere.yaml") == true, "\(run.errorText)")

        _ = try files.file("broken.yaml", "initial: a\nstates: [a]\ntransitions: [go | a => b]\n")
        let broken = try files.file("b.test.yaml", "machine: broken.yaml\nscenarios: []\n")
        let second = try Smrun.run(["test", broken])
        #expect(second.exited(2))
        #expect(second.errorLines.contains { $0.hasPrefix(files.path("broken.yaml") + ":3:") }, "\(second.errorText)")
        #expect(second.diagnostic(broken, 1, 10, "invalid-value") != nil, "\(second.errorText)")
    }

    @Test func schemaErrorsHavePositions() throws {
        let files = try TemporaryFiles()
        let cases: [(String, Int, Int, String)] = [
            ("", 1, 1, "missing-key"),
            ("- a\n", 1, 1, "wrong-kind"),
            ("machine: door.yaml\nscenarios: []\nmachine: x\n", 3, 1, "duplicate-key"),
            ("machine: door.yaml\nscenario: []\n", 2, 1, "unknown-key"),
            ("machine: door.yaml\nscenarios:\n  - steps: []\n", 3, 5, "missing-key"),
            ("machine: door.yaml\nscenarios:\n  - name: x\n    steps: [{ expect: { ok: maybe } }]\n", 4, 29, "wrong-kind"),
            ("machine: door.yaml\nscenarios:\n  - name: x\n    steps: [{ send: { input: a, arg: { a: 1 } } }]\n", 4, 38, "wrong-kind"),
            ("machine: door.yaml\nscenarios:\n  - name: x\n    steps: [{}]\n", 4, 13, "missing-key"),
        ]
        for (index, (text, line, column, code)) in cases.enumerated() {
            let path = try files.file("case\(index).test.yaml", text)
            let run = try Smrun.run(["test", path])
            #expect(run.exited(2), "\(text)")
            #expect(run.diagnostic(path, line, column, code) != nil, "\(text): \(run.errorText)")
        }
    }

    @Test func directoriesAreSearchedAndNothingFoundIsAnError() throws {
        let files = try TemporaryFiles()
        let empty = try Smrun.run(["test", files.directory.path])
        #expect(empty.exited(2))
        #expect(empty.errorText == "smrun test: no *.test.yaml files under directory '\(files.directory.path)'\n")

        try FileManager.default.createDirectory(at: files.directory.appendingPathComponent("sub/.hidden"), withIntermediateDirectories: true)
        _ = try Self.scenarioFile(files, "  - name: a\n    steps: [{ send: lock }]\n", name: "sub/a.test.yaml")
        _ = try Self.scenarioFile(files, "  - name: b\n    steps: [{ send: lock }]\n", name: "b.test.yml")
        _ = try Self.scenarioFile(files, "  - name: hidden\n    steps: [{ send: nope }]\n", name: "sub/.hidden/c.test.yaml")
        let found = try Smrun.run(["test", files.directory.path, "--format", "json"])
        #expect(found.exited(0), "\(found.errorText)")
        #expect(try found.jsonLines().map { $0["scenario"] as? String } == ["b", "a"])
    }

    /// Without a path, smrun test searches the current directory, and names files relative to it.
    @Test func noPathMeansTheCurrentDirectory() throws {
        let files = try TemporaryFiles()
        try FileManager.default.createDirectory(at: files.directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let path = try Self.scenarioFile(files, "  - name: a\n    steps: [{ send: lock, expect: { state: opened } }]\n", name: "sub/a.test.yaml")
        #expect(path.hasSuffix("/sub/a.test.yaml"))
        let smrun = try Subprocess(try Paths.smrun().path, ["test"], directory: files.directory.path)
        let output = Subprocess.drain(smrun.output)
        _ = Subprocess.drain(smrun.errorOutput)
        let status = try #require(smrun.wait(timeout: .seconds(60)))
        #expect(status.status == 1)
        let lines = String(decoding: output.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "FAIL sub/a.test.yaml:3: a", "\(lines)")
    }

    /// An internal input cannot be a step's `send`; a refusal (`reject:`) is covered when selected.
    @Test func internalInputsAndRefusals() throws {
        let files = try TemporaryFiles()
        _ = try files.file(
            "review.yaml",
            """
            initial: draft
            inputs: { submit: , approve: , uploaded: { internal: true } }
            states: [draft, review, approved]
            effects: { upload: { send: [uploaded] } }
            transitions:
              - submit | draft => draft | upload
              - uploaded | draft => review
              - input: approve
                from: draft
                reject: not submitted yet
              - approve | review => approved
            """)
        let invalid = try files.file(
            "invalid.test.yaml", "machine: review.yaml\nscenarios:\n  - name: a\n    steps: [{ send: uploaded }]\n")
        let refused = try Smrun.run(["test", invalid])
        #expect(refused.exited(2))
        #expect(
            refused.diagnostic(invalid, 4, 21, "undefined-input")?.contains("input 'uploaded' is internal: only effects may send it") == true,
            "\(refused.errorText)")
        let path = try files.file(
            "review.test.yaml",
            """
            machine: review.yaml
            scenarios:
              - name: approval
                steps:
                  - send: approve
                    expect: { ok: false, error: refused, state: draft }
                  - send: submit
                    expect: { state: review, effects: [upload], sent: [{ input: uploaded, state: review }] }
            """)
        let run = try Smrun.run(["test", path, "--coverage"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.contains("  transitions  3/4 (75%)"), "\(run.text)")  // the refusal counts; approve from review is never taken
        let paths = try Smrun.run(["paths", files.path("review.yaml")])
        #expect(paths.exited(0))
        #expect(paths.lines.contains("# to line 8: approve | draft => (refused)"), "\(paths.text)")
        #expect(!paths.lines.contains("uploaded"), "\(paths.text)")
    }

    @Test func filterRunsOnlyMatchingScenarios() throws {
        let run = try Smrun.run(["test", Self.door, "--filter", "locked door"])
        #expect(run.exited(0))
        #expect(run.lines == ["1 passed, 0 failed"])
        let none = try Smrun.run(["test", Self.door, "--filter", "no such"])
        #expect(none.exited(2))
        #expect(none.errorText == "smrun test: no scenario matches --filter 'no such'\n")
    }

    @Test func jsonHasOneObjectPerScenario() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files, "  - name: good\n    steps: [{ send: lock }]\n  - name: bad\n    steps: [{ send: lock, expect: { state: opened } }]\n")
        let run = try Smrun.run(["test", path, "--format", "json"])
        #expect(run.exited(1))
        let objects = try run.jsonLines()
        #expect(objects.count == 2)
        #expect(objects[0]["passed"] as? Bool == true && objects[0]["line"] as? Int == 3)
        #expect(objects[1]["passed"] as? Bool == false && objects[1]["step"] as? Int == 1 && objects[1]["stepLine"] as? Int == 6)
        let mismatches = try #require(objects[1]["mismatches"] as? [[String: String]])
        #expect(mismatches == [["key": "state", "expected": "opened", "actual": "locked"]])
        #expect(objects[1]["inputs"] as? [String] == ["lock"])
        #expect(run.errorText == "1 passed, 1 failed\n")
    }

    /// The JUnit XML as a CI system reads it: Python's junitparser (installed by `make test`).
    @Test func junitIsReadByAJUnitConsumer() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            "  - name: good <&>\n    steps: [{ send: lock }]\n  - name: bad\n    steps: [{ send: lock, expect: { state: opened } }]\n")
        let run = try Smrun.run(["test", path, "--format", "junit"])
        #expect(run.exited(1))
        let xml = try files.file("report.xml", Array(run.stdout))
        let script = """
            import sys
            from junitparser import JUnitXml, Failure
            xml = JUnitXml.fromfile(sys.argv[1])
            for suite in xml:
                for case in suite:
                    failures = [r for r in case.result if isinstance(r, Failure)]
                    print(suite.name, case.name, case.classname, "FAIL" if failures else "PASS", failures[0].message if failures else "")
            print(xml.tests, xml.failures)
            """
        let python = try Subprocess("/usr/bin/env", ["python3", "-c", script, xml], directory: files.directory.path, inputFile: nil)
        let output = Subprocess.drain(python.output)
        let errors = Subprocess.drain(python.errorOutput)
        let status = try #require(python.wait(timeout: .seconds(60)))
        #expect(status.status == 0, "python: \(String(decoding: errors.wait(), as: UTF8.self))")
        let lines = String(decoding: output.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == ["\(path) good <&> \(path) PASS ", "\(path) bad \(path) FAIL step 1: state", "2 1"])
    }

    /// `smrun schema --scenarios` accepts every scenario file of the repository and refuses unknown keys.
    @Test func scenarioSchemaChecksScenarioFiles() throws {
        let files = try TemporaryFiles()
        let schema = try Smrun.run(["schema", "--scenarios"])
        #expect(schema.exited(0))
        let path = try files.file("scenario.schema.json", Array(schema.stdout))
        let scenarioFiles = [
            "machines/scenarios/traffic-light.test.yaml", "machines/scenarios/app-launcher.test.yaml", "machines/scenarios/login-session.test.yaml",
            "docs/examples/door.test.yaml", "docs/examples/door-invalid.test.yaml",
        ]
        let check = try Subprocess("/usr/bin/env", ["python3", "schema/check-machine-files.py", path] + scenarioFiles, directory: Paths.packageRoot.path)
        let output = Subprocess.drain(check.output)
        _ = Subprocess.drain(check.errorOutput)
        #expect(check.wait(timeout: .seconds(60))?.status == 0)
        let lines = String(decoding: output.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(4) == [
                "valid machines/scenarios/traffic-light.test.yaml", "valid machines/scenarios/app-launcher.test.yaml",
                "valid machines/scenarios/login-session.test.yaml", "valid docs/examples/door.test.yaml",
            ], "\(lines)")
        #expect(lines.last?.hasPrefix("invalid docs/examples/door-invalid.test.yaml") == true, "\(lines)")
    }

    /// The door's coverage, counted by hand: the first scenario enters closed and locked, takes
    /// lock and both unlock rows, runs engageBolt, countAttempt and releaseBolt.
    @Test func coverageIsReportedAsATableAndInJSON() throws {
        let run = try Smrun.run(["test", Self.door, "--coverage"])
        #expect(run.exited(0))
        let machine = "Tests/SmrunTests/Fixtures/scenarios/door.yaml"
        #expect(
            run.lines == [
                "coverage of \(machine):",
                "  states       2/4 (50%)",
                "    never entered: opened",
                "    never entered: broken",
                "  transitions  3/7 (42.8%)",
                "    never taken: \(machine):23: open | closed => opened",
                "    never taken: \(machine):24: close | opened => closed",
                "    never taken: \(machine):32: slam | opened => closed",
                "    never taken: \(machine):33: smash | opened, closed, locked => broken",
                "  effects      3/4 (75%)",
                "    never run: latch",
                "2 passed, 0 failed",
            ])
        let json = try Smrun.run(["test", Self.door, "--coverage", "--format", "json"])
        let coverage = try #require(try json.jsonLines().last?["coverage"] as? [String: Any])
        #expect(coverage["machine"] as? String == machine)
        let transitions = try #require(coverage["transitions"] as? [String: Any])
        #expect(transitions["covered"] as? Int == 3 && transitions["total"] as? Int == 7)
        let missed = try #require(transitions["missed"] as? [[String: Any]])
        #expect(missed.map { $0["line"] as? Int } == [23, 24, 32, 33])
        #expect(missed[0]["input"] as? String == "open" && missed[0]["from"] as? [String] == ["closed"] && missed[0]["to"] as? String == "opened")
        let states = try #require(coverage["states"] as? [String: Any])
        #expect(states["missed"] as? [String] == ["opened", "broken"])
        let effects = try #require(coverage["effects"] as? [String: Any])
        #expect(effects["covered"] as? Int == 3 && effects["missed"] as? [String] == ["latch"])
    }

    @Test func minimumCoverageFailsBelowThePercentage() throws {
        let pass = try Smrun.run(["test", Self.door, "--min-coverage", "42"])
        #expect(pass.exited(0), "\(pass.errorText)")
        let fail = try Smrun.run(["test", Self.door, "--min-coverage", "50"])
        #expect(fail.exited(1))
        #expect(fail.errorText == "smrun test: transition coverage 42.8% is below --min-coverage 50%\n")
        let bad = try Smrun.run(["test", Self.door, "--min-coverage", "101"])
        #expect(bad.exited(2))
    }

    @Test func validateLeavesScenarioFilesToSmrunTest() throws {
        let run = try Smrun.run(["validate", "Tests/SmrunTests/Fixtures/scenarios"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.errorLines.last?.hasPrefix("2 files, 0 errors") == true, "\(run.errorText)")  // door.yaml and vault.yaml, not door.test.yaml
    }

    /// `make test` runs these too; here they must pass, and every machine has a scenario file.
    @Test func theExampleMachinesScenariosPass() throws {
        let run = try Smrun.run(["test", "machines"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        // In machines/scenarios/, so that a machine's name completes alone in a shell.
        let machines = try FileManager.default.contentsOfDirectory(atPath: Paths.machines.path)
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: Paths.machines.appendingPathComponent("scenarios").path)
        for machine in machines where machine.hasSuffix(".yaml") {
            let tests = machine.replacingOccurrences(of: ".yaml", with: ".test.yaml")
            #expect(scenarios.contains(tests), "machines/\(machine) has no scenario file in machines/scenarios/")
        }
    }
}
