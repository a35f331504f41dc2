import Foundation
import Testing

/// Rules of SCXML's algorithm and executable content that the W3C conformance tests check,
/// each written here as a small document of our own.
@Suite struct SCXMLConformanceTests {
    private func run(_ body: String, attributes: String = "", _ arguments: [String]) throws -> SmrunOutput {
        let files = try TemporaryFiles()
        let file = try files.file(
            "doc.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n")
        return try Smrun.run([file] + arguments)
    }

    /// A state is in the configuration while its own `<onentry>` runs, and no longer while its
    /// `<onexit>` runs; its parent's `<onentry>` runs before it is entered.
    @Test func inSeesStatesJoinAndLeaveTheConfigurationOneByOne() throws {
        let output = try run(
            """
            <state id="outer" initial="inner">
              <onentry><if cond="In(inner)"><raise event="early"/></if></onentry>
              <onexit><if cond="In(inner)"><raise event="late"/></if></onexit>
              <state id="inner">
                <onentry><if cond="In(inner)"><raise event="entered"/></if></onentry>
                <onexit><if cond="In(inner)"><raise event="exiting"/></if></onexit>
                <transition event="entered" target="seen"/>
              </state>
            </state>
            <state id="seen">
              <transition event="exiting" target="done"/>
              <transition event="*" target="wrong"/>
            </state>
            <final id="done"/>
            <final id="wrong"/>
            """, [])
        #expect(output.lines.last?.hasSuffix("seen -> done") == true, "\(output.text)")
    }

    /// `delayexpr` is evaluated when the send runs (an int of milliseconds or a duration
    /// string), `idlocation` stores the send's id, and `<cancel sendidexpr>` cancels by the
    /// value it reads.
    @Test func computedDelaysIdLocationsAndCancelByExpression() throws {
        let body = """
            <datamodel><data id="wait" expr="100"/><data id="ticket" expr="''"/></datamodel>
            <state id="idle">
              <transition event="arm" target="armed">
                <assign location="wait" expr="wait * 20"/>
                <send event="alarm" delayexpr="wait" idlocation="ticket"/>
                <send event="reminder" delayexpr="'1s'"/>
              </transition>
            </state>
            <state id="armed">
              <transition event="disarm" target="idle"><cancel sendidexpr="ticket"/></transition>
              <transition event="alarm" target="ringing"/>
              <transition event="reminder"/>
            </state>
            <state id="ringing"/>
            """
        let rung = try run(body, ["--send", "arm", "--wait", "1999ms", "--wait", "1ms", "--format", "json"])
        #expect(rung.exited(0), "\(rung.errorText)")
        #expect(rung.lines.count == 3, "\(rung.text)")
        #expect(rung.lines.last?.contains("\"input\":\"alarm\"") == true && rung.lines.last?.contains("\"at\":2000") == true, "\(rung.text)")
        let disarmed = try run(body, ["--send", "arm", "--send", "disarm", "--wait", "3s"])
        #expect(disarmed.lines.count == 3 && disarmed.lines[1].hasPrefix("disarm: armed -> idle"), "\(disarmed.text)")
        #expect(disarmed.lines.last?.hasPrefix("reminder") == true, "\(disarmed.text)")
    }

    /// A computed delay that is not a duration fails the step that sends: it raises
    /// error.execution, or with sc:on-error="reject" rejects the event.
    @Test func aComputedDelayThatIsNoDurationFailsTheStep() throws {
        let body = """
            <state id="a"><transition event="go" target="b"><send event="late" delayexpr="'soon'"/></transition></state>
            <state id="b"><transition event="late" target="a"/></state>
            """
        let raising = try run(body, ["--send", "go"])
        #expect(raising.exited(0), "\(raising.text)")
        #expect(raising.text == "go: a -> b / a.transition.1\n")
        #expect(raising.errorText.contains("log: error.execution: \"the delay \\\"soon\\\" is not a duration"), "\(raising.errorText)")
        let rejecting = try run(body, attributes: "xmlns:sc=\"https://statecraft.dev/scxml\" sc:on-error=\"reject\"", ["--send", "go"])
        #expect(rejecting.exited(1), "\(rejecting.text)")
        #expect(rejecting.text.contains("the delay \"soon\" is not a duration"), "\(rejecting.text)")
    }

    /// The content of an `<initial>`'s transition runs after its state's `<onentry>`, only when
    /// the state is entered through it; a `<history>`'s runs while it has recorded nothing.
    @Test func initialAndHistoryTransitionContentRunOnDefaultEntryOnly() throws {
        let output = try run(
            """
            <state id="room">
              <onentry><log label="enter" expr="'room'"/></onentry>
              <initial><transition target="memory"><log label="initial" expr="'room'"/></transition></initial>
              <history id="memory"><transition target="desk"><log label="default" expr="'desk'"/></transition></history>
              <state id="desk"><transition event="walk" target="window"/></state>
              <state id="window"/>
              <transition event="leave" target="hall"/>
            </state>
            <state id="hall"><transition event="return" target="room"/><transition event="peek" target="window"/></state>
            """, ["--send", "walk", "--send", "leave", "--send", "return", "--send", "leave", "--send", "peek"])
        #expect(
            output.errorLines.filter { !$0.isEmpty } == [
                "log: enter: \"room\"", "log: initial: \"room\"", "log: default: \"desk\"", "log: enter: \"room\"", "log: initial: \"room\"",
                "log: enter: \"room\"",
            ], "\(output.errorText)")
        #expect(output.lines.last == "peek: hall -> window / room.onentry", "\(output.text)")
    }

    /// A transition that leaves a state and returns through its history finds what it recorded
    /// on the way out.
    @Test func aTransitionBackThroughTheHistoryOfTheStateItLeavesReturnsWhereItWas() throws {
        let output = try run(
            """
            <state id="player">
              <history id="resume"/>
              <state id="track1"><transition event="next" target="track2"/></state>
              <state id="track2"/>
              <transition event="restart" target="resume"/>
            </state>
            """, ["--send", "next", "--send", "restart"])
        #expect(output.lines == ["next: track1 -> track2", "restart: track2 -> track2"], "\(output.text)")
    }

    /// `<scxml initial>` may name states in different regions of a parallel state: the machine
    /// starts in them, and in the default of every other region.
    @Test func aDocumentMayStartInSeveralStatesOfAParallelState() throws {
        let output = try run(
            """
            <parallel id="desk">
              <state id="lamp"><state id="off"/><state id="on"/></state>
              <state id="radio"><state id="quiet"/><state id="loud"/></state>
              <state id="fan"><state id="still"/><state id="spinning"/></state>
            </parallel>
            """, attributes: "initial=\"on loud\"", ["--format", "json"])
        #expect(output.exited(0), "\(output.errorText)")
        let files = try TemporaryFiles()
        let yaml = try files.file("two.yaml", "initial: [on, loud]\nstates:\n  desk:\n    parallel: true\n    states:\n      lamp: { states: [off, on] }\n      radio: { states: [quiet, loud] }\n      fan: { states: [still, spinning] }\ntransitions:\n  - { input: tick, from: desk }\n")
        let fromYAML = try Smrun.run([yaml, "--send", "tick"])
        #expect(fromYAML.lines == ["tick: on, loud, still -> on, loud, still"], "\(fromYAML.text)\(fromYAML.errorText)")
    }

    /// `_event.data`, the event's value in SCXML's datamodels, is the expression language's
    /// `arg`; a name that only starts like it is left alone.
    @Test func eventDataIsTheArgument() throws {
        let output = try run(
            """
            <sc:input name="set" arg="int"/>
            <datamodel><data id="n" expr="0"/><data id="_event_data2" expr="1"/></datamodel>
            <state id="a">
              <transition event="set" cond="_event.data &gt; 2" target="b"><assign location="n" expr="_event.data + _event_data2"/></transition>
            </state>
            <state id="b"/>
            """, attributes: "xmlns:sc=\"https://statecraft.dev/scxml\"", ["--send", "set=5", "--format", "json"])
        #expect(output.exited(0), "\(output.errorText)")
        #expect(output.lines.first?.contains("\"context\":{\"n\":6") == true, "\(output.text)")
    }

    /// Default effects, computed delays, cancels by expression and several initial states
    /// survive `smrun export` both ways: the exports run as the document does.
    @Test func theNewStepsAndOptionsSurviveBothExports() throws {
        let files = try TemporaryFiles()
        let document = try files.file(
            "doc.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="on loud">
              <datamodel><data id="wait" expr="100"/><data id="ticket" expr="''"/></datamodel>
              <parallel id="desk">
                <state id="lamp">
                  <initial><transition target="off"><log label="lamp" expr="wait"/></transition></initial>
                  <state id="off"/><state id="on"><transition event="flip" target="lamp"/></state>
                </state>
                <state id="radio">
                  <state id="quiet"/>
                  <state id="loud">
                    <onentry><send event="hush" delayexpr="wait * 10" idlocation="ticket"/></onentry>
                    <transition event="hush" target="quiet"/>
                    <transition event="keep"><cancel sendidexpr="ticket"/></transition>
                  </state>
                </state>
              </parallel>
            </scxml>
            """)
        let arguments = ["--send", "flip", "--send", "keep", "--wait", "2s", "--format", "json"]
        let original = try Smrun.run([document] + arguments)
        #expect(original.exited(0), "\(original.errorText)")
        let yaml = try Smrun.run(["export", "--format", "yaml", document])
        let yamlFile = try files.file("doc.yaml", yaml.text)
        let fromYAML = try Smrun.run([yamlFile] + arguments)
        let scxml = try Smrun.run(["export", "--format", "scxml", yamlFile])
        let scxmlFile = try files.file("again.scxml", scxml.text)
        let fromSCXML = try Smrun.run([scxmlFile] + arguments)
        #expect(fromYAML.lines == original.lines, "\(yaml.text)\n\(fromYAML.text)\(fromYAML.errorText)")
        #expect(fromSCXML.lines == original.lines, "\(scxml.text)\n\(fromSCXML.text)\(fromSCXML.errorText)")
        #expect(fromYAML.errorLines == original.errorLines && fromSCXML.errorLines == original.errorLines, "\(fromSCXML.errorText)")
        // The effects of a default entry are run by their state: not unused.
        let validated = try Smrun.run(["validate", yamlFile])
        #expect(!validated.text.contains("unused-effect"), "\(validated.text)")
    }

    /// Two transitions that would exit a common state: the one selected first (from the
    /// earlier atomic state in document order) wins unless the other's source is inside its
    /// source, however deep the other's source is. Qt SCXML takes the deeper one here.
    @Test func theEarlierSelectionWinsAConflictBetweenRegions() throws {
        let output = try run(
            """
            <parallel id="desk">
              <state id="lamp"><transition event="e" target="loud"/></state>
              <state id="radio">
                <state id="quiet"><transition event="e" target="off"/></state>
                <state id="loud"/>
                <state id="off"/>
              </state>
            </parallel>
            """, ["--send", "e"])
        #expect(output.lines == ["e: lamp, quiet -> lamp, loud"], "\(output.text)")
    }
}
