import Foundation
import TestSupport
import Testing

/// An SCXML document without `<sc:input>` declarations takes every valid event name, named in
/// it or not (docs/scxml.md, "Events"): a descriptor takes the events that extend it by tokens
/// (SCXML 3.12.1), and an event that no descriptor takes is ignored, or rejected as
/// `no-transition` under `sc:on-unhandled="reject"`, never an unknown input. With declarations
/// the inputs are exactly those declared.
@Suite struct SCXMLUndeclaredEventTests {
    private func run(_ body: String, attributes: String = "", script: String, _ arguments: [String] = []) throws -> SmrunOutput {
        let files = try TemporaryFiles()
        let file = try files.file(
            "doc.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:sc=\"https://statecraft.dev/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n")
        return try Smrun.run([file] + arguments, input: .bytes(Data(script.utf8)))
    }

    private let chain = """
        <state id="a">
          <transition event="foo.bar.bat" target="b"/>
          <transition event="foo" target="c"/>
        </state>
        <state id="b"><transition event="back" target="a"/></state>
        <state id="c"><transition event="back" target="a"/></state>
        """

    /// `foo.bar.bat.bif` is no name in the document: the longest descriptor that prefixes it,
    /// `foo.bar.bat`, takes it; `foo.barn` is taken by `foo` only (tokens, not characters), and
    /// the result shows the event's own name.
    @Test func anUndeclaredEventIsTakenByTheLongestDescriptorThatPrefixesIt() throws {
        let output = try run(chain, script: "foo.bar.bat.bif\nback\nfoo.barn\nback\nfoo.bar\n")
        #expect(output.exited(0), "\(output.text)\(output.errorText)")
        #expect(
            output.lines == [
                "foo.bar.bat.bif: a -> b", "back: b -> a", "foo.barn: a -> c", "back: c -> a", "foo.bar: a -> c",
            ], "\(output.text)")
        let json = try run(chain, script: "foo.bar.bat.bif\n", ["--format", "json"])
        #expect(json.lines == [#"{"line":1,"input":"foo.bar.bat.bif","ok":true,"from":"a","to":"b","effects":[],"transitions":[{"from":"a","to":["b"]}]}"#], "\(json.text)")
    }

    /// An event that no descriptor prefixes has no transition: ignored by default, rejected as
    /// `no-transition` (exit 1) under `sc:on-unhandled="reject"`, in text and JSON.
    @Test func anEventNoDescriptorTakesIsIgnoredOrHasNoTransition() throws {
        let ignored = try run(chain, script: "zap.zip\nback\n")
        #expect(ignored.exited(0), "\(ignored.text)\(ignored.errorText)")
        #expect(ignored.lines == ["zap.zip: a: ignored (no transition)", "back: a: ignored (no transition)"], "\(ignored.text)")
        let json = try run(chain, script: "zap.zip\nback\n", ["--format", "json"])
        #expect(json.lines.count == 2 && json.lines[0] == json.lines[1].replacingOccurrences(of: "2,\"input\":\"back\"", with: "1,\"input\":\"zap.zip\""), "\(json.text)")
        let rejected = try run(chain, attributes: "sc:on-unhandled=\"reject\"", script: "zap.zip\nfoo.bar.bat.bif\nfoo.bar.bat.bif\n")
        #expect(rejected.status == 1, "\(rejected.text)\(rejected.errorText)")
        #expect(
            rejected.lines == [
                "line 1: zap.zip: a: rejected: no-transition: no transition for 'zap.zip' from 'a'", "foo.bar.bat.bif: a -> b",
                "line 3: foo.bar.bat.bif: b: rejected: no-transition: no transition for 'foo.bar.bat.bif' from 'b'",
            ], "\(rejected.text)")
    }

    /// An undeclared event takes no argument; a name that is no valid event name, and any
    /// undeclared name once the document declares its inputs, is still an unknown input.
    @Test func argumentsInvalidNamesAndDeclaredInputsStayRefused() throws {
        let output = try run(chain, script: "foo.bar.bat.bif 5\nfoo..bar\n")
        #expect(output.status == 1, "\(output.text)\(output.errorText)")
        #expect(
            output.lines == [
                "line 1: foo.bar.bat.bif: a: rejected: bad-argument: 'foo.bar.bat.bif' takes no argument, got \"5\"",
                "line 2: foo..bar: a: rejected: unknown-input: unknown input 'foo..bar'",
            ], "\(output.text)")
        let sent = try run(chain, script: "", ["--send", "zap=1"])
        #expect(sent.lines == ["zap: a: rejected: bad-argument: 'zap' takes no argument, got \"1\""], "\(sent.text)\(sent.errorText)")
        // `--send 'EVENT ARG'` is not told to write `EVENT=ARG`: such an event takes no argument.
        let spaced = try run(chain, script: "", ["--send", "zap 1"])
        #expect(spaced.lines == [#""zap 1": a: rejected: unknown-input: unknown input 'zap 1'"#], "\(spaced.text)\(spaced.errorText)")
        let declared = try run(
            "<sc:input name=\"foo.bar.bat\"/><sc:input name=\"foo\"/><sc:input name=\"back\"/>\n" + chain, script: "foo.bar.bat.bif\n")
        #expect(declared.status == 1, "\(declared.text)\(declared.errorText)")
        #expect(declared.lines.first?.hasPrefix("line 1: foo.bar.bat.bif: a: rejected: unknown-input: unknown input 'foo.bar.bat.bif'") == true, "\(declared.text)")
    }

    /// A `NAME.*` descriptor names the event `NAME`: it is an input, and the undeclared events
    /// that extend it are taken by the descriptor.
    @Test func aPatternDescriptorTakesTheUndeclaredEventsThatExtendIt() throws {
        let body = """
            <state id="a"><transition event="net.*" target="b"/></state>
            <state id="b"><transition event="net.down" target="a"/></state>
            """
        let output = try run(body, script: "net.up.fast\nnet.down.hard\nnet\n")
        #expect(output.lines == ["net.up.fast: a -> b", "net.down.hard: b -> a", "net: a -> b"], "\(output.text)\(output.errorText)")
    }
}
