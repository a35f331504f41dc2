import Foundation
import TestSupport
import Testing

/// SCXML documents run with SCXML's meaning (docs/scxml.md): descriptors, the internal queue,
/// eventless transitions, done events, history, `In()`, unhandled events, Statecraft's additions.
@Suite struct SCXMLRunTests {
    private func run(_ body: String, attributes: String = "", _ arguments: [String]) throws -> SmrunOutput {
        let files = try TemporaryFiles()
        let file = try files.file(
            "doc.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:sc=\"https://statecraft.dev/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n")
        return try Smrun.run([file] + arguments)
    }

    @Test func aDescriptorMatchesItsEventAndTheEventsThatExtendIt() throws {
        let output = try run(
            """
            <state id="up">
              <transition event="error" target="down"/>
              <transition event="*" target="other"/>
            </state>
            <state id="down"><transition event="error.disk.full ping" target="up"/></state>
            <state id="other"><transition event="ping" target="up"/></state>
            """, ["--send", "error.disk.full", "--send", "ping", "--send", "ping", "--send", "ping", "--send", "error"])
        #expect(
            output.lines == [
                "error.disk.full: up -> down", "ping: down -> up", "ping: up -> other", "ping: other -> up", "error: up -> down",
            ], "\(output.text)")
    }

    /// Eventless transitions first, then the internal queue (`<raise>`), then the external one
    /// (`<send>` without a target), before the next input from outside.
    @Test func eventlessThenInternalThenExternalEvents() throws {
        let output = try run(
            """
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="a">
              <transition event="go" target="b"><send event="later"/><raise event="second"/><assign location="n" expr="n + 1"/></transition>
            </state>
            <state id="b">
              <transition cond="n == 1" target="c"/>
              <transition event="second later" target="a"/>
            </state>
            <state id="c"><transition event="second" target="c2"/></state>
            <state id="c2"><transition event="later" target="d"/></state>
            <final id="d"/>
            """, ["--send", "go", "--format", "json"])
        let lines = output.lines
        #expect(lines.count == 4, "\(output.text)")
        guard lines.count == 4 else { return }
        #expect(lines[0].contains("\"effects\":[\"a.transition.1\"]"), "\(output.text)")
        #expect(lines[1].contains("\"eventless\":true") && lines[1].contains("\"to\":\"c\""), "\(output.text)")
        #expect(lines[2].contains("\"input\":\"second\"") && lines[2].contains("\"to\":\"c2\""), "\(output.text)")
        #expect(lines[3].contains("\"input\":\"later\"") && lines[3].contains("\"to\":\"d\""), "\(output.text)")
    }

    /// `<send delay id>` schedules an event on the machine's clock and `<cancel sendid>` takes
    /// it back: the timeout fires after a full wait, and not once the answer came first.
    @Test func delayedSendsFireOnTheClockAndCancelTakesThemBack() throws {
        let body = """
            <state id="idle"><transition event="ask" target="waiting"/></state>
            <state id="waiting">
              <onentry><send event="timeout" delay="1.5s" id="deadline"/></onentry>
              <transition event="answer" target="idle"><cancel sendid="deadline"/></transition>
              <transition event="timeout" target="idle"/>
            </state>
            """
        let timedOut = try run(body, ["--send", "ask", "--wait", "1s", "--wait", "500ms", "--format", "json"])
        #expect(timedOut.exited(0), "\(timedOut.errorText)")
        #expect(timedOut.lines.count == 2, "\(timedOut.text)")
        #expect(timedOut.lines.last?.contains("\"input\":\"timeout\"") == true && timedOut.lines.last?.contains("\"at\":1500") == true, "\(timedOut.text)")
        let answered = try run(body, ["--send", "ask", "--send", "answer", "--wait", "2s"])
        #expect(answered.lines == ["ask: idle -> waiting / waiting.onentry", "answer: waiting -> idle / waiting.transition.1"], "\(answered.text)")
        let files = try TemporaryFiles()
        let bad = try files.file(
            "bad.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n<state id=\"a\"><onentry><send event=\"x\" delay=\"5 parsecs\"/></onentry></state>\n</scxml>\n")
        let validated = try Smrun.run(["validate", bad])
        #expect(validated.status == 1 && validated.text.contains("bad.scxml:2: error: <send delay=\"5 parsecs\">"), "\(validated.text)\(validated.errorText)")
    }

    @Test func logWritesItsLabelAndValueToStandardError() throws {
        let output = try run(
            """
            <datamodel><data id="n" expr="2"/></datamodel>
            <state id="a"><transition event="go"><foreach array="3" item="n"><log label="n" expr="n * 10"/></foreach></transition></state>
            """, ["--send", "go"])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.errorLines.filter { !$0.isEmpty } == ["log: n: 0", "log: n: 10", "log: n: 20"], "\(output.errorText)")
    }

    @Test func unhandledEventsAreIgnoredUnlessTheDocumentSaysReject() throws {
        let body = "<state id=\"a\"><transition event=\"go\"/></state><state id=\"b\"><transition event=\"stop\"/></state>"
        let ignored = try run(body, ["--send", "stop"])
        #expect(ignored.exited(0) && ignored.lines == ["stop: a: ignored (no transition)"], "\(ignored.text)")
        let rejected = try run(body, attributes: "sc:on-unhandled=\"reject\"", ["--send", "stop"])
        #expect(rejected.exited(1) && rejected.text.contains("rejected: no-transition"), "\(rejected.text)")
    }

    @Test func typedInputsCarryTheirValueThroughContent() throws {
        let output = try run(
            """
            <sc:input name="deposit" arg="int"/>
            <sc:input name="credited" arg="int" internal="true"/>
            <datamodel><data id="balance" expr="0"/></datamodel>
            <state id="open">
              <transition event="deposit" cond="arg &lt;= 0" sc:reject="a deposit is positive"/>
              <transition event="deposit"><send event="credited" target="#_internal"><content expr="arg * 2"/></send></transition>
              <transition event="credited"><assign location="balance" expr="balance + arg"/></transition>
            </state>
            """, ["--send", "deposit=5", "--send", "deposit=-1", "--format", "json"])
        #expect(output.lines.count == 3, "\(output.text)")
        #expect(output.lines[1].contains("\"balance\":10"), "\(output.text)")
        #expect(output.lines[2].contains("\"error\":\"refused\"") && output.lines[2].contains("a deposit is positive"), "\(output.text)")
    }

    @Test func theNullDatamodelTestsStates() throws {
        let output = try run(
            """
            <parallel id="p">
              <state id="left"><state id="l1"><transition event="go" cond="In(r2)" target="l2"/></state><state id="l2"/></state>
              <state id="right"><state id="r1"><transition event="go" target="r2"/></state><state id="r2"/></state>
            </parallel>
            """, attributes: "datamodel=\"null\"", ["--send", "go", "--send", "go"])
        #expect(output.lines == ["go: l1, r1 -> l1, r2", "go: l1, r2 -> l2, r2"], "\(output.text)")
    }

    /// The statechart benchmark's player, written by hand in both formats (for Qt SCXML and for
    /// smrun), takes the same transitions on 400 inputs; only unhandled inputs differ, rejected
    /// by the machine file and ignored by the document, as SCXML discards them.
    @Test func theBenchmarksPlayerRunsAlikeInBothFormats() throws {
        let events = ["play", "resume", "stop", "pause", "seek", "mute", "unmute", "lowBandwidth", "bandwidthRestored"]
        var generator = SplitMix(seed: 3)
        let script = (0..<400).map { _ in events[Int(generator.next() % UInt64(events.count))] }.joined(separator: "\n") + "\n"
        func taken(_ machine: String) throws -> [String] {
            let output = try Smrun.run([machine], input: .bytes(Data(script.utf8)))
            return output.lines.filter { !$0.contains(": rejected: no-transition") && !$0.contains(": ignored (no transition)") }
        }
        let yaml = try taken("benchmarks/statechart/player.yaml")
        #expect(yaml.count > 100)
        #expect(try taken("benchmarks/statechart/player.scxml") == yaml)
    }

    @Test func graphDrawsADocument() throws {
        let output = try Smrun.run(["graph", "machines/stopwatch.scxml"])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.text.contains("cluster") && output.text.contains("H*"), "\(output.text.prefix(400))")
    }
}
