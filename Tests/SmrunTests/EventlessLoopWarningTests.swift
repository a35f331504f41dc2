import Foundation
import Testing

/// `smrun validate` warns about eventless transitions with guards that may loop forever (issue
/// 35): their guards can all hold at once and nothing on the loop changes what they read.
@Suite struct EventlessLoopWarningTests {
    private let fixture = "Tests/SmrunTests/Fixtures/validate/eventless-loop.yaml"

    @Test func aLoopWhoseGuardsCanAllHoldIsWarnedAndDoesLoop() throws {
        let validated = try Smrun.run(["validate", fixture])
        #expect(validated.exited(0))
        #expect(
            validated.lines.first
                == "\(fixture):22:5: warning: eventless transitions may loop forever: 'a' -> 'b' -> 'a'; their guards ('level < 10', 'ready && level > 0') can all hold at once, and no effect on the loop sets a variable they read; make one set such a variable, or give a transition an input [eventless-cycle]",
            "\(validated.text)")
        #expect(validated.lines.count == 2, "\(validated.text)")
        #expect(validated.lines.last?.contains(":51:5: warning: eventless transitions may loop forever: 'g' -> 'g'") == true)
        // What the warning is about: the run goes round until the step limit stops it.
        let run = try Smrun.run([fixture, "--send", "go", "--max-steps", "20", "--format", "json"])
        #expect(try run.jsonLines().last?["error"] as? String == "step-limit", "\(run.text)")
    }

    /// The loops whose guards contradict, or whose effects set what a guard reads, settle.
    @Test func aLoopThatSettlesIsNotWarned() throws {
        let validated = try Smrun.run(["validate", fixture])
        for state in ["'c'", "'d'", "'e'", "'f'", "'h'", "'i'"] { #expect(!validated.text.contains(state), "\(validated.text)") }
        let files = try TemporaryFiles()
        let scenarios = try files.file(
            "loops.test.yaml",
            """
            machine: \(Paths.packageRoot.appendingPathComponent(fixture).path)
            scenarios:
              - name: guards that contradict
                state: a
                steps:
                  - send: next
                    expect: { state: d }
              - name: equalities and bounds that contradict
                state: c
                steps:
                  - send: next
                    expect: { state: f }
              - name: an effect that sets what a guard reads
                state: g
                steps:
                  - send: next
                    expect: { state: h, context: { count: 100 } }
            """)
        let run = try Smrun.run(["test", scenarios])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
    }
}
