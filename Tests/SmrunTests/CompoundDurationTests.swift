import Foundation
import Testing

/// Compound durations (`9m59s`, `1h30m`, docs/machine-files.md#durations) in `after:`, `@wait`,
/// `--wait` and scenario `wait:` steps, and the errors for bad ones, with the real binary.
@Suite struct CompoundDurationTests {
    static let machine = """
        machine: brew
        initial: steeping
        states:
          steeping:
          ready:
          stale:
        transitions:
          - after: 9m59s
            from: steeping
            to: ready
          - after: 1h30m
            from: ready
            to: stale

        """

    @Test func afterWaitAndDashDashWaitTakeCompoundDurations() throws {
        let files = try TemporaryFiles()
        let path = try files.file("brew.yaml", Self.machine)
        let script = try Smrun.run([path], input: .bytes(Data("@wait 9m58s\n@wait 1s\n@wait 1h29m59.999s\n@wait 1ms\n".utf8)))
        #expect(script.exited(0), "\(script.errorText)")
        #expect(script.lines == ["after 9m59s: steeping -> ready", "after 1h30m: ready -> stale"], "\(script.text)")
        // `--wait` goes with `--send` (a `taste` the machine ignores): without it, smrun reads the script.
        let tasting = try files.file("tasting.yaml", "on_unhandled: ignore\ninputs: [taste]\n" + Self.machine)
        let options = try Smrun.run([tasting, "--wait", "9m58.999s", "--wait", "1ms", "--wait", "1h29m59s", "--send", "taste"])
        #expect(options.lines == ["after 9m59s: steeping -> ready", "taste: ready: ignored (no transition)"], "\(options.text)")
        let rest = try Smrun.run([tasting, "--wait", "9m59s", "--wait", "1h30m", "--send", "taste"])
        #expect(
            rest.lines == ["after 9m59s: steeping -> ready", "after 1h30m: ready -> stale", "taste: stale: ignored (no transition)"],
            "\(rest.text)")
    }

    @Test func aScenarioWaitsACompoundDurationAndMatchesACompoundAfter() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("brew.yaml", Self.machine)
        let scenarios = try files.file(
            "brew.test.yaml",
            """
            machine: \(machine)
            scenarios:
              - name: steeped
                steps:
                  - wait: 9m58.999s
                    expect: { state: steeping, sent: [] }
                  - wait: 1ms
                    expect: { state: ready, sent: [{ after: 9m59s, state: ready }] }
                  - wait: 1h30m
                    expect: { state: stale, sent: [{ after: 1h30m }] }

            """)
        let run = try Smrun.run(["test", scenarios])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.last == "1 passed, 0 failed", "\(run.text)")
    }

    @Test func aBadCompoundDurationIsAnErrorAtItsFaultyCharacter() throws {
        let files = try TemporaryFiles()
        let path = try files.file("brew.yaml", Self.machine.replacingOccurrences(of: "after: 1h30m", with: "after: 5m3h"))
        let run = try Smrun.run(["validate", path])
        #expect(run.exited(1))
        #expect(
            run.text.contains(
                "\(path):11:15: error: '5m3h' is not a duration for 'after': 'h' comes after 'm' in a duration; write the units from the largest to the smallest, as 1h30m [invalid-value]"
            ), "\(run.text)")
        let wait = try Smrun.run([try files.file("ok.yaml", Self.machine), "--wait", "1h1h"])
        #expect(wait.exited(2))
        #expect(wait.errorText.contains("--wait '1h1h' is not a duration: 'h' appears twice in a duration; write each unit once, as 1h30m"), "\(wait.errorText)")
    }
}
