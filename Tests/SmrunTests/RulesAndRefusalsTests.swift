import Foundation
import Testing

/// Refusals (`reject:`), internal inputs, `from: { not: ... }`, descriptions and the values in
/// `guard-rejected` messages, end to end through smrun.
@Suite struct RulesAndRefusalsTests {
    static let machine = Paths.fixture("review.yaml")

    @Test func aRefusalRejectsWithItsReasonAndChangesNothing() throws {
        // `withdraw` from done is a lone unguarded refusal (its cell's text is precomputed);
        // `approve "ann"` is a guarded one, found by the search.
        let run = try Smrun.run(fixture: "review.yaml", script: "submit\napprove \"ann\"\napprove \"bob\"\nwithdraw\nclose\n")
        #expect(run.lines == [
            "submit: draft -> review",
            "line 2: approve \"ann\": review: rejected: refused: self-approval is not allowed",
            "approve \"bob\": review -> review / merge",
            "  merged (sent by merge): review -> done",
            "line 4: withdraw: done: rejected: refused: a merged review cannot be withdrawn",
            "line 5: close: done: rejected: no-transition: no transition for 'close' from 'done'",
        ])
        #expect(run.exited(1))
    }

    @Test func aRefusalInJSON() throws {
        let run = try Smrun.run(fixture: "review.yaml", script: "submit\napprove \"ann\"\napprove \"bob\"\nwithdraw\n", ["--format", "json"])
        let lines = try run.jsonLines()
        #expect(lines[1]["error"] as? String == "refused" && lines[1]["message"] as? String == "self-approval is not allowed")
        #expect(lines[1]["ok"] as? Bool == false && lines[1]["context"] == nil)
        #expect(lines[4]["error"] as? String == "refused" && lines[4]["message"] as? String == "a merged review cannot be withdrawn")
        #expect(lines[4]["from"] as? String == "done" && lines[4]["line"] as? Int == 4)
        #expect(run.exited(1))
    }

    /// The same refusal through `--send` (the general path) reads as through a plain line.
    @Test func aRefusalThroughSend() throws {
        let run = try Smrun.run([Self.machine, "--send", "submit", "--send", "approve=ann"])
        #expect(run.lines[1] == "approve \"ann\": review: rejected: refused: self-approval is not allowed")
        #expect(run.exited(1))
    }

    @Test func anInternalInputIsUnknownToScripts() throws {
        // A bare name (the fast path), a name with an argument, a JSON-quoted one, and blanks.
        let run = try Smrun.run(fixture: "review.yaml", script: "merged\nreopen 1\n  reopen   \"x\"  \nmergd\n")
        #expect(run.lines == [
            "line 1: merged: draft: rejected: unknown-input: input 'merged' is internal: only effects may send it",
            "line 2: reopen: draft: rejected: unknown-input: input 'reopen' is internal: only effects may send it",
            "line 3: reopen: draft: rejected: unknown-input: input 'reopen' is internal: only effects may send it",
            "line 4: mergd: draft: rejected: unknown-input: unknown input 'mergd'",
        ])
        #expect(run.exited(1))
    }

    @Test func anInternalInputIsUnknownToSend() throws {
        let run = try Smrun.run([Self.machine, "--format", "json", "--send", "merged", "--send", "reopen=1"])
        let lines = try run.jsonLines()
        #expect(lines.map { $0["error"] as? String } == ["unknown-input", "unknown-input"])
        #expect(lines[0]["message"] as? String == "input 'merged' is internal: only effects may send it")
        #expect(lines[1]["input"] as? String == "reopen")
        #expect(run.exited(1))
    }

    @Test func aGuardRejectedMessageShowsTheValuesTheGuardsRead() throws {
        let run = try Smrun.run(fixture: "review.yaml", script: "submit\napprove \"\"\n")
        #expect(run.lines[1] == #"line 2: approve "": review: rejected: guard-rejected: every guard of 'approve' from 'review' is false: 'arg == author' (arg = "", author = "ann"); 'arg != ""' (arg = "")"#)
        let json = try Smrun.run(fixture: "review.yaml", script: "submit\napprove \"\"\n", ["--format", "json"])
        #expect(try json.jsonLines()[1]["message"] as? String == #"every guard of 'approve' from 'review' is false: 'arg == author' (arg = "", author = "ann"); 'arg != ""' (arg = "")"#)
    }

    @Test func notLeavesFromEveryOtherNonFinalState() throws {
        #expect(try Smrun.run(fixture: "review.yaml", script: "close\n").lines == ["close: draft -> closed"])
        #expect(try Smrun.run(fixture: "review.yaml", script: "submit\nclose\n").lines[1] == "close: review -> closed")
    }

    @Test func graphShowsDescriptionsRefusalsAndExceptions() throws {
        let dot = try Smrun.run(["graph", Self.machine])
        #expect(dot.exited(0))
        #expect(dot.text.contains(#"    s0 [label="draft", tooltip="being written"];"#), "\(dot.text)")
        #expect(dot.text.contains(#"    except0 [label="any state except done", style="rounded,dashed"];"#), "\(dot.text)")
        #expect(dot.text.contains(#"    except0 -> s3 [label="close"];"#), "\(dot.text)")
        #expect(
            dot.text.contains(
                #"    s1 -> s1 [label="approve [arg == author] rejected: self-approval is not allowed\napprove [arg != \"\"] / merge\nwithdraw", tooltip="authors cannot approve their own work", style=dashed];"#),
            "\(dot.text)")
        let mermaid = try Smrun.run(["graph", "--format", "mermaid", Self.machine])
        #expect(mermaid.text.contains("    note right of s0 : being written\n"), "\(mermaid.text)")
        #expect(mermaid.text.contains("    anyStateExcept0 --> s3 : close\n"), "\(mermaid.text)")
    }

    @Test func validateAcceptsTheMachine() throws {
        let run = try Smrun.run(["validate", Self.machine])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.isEmpty, "no warning: the internal inputs are used, and done has a way out (reopen)")
    }

    /// A refusal changes nothing, so the state file keeps the state it had.
    @Test func aRefusalLeavesTheStateFileAsItWas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refusal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("review.json").path
        _ = try Smrun.run([Self.machine, "--state", state, "--send", "submit"])
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let run = try Smrun.run([Self.machine, "--state", state, "--send", "approve=ann"])
        #expect(run.exited(1))
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    }
}
