import Foundation
import Testing

/// `on_error: raise` (docs/semantics.md#error-events), SCXML documents' default: a guard that
/// fails is false, a failing step ends its effect and keeps what ran before it, and either
/// raises the internal input `error.execution`; mistakes loading finds in expressions, undeclared
/// locations and sends to other targets are warnings that fail when they run. Machine files
/// keep rejecting by default.
@Suite struct ErrorEventTests {
    private func scxml(_ body: String, attributes: String = "") -> String {
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:sc=\"https://statecraft.dev/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n"
    }

    private func run(_ name: String, _ text: String, _ arguments: [String], script: String = "") throws -> SmrunOutput {
        let files = try TemporaryFiles()
        let file = try files.file(name, text)
        return try Smrun.run([file] + arguments, input: .bytes(Data(script.utf8)))
    }

    // MARK: - SCXML documents

    private let failingGuard = """
        <datamodel><data id="n" expr="0"/></datamodel>
        <state id="idle">
          <transition event="go" cond="10 / n &gt; 1" target="wrong"/>
          <transition event="go" target="waiting"/>
        </state>
        <state id="waiting"><transition event="error" target="caught"/></state>
        <state id="caught"/>
        <state id="wrong"/>
        """

    @Test func aGuardThatFailsIsFalseAndRaisesErrorExecution() throws {
        let output = try run("doc.scxml", scxml(failingGuard), ["--send", "go", "--format", "json"])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.lines.count == 2, "\(output.text)")
        #expect(output.lines[0].contains("\"to\":[\"waiting\"]"), "\(output.text)")
        #expect(output.lines[1].hasPrefix("{\"input\":\"error.execution\""), "\(output.text)")
        #expect(output.lines[1].contains("\"to\":[\"caught\"]") && output.lines[1].contains("\"sent_by\":\"idle\""), "\(output.text)")
        #expect(output.errorText == "log: error.execution: \"division by zero in the guard '10 / n > 1'\"\n")
    }

    @Test func onErrorRejectKeepsTheRejection() throws {
        let output = try run("doc.scxml", scxml(failingGuard, attributes: "sc:on-error=\"reject\""), ["--send", "go"])
        #expect(output.exited(1))
        #expect(output.text.contains("go: idle: rejected: expression-error: division by zero"), "\(output.text)")
    }

    private let failingBlock = """
        <datamodel><data id="steps" expr="0"/></datamodel>
        <state id="s">
          <onentry>
            <assign location="steps" expr="steps + 1"/>
            <assign location="missing" expr="1"/>
            <assign location="steps" expr="steps + 10"/>
          </onentry>
          <onentry><assign location="steps" expr="steps + 100"/></onentry>
          <transition event="error.execution" cond="steps == 101" target="pass"/>
        </state>
        <final id="pass"/>
        """

    /// The undeclared location is a warning at load; when it runs, the rest of its `<onentry>`
    /// is skipped, what ran before it stays, and the next `<onentry>` runs.
    @Test func aFailingStepEndsItsBlockAndTheNextBlockRuns() throws {
        let output = try run("doc.scxml", scxml(failingBlock), [])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.text == "start: -> s / s.onentry, s.onentry.2\n  error.execution (sent by s.onentry): s -> pass\n")
        #expect(output.errorText == "log: error.execution: \"effect 's.onentry' sets undefined context variable 'missing'\"\n")
    }

    @Test func validateShowsTheDeferredMistakeAsAWarning() throws {
        let files = try TemporaryFiles()
        let file = try files.file("doc.scxml", scxml(failingBlock))
        let output = try Smrun.run(["validate", file])
        #expect(output.exited(0), "\(output.text)")
        #expect(
            output.text.contains(
                "doc.scxml:6: warning: effect 's.onentry' sets undefined context variable 'missing'; it raises error.execution when it runs (on_error: raise) [undefined-variable]"
            ), "\(output.text)")
        let rejecting = try files.file("rejecting.scxml", scxml(failingBlock, attributes: "sc:on-error=\"reject\""))
        let refused = try Smrun.run(["validate", rejecting])
        #expect(refused.exited(1), "\(refused.text)")
        #expect(refused.text.contains("rejecting.scxml:6: error: effect 's.onentry' sets undefined context variable 'missing' [undefined-variable]"))
    }

    @Test func aConditionThatDoesNotCompileIsFalse() throws {
        let output = try run(
            "doc.scxml",
            scxml(
                """
                <state id="s0">
                  <transition cond="return" target="wrong"/>
                  <transition target="right"/>
                </state>
                <final id="right"/>
                <final id="wrong"/>
                """), [])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.text == "  (eventless): s0 -> right\n")
    }

    /// A send to a target other than this machine raises error.execution and ends its block.
    @Test func aSendToAnotherTargetRaisesErrorExecution() throws {
        let output = try run(
            "doc.scxml",
            scxml(
                """
                <datamodel><data id="n" expr="0"/></datamodel>
                <state id="s0">
                  <onentry><send event="hello" target="elsewhere"/><assign location="n" expr="1"/></onentry>
                  <transition event="error" cond="n == 0" target="pass"/>
                </state>
                <final id="pass"/>
                """), [])
        #expect(output.text == "start: -> s0 / s0.onentry\n  error.execution (sent by s0.onentry): s0 -> pass\n", "\(output.errorText)")
        #expect(output.errorText.contains("sends 'hello' to target 'elsewhere': a machine sends only to itself"))
    }

    /// Only the machine raises `error.execution`, even where a descriptor names it.
    @Test func errorExecutionCannotBeSentFromOutside() throws {
        let output = try run(
            "doc.scxml", scxml("<state id=\"a\"><transition event=\"error.execution\" target=\"b\"/></state><state id=\"b\"/>"),
            ["--send", "error.execution"])
        #expect(output.exited(1))
        #expect(output.text.contains("rejected: unknown-input: input 'error.execution' is internal"), "\(output.text)")
    }

    @Test func anUnknownErrorPolicyIsAnError() throws {
        let output = try run("doc.scxml", scxml("<state id=\"a\"/>", attributes: "sc:on-error=\"ignore\""), [])
        #expect(output.exited(2))
        #expect(output.errorText.contains("sc:on-error is 'raise' or 'reject', not 'ignore' [invalid-value]"), "\(output.errorText)")
    }

    /// `_event.name` is `input()`, the name of the event being processed.
    @Test func theEventsNameIsInput() throws {
        let output = try run(
            "doc.scxml",
            scxml(
                """
                <datamodel><data id="seen" expr="''"/></datamodel>
                <state id="s0">
                  <onentry><raise event="foo"/></onentry>
                  <transition event="foo" cond="_event.name == 'foo'" target="pass"><assign location="seen" expr="_event.name"/></transition>
                  <transition event="foo" target="fail"/>
                </state>
                <final id="pass"/>
                <final id="fail"/>
                """), ["--format", "json"])
        #expect(output.lines.last?.contains("\"to\":[\"pass\"]") == true, "\(output.text)\(output.errorText)")
        #expect(output.lines.last?.contains("\"context\":{\"seen\":\"foo\"}") == true, "\(output.text)")
    }

    // MARK: - Machine files

    private let averaging = """
        initial: idle
        context: { total: 0, count: 0 }
        inputs:
          add: int
        states: [idle, broken]
        effects:
          average:
            - set: { count: count + 1 }
            - set: { total: total / arg }
            - set: { count: count + 100 }
        transitions:
          - input: add
            from: idle
            effects: [average]
          - error.* | idle => broken

        """

    /// Without `on_error: raise` the machine has no input `error.execution`.
    private var rejecting: String { averaging.replacingOccurrences(of: "  - error.* | idle => broken\n", with: "") }

    @Test func aMachineFileRejectsByDefault() throws {
        let output = try run("m.yaml", rejecting, ["--send", "add=0"])
        #expect(output.exited(1))
        #expect(output.text == "add 0: idle: rejected: expression-error: division by zero in 'total / arg' of effect 'average'; nothing changed\n")
    }

    @Test func aMachineFileMayRaise() throws {
        let text = averaging.replacingOccurrences(of: "initial: idle\n", with: "initial: idle\non_error: raise\n")
        let output = try run("m.yaml", text, ["--send", "add=0", "--format", "json"])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.lines.count == 2, "\(output.text)")
        // What ran before the failing step stays.
        #expect(output.lines[0].hasSuffix("\"context\":{\"total\":0,\"count\":1}}"), "\(output.text)")
        #expect(output.lines[1].contains("\"input\":\"error.execution\"") && output.lines[1].contains("\"sent_by\":\"average\""), "\(output.text)")
        let wrong = try run("m.yaml", averaging.replacingOccurrences(of: "initial: idle\n", with: "initial: idle\non_error: always\n"), [])
        #expect(wrong.exited(2))
        #expect(wrong.errorText.contains("m.yaml:2:11: error: 'on_error' is 'reject' or 'raise', not 'always' [invalid-value]"), "\(wrong.errorText)")
    }

    @Test func errorExecutionIsInternalAndTakesNoArgument() throws {
        let text = averaging.replacingOccurrences(of: "initial: idle\n", with: "initial: idle\non_error: raise\n")
        let sent = try run("m.yaml", text, ["--send", "error.execution"])
        #expect(sent.exited(1))
        #expect(sent.text.contains("unknown-input"), "\(sent.text)")
        let typed = text.replacingOccurrences(of: "  add: int\n", with: "  add: int\n  error.execution: string\n")
        let refused = try run("m.yaml", typed, [])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains("input 'error.execution' is raised by failing steps (on_error: raise) and takes no argument [argument-type]"), "\(refused.errorText)")
    }

    @Test func aSendWithATargetIsAnErrorUnlessTheMachineRaises() throws {
        let machine = """
            initial: a
            states: [a, b]
            effects:
              tell: { send: { input: b.go, target: elsewhere } }
            transitions:
              - go | a => b | tell

            """
        let refused = try run("m.yaml", machine, ["--send", "go"])
        #expect(refused.exited(2))
        #expect(
            refused.errorText.hasSuffix("/m.yaml:4:26: error: effect 'tell' sends 'b.go' to target 'elsewhere': a machine sends only to itself (no target) [unsupported]\n"),
            "\(refused.errorText)")
        let raising = try run("m.yaml", machine.replacingOccurrences(of: "initial: a\n", with: "initial: a\non_error: raise\n"), ["--send", "go"])
        #expect(raising.exited(0))
        #expect(raising.text == "go: a -> b / tell\n")
    }

    /// `input()` in a flat machine makes it a statechart; its results keep their strings.
    @Test func inputReadsTheInputsName() throws {
        let machine = """
            initial: idle
            context: { last: "" }
            states: [idle, busy]
            effects:
              remember: { set: { last: input() } }
            transitions:
              - input: "*"
                from: idle
                to: busy
                when: input() != "skip"
                effects: [remember]
              - skip | busy => idle
              - go | busy => idle

            """
        let output = try run("m.yaml", machine, ["--format", "json"], script: "skip\ngo\n")
        #expect(output.lines.count == 2, "\(output.text)")
        #expect(output.lines[0].contains("\"error\":\"guard-rejected\""), "\(output.text)")
        #expect(output.lines[1].contains("\"to\":\"busy\"") && output.lines[1].hasSuffix("\"context\":{\"last\":\"go\"}}"), "\(output.text)")
        let misused = try run("m.yaml", machine.replacingOccurrences(of: "last: input() }", with: "last: input(1) }"), [])
        #expect(misused.exited(2))
        #expect(misused.errorText.contains("input() takes no argument"), "\(misused.errorText)")
    }

    // MARK: - Export

    /// Both formats say the policy: a machine file's export to SCXML keeps `reject`, a
    /// document's to YAML keeps `raise`, and each behaves as the original.
    @Test func exportKeepsThePolicy() throws {
        let files = try TemporaryFiles()
        let yaml = try files.file("m.yaml", rejecting)
        let asSCXML = try Smrun.run(["export", "--format", "scxml", yaml])
        #expect(asSCXML.text.contains("sc:on-error=\"reject\""), "\(asSCXML.text)")
        let document = try files.file("doc.scxml", scxml(failingBlock))
        let asYAML = try Smrun.run(["export", "--format", "yaml", document])
        #expect(asYAML.text.contains("on_error: raise\n"), "\(asYAML.text)")
        let exported = try files.file("exported.yaml", asYAML.text)
        let rerun = try Smrun.run([exported])
        #expect(rerun.text == "start: -> s / s.onentry, s.onentry.2\n  error.execution (sent by s.onentry): s -> pass\n", "\(rerun.text)\(rerun.errorText)")
    }
}
