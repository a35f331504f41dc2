import Foundation
import Testing

/// `smrun test` on statecharts: `states` checks the active atomic states, a scenario may start
/// in a configuration, coverage counts states entered (not history pseudo-states), `smrun
/// paths` searches configurations, and `smrun repl`'s `:save` writes a scenario that passes.
struct StatechartScenarioTests {
    static let player = Paths.packageRoot.appendingPathComponent("machines/media-player.yaml").path

    @Test func statesAndConfigurationsAreChecked() throws {
        let files = try TemporaryFiles()
        let path = try files.file(
            "player.test.yaml",
            """
            machine: \(Self.player)
            scenarios:
              - name: resumed in a configuration
                state: [muted, hd]
                steps:
                  - expect: { states: [hd, muted], effects: [] }
                  - send: lowBandwidth
                    expect: { states: [muted, sd], effects: [lowerResolution] }
                  - send: pause
                    expect: { state: paused, finished: false }
              - name: two atomic states are not one
                state: [muted, hd]
                steps:
                  - send: lowBandwidth
                    expect: { state: muted }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1), "\(run.text)\(run.errorText)")
        #expect(
            run.lines == [
                "FAIL \(path):11: two atomic states are not one", "  step 1 at \(path):14: send lowBandwidth", "    - state: muted",
                "    + state: [muted, sd]", "  inputs: lowBandwidth", "1 passed, 1 failed",
            ])
    }

    /// `in:` holds when each named state is active, compound and parallel ones included, and
    /// says what was active when it does not; a state the machine lacks is an error.
    @Test func inChecksThatTheConfigurationIncludesCompoundStates() throws {
        let files = try TemporaryFiles()
        let path = try files.file(
            "player.test.yaml",
            """
            machine: \(Self.player)
            scenarios:
              - name: inside
                steps:
                  - send: play
                    expect: { in: [active, playing, audio, sound] }
                  - send: pause
                    expect: { in: active }
              - name: not inside
                steps:
                  - send: play
                    expect: { in: [paused, active] }
            """)
        let run = try Smrun.run(["test", path])
        #expect(run.exited(1), "\(run.text)\(run.errorText)")
        #expect(
            run.lines == [
                "FAIL \(path):9: not inside", "  step 1 at \(path):11: send play", "    - in: [paused, active]",
                "    + in: [active, playing, audio, sound, video, hd]", "  inputs: play", "1 passed, 1 failed",
            ], "\(run.text)")
        let wrong = try files.file(
            "wrong.test.yaml", "machine: \(Self.player)\nscenarios:\n  - name: typo\n    steps:\n      - expect: { in: [activ] }\n")
        let invalid = try Smrun.run(["test", wrong])
        #expect(invalid.exited(2), "\(invalid.text)\(invalid.errorText)")
        #expect(invalid.diagnostic(wrong, 5, 24, "undefined-state")?.contains("did you mean 'active'?") == true, "\(invalid.errorText)")
    }

    @Test func aStartThatIsNoConfigurationIsInvalid() throws {
        let files = try TemporaryFiles()
        let path = try files.file(
            "player.test.yaml",
            "machine: \(Self.player)\nscenarios:\n  - name: half\n    state: [muted, sound]\n    steps: []\n")
        let run = try Smrun.run(["test", path])
        #expect(run.exited(2))
        #expect(run.diagnostic(path, 4, 13, "invalid-value")?.contains("is no configuration the machine can be in") == true, "\(run.errorText)")
    }

    @Test func coverageLeavesOutHistoryStates() throws {
        let run = try Smrun.run(["test", "machines/scenarios/media-player.test.yaml", "--coverage"])
        #expect(run.exited(0))
        #expect(run.lines.contains("  states       10/10 (100%)"), "\(run.text)")
    }

    @Test func pathsReachEveryStateAndTransitionOfAStatechart() throws {
        let run = try Smrun.run(["paths", "machines/media-player.yaml"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(!run.text.contains("# unreachable") && !run.text.contains("# no path"), "\(run.text)")
        #expect(!run.text.contains("# to lastPlayback"), "history states are never a target of their own")
        #expect(run.text.contains("# to sd\nplay\nlowBandwidth\n"), "\(run.text)")
        #expect(run.text.contains("# to line 30: play | paused => lastPlayback\nplay\npause\nplay\n"), "\(run.text)")
        #expect(run.text.contains("# to line 36: resume | stopped => lastSession\nresume\n"), "\(run.text)")
    }

    @Test func pathsTakeDoneEventsAndEventlessTransitionsByTheInputsThatLeadToThem() throws {
        let run = try Smrun.run(["paths", "machines/checkout.yaml"])
        #expect(run.exited(0), "\(run.errorText)")
        // Three declined cards: a context the search reaches by trying again what a step changed.
        #expect(
            run.text.contains("# to line 49: (eventless) | details => cart\naddItem 1\ncheckout\n" + String(repeating: "enterCard\ncardDeclined\n", count: 3)),
            "\(run.text)")
        // done.state.payment is raised by the machine, never sent: the path is the inputs that complete payment.
        #expect(run.text.contains("# to line 45: done.state.payment | payment => review\naddItem 1\ncheckout\nenterCard\ncardApproved\n"), "\(run.text)")
        #expect(!run.text.contains("\ndone.state.payment\n"))
        let lamp = try Smrun.run(["paths", Paths.fixture("statechart.yaml")])
        #expect(lamp.text.contains("# to line 22: (eventless) | resting => off\nstart\nup\noverload\n"), "\(lamp.text)")
    }

    /// A hundred parallel regions of ten states: 10^100 configurations, of which the search
    /// visits a number linear in the machine's size, trying from each what its step changed,
    /// and still reaches every state and transition.
    @Test(.timeBound) func parallelRegionsDoNotMultiplyTheSearch() throws {
        let files = try TemporaryFiles()
        var yaml = "initial: all\nstates:\n  all:\n    parallel: true\n    states:\n"
        var transitions = "transitions:\n"
        for region in 0..<100 {
            yaml += "      r\(region): { states: [" + (0..<10).map { "s\(region)_\($0)" }.joined(separator: ", ") + "] }\n"
            for state in 0..<10 { transitions += "  - n\(region) | s\(region)_\(state) => s\(region)_\((state + 1) % 10)\n" }
        }
        let machine = try files.file("regions.yaml", yaml + transitions)
        let run = try Smrun.run(["paths", machine])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(!run.text.contains("# unreachable") && !run.text.contains("# no path"))
        #expect(run.text.contains("# to s99_9\n" + String(repeating: "n99\n", count: 9) + "#"))
        #expect(run.elapsed < .seconds(10), "\(run.elapsed)")
    }

    @Test func coverageNamesAnEventlessTransitionNeverTaken() throws {
        let files = try TemporaryFiles()
        let machine = Paths.packageRoot.appendingPathComponent("machines/checkout.yaml").path
        let scenario = try files.file(
            "short.test.yaml", "machine: \(machine)\nscenarios:\n  - name: add\n    steps:\n      - send: { input: addItem, arg: 2 }\n        expect: { state: cart }\n")
        let run = try Smrun.run(["test", scenario, "--coverage"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.text.contains(":49: (eventless) | details => cart\n"), "\(run.text)")
        let json = try Smrun.run(["test", scenario, "--coverage", "--format", "json"])
        #expect(json.text.contains(#"{"line":49,"input":null,"from":["details"],"to":"cart"}"#), "\(json.text)")
    }

    @Test func aHistoryStateHasNoPathOfItsOwn() throws {
        let run = try Smrun.run(["paths", "machines/media-player.yaml", "--to", "lastPlayback"])
        #expect(run.exited(2))
        #expect(run.errorText == "smrun paths: 'lastPlayback' is a history state, never active; ask for a path to a state it leads to\n")
        let leaf = try Smrun.run(["paths", "machines/media-player.yaml", "--to", "muted", "--format", "test"])
        #expect(leaf.text.hasSuffix("    steps:\n      - send: play\n        expect: { states: [sound, hd] }\n      - send: mute\n        expect: { states: [muted, hd] }\n"), "\(leaf.text)")
    }

    @Test func aReplSessionSavedAsAScenarioPasses() throws {
        let files = try TemporaryFiles()
        let saved = files.path("session.test.yaml")
        let session = try Smrun.run(
            ["repl", Self.player], input: .bytes(Data("play\nmute\nwarp\npause\n:undo\nlowBandwidth\n:save \(saved)\n".utf8)))
        #expect(session.lines.last == "saved 3 inputs to \(saved) as a scenario (left out 1 line that is no input of the machine)", "\(session.text)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("      - send: lowBandwidth\n        expect: { states: [muted, sd] }\n"), "\(text)")
        let run = try Smrun.run(["test", saved])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.last == "1 passed, 0 failed")
        // A script, as before, for any other name.
        let script = files.path("session.script")
        let again = try Smrun.run(["repl", Self.player], input: .bytes(Data("play\n:save \(script)\n".utf8)))
        #expect(again.lines.last == "saved 1 input to \(script)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == "play\n")
    }
}
