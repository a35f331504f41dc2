import Foundation
import Testing

/// `smrun paths`: shortest input sequences to every state and transition, guards respected,
/// every path replayed, unreachable states explained.
struct PathsCommandTests {
    static let vault = "Tests/SmrunTests/Fixtures/scenarios/vault.yaml"
    static let door = "Tests/SmrunTests/Fixtures/scenarios/door.yaml"

    @Test func argumentsAreTakenFromTheGuardsAndUnreachableStatesExplained() throws {
        let run = try Smrun.run(["paths", Self.vault])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(
            run.lines == [
                "# to shut",
                "# to ajar", "dial 42",
                "# to open", "dial 42", "say \"please\"",
                "# to line 12: dial | shut => ajar", "dial 42",
                "# to line 16: dial | shut => (stays)", "dial 0",
                "# to line 17: say | ajar => open", "dial 42", "say \"please\"",
                "# unreachable: sealed: only transitions from unreachable states lead to it (from buried)",
                "# unreachable: buried: no transition leads to it",
                "# unreachable: impossible: the transitions into it from reachable states are never taken (line 22: its guard 'arg > 10 && arg < 5' held for no argument value tried)",
                "# no path takes line 21: push | buried => sealed",
                "# no path takes line 22: dial | open => impossible",
            ])
    }

    /// A guard comparing the argument with a context variable is passed with the variable's value.
    @Test func argumentsAreTakenFromTheVariablesGuardsRead() throws {
        let run = try Smrun.run(["paths", Self.door, "--to", "closed"])
        #expect(run.lines == ["# to closed"])
        let all = try Smrun.run(["paths", Self.door])
        #expect(all.text.contains("# to line 26: unlock | locked => closed\nlock\nunlock \"1234\"\n"), "\(all.text)")
    }

    @Test func toPrintsOnePathOrSaysWhyThereIsNone() throws {
        let run = try Smrun.run(["paths", Self.vault, "--to", "open"])
        #expect(run.exited(0))
        #expect(run.lines == ["# to open", "dial 42", "say \"please\""])
        let unreachable = try Smrun.run(["paths", Self.vault, "--to", "buried"])
        #expect(unreachable.exited(1))
        #expect(unreachable.errorText == "smrun paths: state 'buried' is unreachable: no transition leads to it\n")
        let unknown = try Smrun.run(["paths", Self.vault, "--to", "opn"])
        #expect(unknown.exited(2))
        #expect(unknown.errorText == "smrun paths: machine 'vault' has no state 'opn' (did you mean 'open'?)\n")
        let invalid = try Smrun.run(["paths", "Tests/SmrunTests/Fixtures/invalid-undefined-state.yaml"])
        invalid.expectRefusedMachine("Tests/SmrunTests/Fixtures/invalid-undefined-state.yaml")
    }

    /// For every example machine: the scenario file that `--format test` prints passes against
    /// the machine, and every state the linter does not call unreachable is reached (the
    /// machines on timers too, through `wait:` steps).
    @Test func everyExampleMachineIsCoveredByItsGeneratedScenarios() throws {
        let files = try TemporaryFiles()
        let machines = try FileManager.default.contentsOfDirectory(atPath: Paths.machines.path)
            .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".test.yaml") }.sorted()
        #expect(machines.count >= 6)
        for machine in machines {
            let source = Paths.machines.appendingPathComponent(machine)
            _ = try files.file(machine, Array(try Data(contentsOf: source)))
            let generated = try Smrun.run(["paths", "machines/\(machine)", "--format", "test"])
            #expect(generated.exited(0), "\(machine): \(generated.errorText)")
            #expect(!generated.text.contains("# unreachable"), "\(machine): \(generated.text)")
            let scenarios = try files.file(machine.replacingOccurrences(of: ".yaml", with: ".test.yaml"), Array(generated.stdout))
            let run = try Smrun.run(["test", scenarios, "--coverage"])
            #expect(run.exited(0), "\(machine): \(run.text)\(run.errorText)")
            #expect(!run.text.contains("never entered"), "\(machine): \(run.text)")
        }
    }

    /// States and transitions reached only by timers: a path waits until the next timer falls
    /// due (`@wait` in a script, `wait:` in a scenario file), and is replayed on the clock.
    @Test(arguments: ["timed-traffic-light", "login-session"])
    func pathsWaitThroughAfterTransitionsAndDelayedSends(_ name: String) throws {
        let files = try TemporaryFiles()
        let machine = "machines/\(name).yaml"
        let script = try Smrun.run(["paths", machine])
        #expect(script.exited(0), "\(script.errorText)")
        #expect(!script.text.contains("# unreachable") && !script.text.contains("# no path takes"), "\(script.text)")
        _ = try files.file("\(name).yaml", Array(try Data(contentsOf: Paths.packageRoot.appendingPathComponent(machine))))
        let generated = try Smrun.run(["paths", machine, "--format", "test"])
        let scenarios = try files.file("\(name).test.yaml", Array(generated.stdout))
        let run = try Smrun.run(["test", scenarios, "--coverage"])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(!run.text.contains("never"), "\(run.text)")
    }

    @Test func aPathToAStateReachedByTimersWaits() throws {
        let light = try Smrun.run(["paths", "machines/timed-traffic-light.yaml", "--to", "yellow"])
        #expect(light.lines == ["# to yellow", "@wait 30s", "@wait 25s"])
        let crossing = try Smrun.run(["paths", "machines/timed-traffic-light.yaml"])
        #expect(crossing.text.contains("# to line 39: cross | green => yellow\n@wait 30s\nbutton\n@wait 5s\n"), "\(crossing.text)")
        let session = try Smrun.run(["paths", "machines/login-session.yaml", "--format", "test"])
        #expect(
            session.text.contains(
                "  - name: \"to line 43: after 5m | loggedIn => loggedOut\"\n    steps:\n      - send: logIn\n        expect: { state: checking }\n"
                    + "      - send: accepted\n        expect: { state: loggedIn }\n      - wait: 4m\n        expect: { state: loggedIn }\n"
                    + "      - wait: 1m\n        expect: { state: loggedOut }\n"), "\(session.text)")
        // A statechart: a nested state's timer and its parent's.
        let files = try TemporaryFiles()
        let chart = try files.file(
            "chart.yaml",
            TimedChart.yaml)
        let charted = try Smrun.run(["paths", chart])
        #expect(charted.exited(0), "\(charted.errorText)")
        #expect(charted.text.contains("# to offline\n@wait 1m\n"), "\(charted.text)")
        #expect(charted.text.contains("# to line 11: after 10s | busy => idle\nclick\n@wait 10s\n"), "\(charted.text)")
    }

    /// The 100,000-transition benchmark machine: the search is linear in transitions. A debug
    /// build takes 10 to 40 s while the rest of the suite runs beside it; a search quadratic in
    /// transitions took many minutes.
    @Test(.timeBound) func theBenchmarkMachineFinishesInSeconds() throws {
        let files = try TemporaryFiles()
        let machine = files.path("big.yaml")
        let generator = try Subprocess(
            "/usr/bin/env", ["python3", "benchmarks/gen_big_machine.py", "10000", "100000", "200", "1"], directory: Paths.packageRoot.path)
        let output = Subprocess.drain(generator.output)
        _ = Subprocess.drain(generator.errorOutput)
        #expect(generator.wait(timeout: .seconds(120))?.status == 0)
        try output.wait().write(to: URL(fileURLWithPath: machine))
        let run = try Smrun.run(["paths", machine], timeout: .seconds(300))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.elapsed < .seconds(90), "took \(run.elapsed)")
        #expect(run.lines.count { $0.hasPrefix("# to ") } > 10_000)
    }
}
