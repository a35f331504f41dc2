import Testing

/// `on_unhandled: ignore` (docs/semantics.md): `no-transition` becomes an ignored result that is not a
/// failure; every other rejection still fails the run.
@Suite struct UnhandledPolicyTests {
    private let machine = "on-unhandled-ignore.yaml"

    @Test func noTransitionIsIgnoredAndExitsZero() throws {
        let run = try Smrun.run(fixture: machine, script: "stop\n")
        #expect(run.text == "stop: idle: ignored (no transition)\n")
        #expect(run.exited(0))
    }

    @Test func guardRejectedIsStillRejected() throws {
        let run = try Smrun.run(fixture: machine, script: "activate\n", ["--format", "json"])
        let results = try run.jsonLines()
        #expect(results.first?["error"] as? String == "guard-rejected")
        #expect(results.first?["ignored"] == nil)
        #expect(run.exited(1))
    }

    @Test func unknownInputIsStillRejected() throws {
        let run = try Smrun.run(fixture: machine, script: "stpo\n", ["--format", "json"])
        #expect(try run.jsonLines().first?["error"] as? String == "unknown-input")
        #expect(run.exited(1))
    }
}
