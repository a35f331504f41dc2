import Foundation
import Testing

/// `smrun test` on the virtual clock: `wait:` steps fire the timers that fall due in time order
/// (as `@wait` in `smrun run`), `sent` matches timer results on `after` and `timer`, bad
/// durations and unknown delays or ids are refused with their position (docs/testing-machines.md).
@Suite struct TimedScenarioTests {
    static let light = Paths.packageRoot.appendingPathComponent("machines/timed-traffic-light.yaml").path

    /// A scenario file in a temporary folder testing `machine`, with `body` under `scenarios:`.
    static func scenarioFile(_ files: TemporaryFiles, machine: String = light, _ body: String) throws -> String {
        try files.file("timed.test.yaml", "machine: \(machine)\nscenarios:\n" + body)
    }

    @Test func aWaitFiresEveryTimerDueInTimeOrderAndSentListsTheirResults() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: a cycle and a crossing
                steps:
                  - wait: 29.999s
                    expect: { state: red, effects: [], sent: [] }
                  - wait: 1ms
                    expect: { ok: true, state: green, effects: [go], sent: [{ after: 30s, state: green }] }
                  - send: button
                    expect: { state: green, effects: [requestCrossing], sent: [] }
                  - wait: 5s
                    expect: { state: yellow, sent: [{ input: cross, timer: crossing, state: yellow }] }
                  - wait: 60s
                    expect:
                      state: green
                      effects: [stop, go, endCrossing, slow]
                      sent: [{ after: 5000ms }, { after: 30s, state: green }, { after: 25s, state: yellow }]
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1), "\(run.text)\(run.errorText)")
        // The last wait ends at 95 s, when the green's 25 s are up: a timer due at the end of a wait fires.
        #expect(
            run.lines == [
                "FAIL \(path):3: a cycle and a crossing",
                "  step 5 at \(path):13: wait 60s",
                "    - state: green",
                "    + state: yellow",
                "  inputs: @wait 29.999s, @wait 1ms, button, @wait 5s, @wait 60s",
                "0 passed, 1 failed",
            ], "\(run.text)")
    }

    @Test func sentShowsTimerResultsWithTheirDelayOrIdWhenTheyDiffer() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: wrong delay
                steps:
                  - wait: 30s
                    expect: { sent: [{ after: 25s }] }
              - name: wrong id
                steps:
                  - wait: 30s
                  - send: button
                  - wait: 5s
                    expect: { sent: [{ input: cross }, { after: 25s }] }
              - name: a timer is no queued input of a send
                steps:
                  - wait: 30s
                  - send: button
                    expect: { sent: [{ timer: crossing }] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1))
        #expect(run.lines.contains("    - sent: [{after: 25s}]"), "\(run.text)")
        #expect(run.lines.contains("    + sent: [{after: 30s, state: green}]"), "\(run.text)")
        #expect(run.lines.contains("    - sent: [{input: cross}, {after: 25s}]"), "\(run.text)")
        #expect(run.lines.contains("    + sent: [{input: cross, timer: crossing, state: yellow}]"), "\(run.text)")
        #expect(run.lines.contains("    - sent: [{timer: crossing}]"), "\(run.text)")
        #expect(run.lines.contains("    + sent: []"), "\(run.text)")
        #expect(run.lines.last == "0 passed, 3 failed")
    }

    /// A wait has no input of its own: its `ok` and `error` are its first rejected result's.
    @Test func aWaitsOkAndErrorAreItsTimersAndZeroDelaysFireWithinTheirStep() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "pinger.yaml",
            """
            initial: idle
            inputs: [arm, ping, bounce]
            states: [idle, armed, bounced]
            effects:
              schedule: { send: { input: ping, delay: 1s } }
            transitions:
              - arm | idle => armed | schedule
              - bounce | idle => bounced
              - after: 0s
                from: bounced
                to: idle
            """)
        let path = try Self.scenarioFile(
            files, machine: machine,
            """
              - name: a delayed send nothing takes
                steps:
                  - send: arm
                    expect: { ok: true, state: armed, sent: [] }
                  - wait: 1s
                    expect: { ok: false, error: no-transition, state: armed, sent: [{ input: ping, error: no-transition }] }
                  - wait: 1s
                    expect: { ok: true, sent: [] }
              - name: a 0s timer fires in the step that starts it
                steps:
                  - send: bounce
                    expect: { ok: true, state: idle, sent: [{ after: 0s, state: idle }] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines == ["2 passed, 0 failed"])
    }

    /// A scenario started in a state (`state:`) has that state's timers running from its start.
    @Test func aResumedStatesTimersRunFromTheScenariosStart() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: resumed in green
                state: green
                steps:
                  - wait: 24999ms
                    expect: { state: green, sent: [] }
                  - wait: 1ms
                    expect: { state: yellow, effects: [endCrossing, slow], sent: [{ after: 25s, state: yellow }] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
    }

    @Test func statechartsWaitToo() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "chart.yaml",
            TimedChart.yaml)
        let path = try Self.scenarioFile(
            files, machine: machine,
            """
              - name: busy, then idle, then offline
                steps:
                  - send: click
                    expect: { states: [busy] }
                  - wait: 1m
                    expect: { state: offline, sent: [{ after: 10s, state: idle }, { after: 1m, state: offline }] }
              - name: resumed busy, both timers running
                state: [busy]
                steps:
                  - wait: 10s
                    expect: { states: [idle], sent: [{ after: 10s }] }
                  - wait: 50s
                    expect: { state: offline }
            """)
        let run = try Smrun.run(["test", path, "--coverage"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.text.contains("  transitions  3/3 (100%)\n"), "\(run.text)")
        #expect(run.lines.last == "2 passed, 0 failed")
    }

    /// An `after` transition is covered when its timer fires.
    @Test func afterTransitionsAreCoveredWhenTheyFire() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: to green
                steps:
                  - wait: 30s
            """)
        let run = try Smrun.run(["test", path, "--coverage"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.text.contains("  transitions  1/6 (16.6%)\n"), "\(run.text)")
        #expect(!run.text.contains("after 30s | red => green"), "\(run.text)")
        #expect(run.text.contains(":31: after 25s | green => yellow\n"), "\(run.text)")
        let json = try Smrun.run(["test", path, "--coverage", "--format", "json"])
        #expect(json.text.contains(#"{"line":31,"after":"25s","from":["green"],"to":"yellow"}"#), "\(json.text)")
    }

    @Test func badDurationsUnknownDelaysAndIdsAreRefusedWithTheirPositions() throws {
        let files = try TemporaryFiles()
        let path = try Self.scenarioFile(
            files,
            """
              - name: invalid
                steps:
                  - wait: 30sec
                  - wait: -1s
                  - wait: [1]
                  - wait: "1.5.2s"
                  - send: button
                    wait: 1s
                  - wait: 1s
                    expect: { sent: [{ after: 7s }, { after: 5 }, { timer: crosing }, { wait: 1s }] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(2))
        #expect(run.stdout.isEmpty, "\(run.text)")
        let expected = [
            (5, 17, "invalid-value", "'30sec' is not a duration for 'wait': 'sec' is not a unit of duration: ms, s, m or h"),
            (6, 15, "invalid-value", "'-1s' is not a duration for 'wait': a duration cannot be negative"),
            (7, 15, "wrong-kind", "'wait' must be a duration such as 30s, not a list"),
            (8, 19, "invalid-value", "'1.5.2s' is not a duration for 'wait': a duration's number has one decimal point at most"),
            (10, 9, "invalid-value", "a step sends an input or waits, not both; make them two steps"),
            (12, 35, "invalid-value", "machine 'timed-traffic-light' has no 'after' transition of 7s (it has 30s, 25s, 5s)"),
            (12, 51, "invalid-value", "'5' is not a duration for 'after': a duration needs a unit: ms, s, m or h"),
            (12, 64, "undefined-timer", "machine 'timed-traffic-light' has no delayed send with id 'crosing' (did you mean 'crossing'?)"),
            (12, 77, "unknown-key", "unknown key 'wait' in a queued or timed result; expected one of: input, after, timer, state, error"),
        ]
        for (line, column, code, message) in expected {
            let found = run.diagnostic(path, line, column, code)
            #expect(found?.contains(message) == true, "\(line):\(column) \(code): \(found ?? "missing") in\n\(run.errorText)")
        }
        #expect(run.errorLines.count == expected.count, "\(run.errorText)")
    }

    @Test func aReplSessionsWaitsAreSavedAsWaitSteps() throws {
        let files = try TemporaryFiles()
        let saved = files.path("session.test.yaml")
        let session = try Smrun.run(
            ["repl", "machines/login-session.yaml"],
            input: .bytes(Data("logIn\nrefused\n:wait 250ms\n@wait 5 parsecs\naccepted\n@wait 4m\n:save \(saved)\n".utf8)))
        #expect(
            session.lines.last == "saved 5 inputs to \(saved) as a scenario (left out 1 line that is no input of the machine)", "\(session.text)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("      - wait: 250ms\n        expect: { state: checking }\n      - send: accepted\n"), "\(text)")
        #expect(text.contains("      - wait: 4m\n        expect: { state: loggedIn }\n"), "\(text)")
        let run = try Smrun.run(["test", saved])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.last == "1 passed, 0 failed")
    }
}
