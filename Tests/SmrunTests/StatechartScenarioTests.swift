import Foundation
import Testing

/// `smrun test` on statecharts: `states` checks the active atomic states, a scenario may start
/// in a configuration, coverage counts states entered (not history pseudo-states), and
/// `smrun paths` says it searches flat machines only.
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

    @Test func pathsRefusesStatecharts() throws {
        let run = try Smrun.run(["paths", "machines/media-player.yaml"])
        #expect(run.exited(2))
        #expect(run.errorText == "smrun paths: machine 'media-player' is a statechart; smrun paths searches flat machines only\n")
    }
}
