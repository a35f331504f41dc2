import Foundation
import Testing

/// `smrun export` loses nothing a machine does: every example machine, written as SCXML and
/// read back (and written as YAML again), gives the same results on its scripts, and every
/// SCXML example the other way round (docs/scxml.md, export). A machine with `after`
/// transitions is written with a delayed `<send>` per timer, which SCXML reads as an input of
/// its own: the same steps at the same times, to the same states and contexts.
@Suite struct ExportRoundTripTests {
    static let examples = ExampleMachineTests.examples

    private func export(_ machine: String, as format: String, to path: String) throws {
        let run = try Smrun.run(["export", "--format", format, machine])
        #expect(run.exited(0), "\(run.errorText)")
        try run.stdout.write(to: URL(fileURLWithPath: path))
    }

    private func results(_ machine: String, _ script: String) throws -> (text: String, json: String) {
        let input = StandardInput.file(Paths.packageRoot.appendingPathComponent(script))
        return (try Smrun.run([machine], input: input).text, try Smrun.run([machine, "--format", "json"], input: input).text)
    }

    @Test(arguments: examples)
    func exportedMachinesBehaveTheSame(_ example: ExampleMachineTests.Example) throws {
        let files = try TemporaryFiles()
        let isSCXML = example.machine.hasSuffix(".scxml")
        let name = URL(fileURLWithPath: example.machine).deletingPathExtension().lastPathComponent
        let other = files.path(isSCXML ? "\(name).yaml" : "\(name).scxml")
        let back = files.path(isSCXML ? "back-\(name).scxml" : "back-\(name).yaml")
        let original = try results(example.machine, example.script)
        try export(example.machine, as: isSCXML ? "yaml" : "scxml", to: other)
        try export(other, as: isSCXML ? "scxml" : "yaml", to: back)
        if !isSCXML, try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.machine), encoding: .utf8).contains("after:") {
            // Timers are sends of their own in SCXML: the same steps, told as inputs.
            try expectSameSteps(example, other, back)
            return
        }
        for converted in [other, back] {
            let found = try results(converted, example.script)
            #expect(found.text == original.text, "\(converted)")
            #expect(found.json == original.json, "\(converted)")
        }
    }

    /// The machines whose `after` transitions SCXML writes as delayed sends.
    static let timedMachines = ["machines/timed-traffic-light.yaml", "machines/login-session.yaml"]

    /// Each timed machine, exported as SCXML: every `after` is a delayed `<send>` in CSS2 time
    /// in its state's `<onentry>`, cancelled in its `<onexit>`, and the same script takes the
    /// same steps.
    @Test(arguments: timedMachines)
    func afterTransitionsAreWrittenAsDelayedSends(_ machine: String) throws {
        let example = try #require(Self.examples.first { $0.machine == machine })
        let files = try TemporaryFiles()
        let scxml = files.path("timed.scxml")
        let back = files.path("back-timed.yaml")
        try export(machine, as: "scxml", to: scxml)
        try export(scxml, as: "yaml", to: back)
        let document = try String(contentsOfFile: scxml, encoding: .utf8)
        #expect(document.contains(#"<send event="after.1" delay="#) && document.contains(#"<cancel sendid="after.1"/>"#), "\(document)")
        #expect(!document.contains(#"delay="30m""#) && !document.contains(#"delay="5m""#), "CSS2 times: \(document)")
        if machine.contains("login") {
            #expect(document.contains(#"<send event="after.3" delay="300s" id="after.3"/>"#), "\(document)")
            #expect(document.contains(#"<send event="after.1" delay="250ms" id="after.1"/>"#), "\(document)")
        }
        try expectSameSteps(example, scxml, back)
    }

    /// The original machine and each converted one take the same steps on the example's script:
    /// at the same lines and times, between the same states, with the same contexts and
    /// results, and the same effects but the `STATE.onentry` and `STATE.onexit` that start and
    /// cancel timers; where the original took an `after` transition, the converted ones take
    /// the input of its timer.
    private func expectSameSteps(
        _ example: ExampleMachineTests.Example, _ converted: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let input = StandardInput.file(Paths.packageRoot.appendingPathComponent(example.script))
        func steps(_ machine: String) throws -> [[String: String]] {
            let run = try Smrun.run([machine, "--format", "json"], input: input)
            return try run.jsonLines().map { line in
                var step: [String: String] = [:]
                for key in ["start", "line", "at", "ok", "from", "to", "error", "context", "input"] {
                    guard let value = line[key] else { continue }
                    step[key] = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
                }
                if line["after"] != nil || (line["timer"] as? String)?.hasPrefix("after.") == true { step["input"] = "(timer)" }
                let effects = (line["effects"] as? [String] ?? []).filter { !$0.hasSuffix(".onentry") && !$0.hasSuffix(".onexit") }
                step["effects"] = effects.joined(separator: ",")
                return step
            }
        }
        let original = try steps(example.machine)
        #expect(original.count > 3, sourceLocation: sourceLocation)
        for machine in converted {
            #expect(try steps(machine) == original, "\(machine)", sourceLocation: sourceLocation)
        }
    }

    /// Every kind of step, through both writers: the same results and the same log lines.
    @Test func stepsSurviveBothWriters() throws {
        let files = try TemporaryFiles()
        let document = try files.file(
            "steps.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="https://statecraft.dev/scxml" version="1.0" name="steps">
              <sc:input name="go" arg="int"/>
              <sc:input name="echo" arg="string"/>
              <sc:input name="done"/>
              <datamodel><data id="n" expr="0"/><data id="i" expr="0"/><data id="text">"a \\"quoted\\" &amp; &lt;b&gt;"</data></datamodel>
              <state id="idle">
                <transition event="go" target="busy">
                  <if cond="arg &gt; 10"><assign location="n" expr="arg"/><log label="big" expr="n"/>
                  <elseif cond="arg &gt; 5"/><log label="medium"/>
                  <else/><foreach array="arg" item="i"><assign location="n" expr="n + i"/></foreach><log expr="text + string(n)"/></if>
                  <send event="echo" target="#_internal"><content expr="string(n)"/></send>
                  <send event="done"/>
                </transition>
              </state>
              <state id="busy">
                <transition event="echo"><log label="echo" expr="arg"/></transition>
                <transition event="done" target="idle"/>
              </state>
            </scxml>
            """)
        let yaml = files.path("steps.yaml")
        let back = files.path("back-steps.scxml")
        try export(document, as: "yaml", to: yaml)
        try export(yaml, as: "scxml", to: back)
        let arguments = ["--send", "go=3", "--send", "go=7", "--send", "go=12", "--format", "json"]
        let original = try Smrun.run([document] + arguments)
        #expect(original.exited(0), "\(original.errorText)")
        #expect(original.errorLines.contains(#"log: "a \"quoted\" & <b>3""#), "\(original.errorText)")
        for converted in [yaml, back] {
            let run = try Smrun.run([converted] + arguments)
            #expect(run.text == original.text, "\(converted)")
            #expect(run.errorText == original.errorText, "\(converted)")
        }
    }

    /// Lists (a `<data>` list, an undeclared `<foreach>` item, indexing) and an event's data
    /// (`<param>`, `_event.data.NAME`) through both writers, from either side.
    @Test func listsAndEventDataSurviveBothWriters() throws {
        let files = try TemporaryFiles()
        let document = try files.file(
            "lists.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="lists">
              <datamodel><data id="odd">[1, 3, 5]</data><data id="total" expr="0"/><data id="words" expr="['a', 'b, c']"/></datamodel>
              <state id="idle">
                <transition event="go" target="busy">
                  <foreach array="odd" item="each" index="where"><assign location="total" expr="total + each * where"/></foreach>
                  <send event="tally" delay="1s"><param name="sum" expr="total"/><param name="first" expr="words[0]"/></send>
                </transition>
              </state>
              <state id="busy">
                <transition event="tally" target="idle"><log label="tally" expr="_event.data.first + string(_event.data.sum)"/></transition>
              </state>
            </scxml>
            """)
        let yaml = files.path("lists.yaml")
        let back = files.path("back-lists.scxml")
        try export(document, as: "yaml", to: yaml)
        try export(yaml, as: "scxml", to: back)
        let yamlText = try String(contentsOfFile: yaml, encoding: .utf8)
        #expect(yamlText.contains("odd: [1, 3, 5]") && yamlText.contains("each: null"), "\(yamlText)")
        #expect(yamlText.contains(#"data: { sum: "total", first: "words[0]" }"#), "\(yamlText)")
        let arguments = ["--send", "go", "--wait", "1s", "--format", "json"]
        let original = try Smrun.run([document] + arguments)
        #expect(original.exited(0), "\(original.errorText)")
        #expect(original.errorLines.contains(#"log: tally: "a13""#), "\(original.errorText)")
        #expect(original.text.contains(#""context":{"odd":[1,3,5],"total":13,"words":["a","b, c"],"each":5,"where":2}"#), "\(original.text)")
        for converted in [yaml, back] {
            let run = try Smrun.run([converted] + arguments)
            #expect(run.text == original.text, "\(converted)")
            #expect(run.errorText == original.errorText, "\(converted)")
        }
        let yamlBack = files.path("back-lists.yaml")
        try export(back, as: "yaml", to: yamlBack)
        #expect(try String(contentsOfFile: yamlBack, encoding: .utf8) == yamlText, "YAML to SCXML to YAML gives the same file")
    }

    @Test func aTransitionSCXMLCannotSayIsRefused() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "prefix.yaml", "initial: a\ninputs: [e, e.x]\nstates: [a, b]\ntransitions:\n  - e | a => b\n  - e.x | b => a\n")
        let run = try Smrun.run(["export", "--format", "scxml", machine])
        #expect(run.exited(2))
        #expect(run.errorText.contains("the transition on 'e' (line 5) cannot be written in SCXML"), "\(run.errorText)")
    }
}
