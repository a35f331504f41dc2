import Statecraft
import Testing

@testable import StatecraftYAML

/// Machine files with `from: { not: ... }`, internal inputs, descriptions and `reject:`, and the
/// diagnostics of their bad forms.
@Suite struct RulesAndRefusalsDecodingTests {
    func load(_ text: String) -> LoadResult {
        YAMLFile.load(bytes: Array(text.utf8), defaultName: "test")
    }

    /// Each diagnostic as `LINE:COL: severity: message [code]`.
    func problems(_ text: String) -> [String] {
        load(text).diagnostics.map(\.description)
    }

    static let review = """
        initial: open
        context: { author: "ann" }
        inputs:
          approve: string
          settle: { internal: true, description: sent by effects }
          cancel:
        states:
          open: { description: waiting for a reviewer }
          approved:
          cancelled: { final: true }
        transitions:
          - input: approve
            from: open
            when: arg == author
            reject: self-approval is not allowed
            description: authors cannot approve their own work
          - approve | open => approved
          - input: cancel
            from: { not: approved }
            to: cancelled
          - input: settle
            from: { not: [open, cancelled] }
        """

    @Test func theNewFormsDecode() throws {
        let result = load(Self.review)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let definition = try #require(result.definition)
        #expect(definition.inputs?.map(\.isInternal) == [false, true, false])
        #expect(definition.inputs?[1].description == "sent by effects")
        #expect(definition.states.map(\.description) == ["waiting for a reviewer", nil, nil])
        #expect(definition.transitions[0].refusal == "self-approval is not allowed")
        #expect(definition.transitions[0].description == "authors cannot approve their own work")
        #expect(definition.transitions[0].target == nil)
        guard case .anyNonFinalExcept(let one, let position) = definition.transitions[2].source,
            case .anyNonFinalExcept(let two, _) = definition.transitions[3].source
        else {
            Issue.record("'not' did not decode")
            return
        }
        #expect(one.map(\.name) == ["approved"] && one[0].position == SourcePosition(line: 19, column: 18))
        #expect(position == SourcePosition(line: 19, column: 18))
        #expect(two.map(\.name) == ["open", "cancelled"])
        let machine = try #require(result.machine)
        #expect(machine.transitions[2].sources == [0])
        #expect(machine.transitions[3].sources == [1])
        #expect(machine.inputIsInternal == [false, true, false])
    }

    /// Descriptions are layout: editing, adding or removing one keeps the fingerprint, so a
    /// state file saved before the edit still resumes.
    @Test func descriptionsLeaveTheFingerprintAsItWas() throws {
        let base = try #require(load(Self.review).machine).fingerprint
        let edited = Self.review
            .replacing("waiting for a reviewer", with: "in review")
            .replacing("    description: authors cannot approve their own work\n", with: "")
            .replacing("  approved:\n", with: "  approved: { description: merged }\n")
        #expect(edited != Self.review)
        #expect(try #require(load(edited).machine).fingerprint == base)
        let refusalEdited = Self.review.replacing("self-approval is not allowed", with: "no")
        #expect(try #require(load(refusalEdited).machine).fingerprint != base, "a refusal's message is behaviour")
    }

    @Test func rejectWithToOrEffectsIsAnError() {
        #expect(problems("""
            initial: a
            states: [a, b]
            transitions:
              - input: go
                from: a
                to: b
                reject: not yet
              - input: stop
                from: a
                effects: [beep]
                reject: not yet
            """) == [
                "6:5: error: a transition that rejects its input ('reject') changes nothing: it cannot have 'to' too [invalid-value]",
                "10:5: error: a transition that rejects its input ('reject') changes nothing: it cannot have 'effects' too [invalid-value]",
            ])
    }

    @Test func rejectIsAMessageOnOneLine() {
        #expect(problems("""
            initial: a
            states: [a]
            transitions:
              - { input: go, from: a, reject: [no] }
              - { input: go, from: a, reject: "" }
              - { input: go, from: a, reject: "two\\nlines" }
              - { input: go, from: a, reject: }
            """) == [
                "4:35: error: 'reject' is the message the input is rejected with, not a list [wrong-kind]",
                "5:35: error: 'reject' needs a message saying why the input is rejected [invalid-value]",
                "6:35: error: 'reject' is a message on one line, without line breaks or control characters [invalid-value]",
                "7:35: error: 'reject' is the message the input is rejected with, not null [wrong-kind]",
            ])
    }

    @Test func badNotListsAreReportedWhereTheyAreWritten() {
        #expect(problems("""
            initial: idle
            states: [idle, busy, done]
            transitions:
              - { input: a, from: { not: [] }, to: idle }
              - { input: b, from: { not: "*" }, to: idle }
              - { input: c, from: { not: [idle, busy, done] }, to: idle }
              - { input: d, from: { nott: idle }, to: idle }
              - { input: e, from: { not: { idle: 1 } }, to: idle }
              - { input: f, from: { not: [idel] }, to: idle }
            """) == [
                "4:30: error: 'not' lists no state; write from: '*' for every non-final state [invalid-value]",
                "5:30: error: 'not' lists the states to leave out of '*'; it cannot list '*' [invalid-value]",
                "6:30: error: 'not' excludes every non-final state, so the transition leaves from none and can never be taken [invalid-value]",
                "7:23: error: missing required key 'not' [missing-key]",
                "7:25: error: unknown key 'nott' in 'from' (a state, a list of states, '*', or { not: STATES }) (did you mean 'not'?); expected one of: not [unknown-key]",
                "8:30: error: 'not' must be a name, not a mapping [wrong-kind]",
                "9:31: error: 'not' refers to undefined state 'idel' (did you mean 'idle'?) [undefined-state]",
            ])
    }

    @Test func internalIsTrueOrFalse() {
        #expect(problems("""
            initial: a
            inputs:
              go: { internal: maybe }
            states: [a]
            transitions:
              - go | a
            """) == ["3:19: error: 'internal' is true or false [wrong-kind]"])
    }

    @Test func descriptionsAreText() {
        #expect(problems("""
            initial: a
            states:
              a: { description: [x] }
            transitions:
              - { input: go, from: a, description: { x: 1 } }
            """) == [
                "3:21: error: 'description' must be a scalar, not a list (an unquoted value in [...] is a flow list; quote the value to write text) [wrong-kind]",
                "5:40: error: 'description' must be a scalar, not a mapping (an unquoted value in {...} is a flow mapping; quote the value to write text) [wrong-kind]",
            ])
    }
}
