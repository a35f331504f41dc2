import Foundation
import Testing

/// Lists and input data with named fields, run end to end by smrun: results, JSON output,
/// run-time errors with their line and effect, and state files that save and resume them.
@Suite struct ListAndDataRunTests {
    static let machine = """
        machine: tally
        context:
          marks: [4, 9, 2]
          total: 0
          mark: 0
          slot: 0
          best: 0
        initial: open
        states: [open, closed]
        inputs: { add: , pick: int, close: , report: }
        transitions:
          - add | open | adding
          - pick | open | picking
          - close | open | closing
          - report | open => closed | reporting
        effects:
          adding:
            - foreach: { array: marks, item: mark, index: slot, do: { set: { total: total + mark } } }
            - set: { marks: '[total, len(marks)]' }
          picking: { set: { best: 'marks[arg]' } }
          closing: { send: { input: report, delay: 1s, data: { sum: total, count: 'len(marks)' } } }
          reporting: { set: { best: 'arg.sum * 10 + arg.count' } }
        """

    @Test func aForeachOverAListAndItsJSON() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let run = try Smrun.run([file, "--format", "json"], input: .bytes(Data("add\npick 1\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines == [
            #"{"line":1,"input":"add","ok":true,"from":"open","to":"open","effects":["adding"],"context":{"marks":[15,3],"total":15,"mark":2,"slot":2,"best":0}}"#,
            #"{"line":2,"input":"pick","arg":1,"ok":true,"from":"open","to":"open","effects":["picking"],"context":{"marks":[15,3],"total":15,"mark":2,"slot":2,"best":3}}"#,
        ])
    }

    @Test func anIndexOutOfRangeRejectsTheInputWithItsLineAndEffect() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let run = try Smrun.run([file], input: .bytes(Data("pick 3\n".utf8)))
        #expect(run.exited(1))
        #expect(run.lines == [
            "line 1: pick 3: open: rejected: expression-error: index 3 is out of range: the list has 3 items, indexed 0 to 2 in 'marks[arg]' of effect 'picking'; nothing changed"
        ])
    }

    @Test func aDelayedSendsDataIsTakenWhenItIsSentAndReadByItsFields() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let run = try Smrun.run([file, "--format", "json"], input: .bytes(Data("add\nclose\nadd\n@wait 1s\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines.last?.contains(#""input":"report","arg":{"sum":15,"count":2},"at":1000,"ok":true"#) == true, "\(run.text)")
        #expect(run.lines.last?.contains(#""total":33"#) == true && run.lines.last?.contains(#""best":152"#) == true,
            "the fields as they were when sent, not when read: \(run.text)")
    }

    @Test func anInputWithDataSentFromAScriptHasNoFields() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let run = try Smrun.run([file], input: .bytes(Data("report\n".utf8)))
        #expect(run.exited(1))
        #expect(run.lines == [
            "line 1: report: open: rejected: expression-error: the input's data has no field 'sum' in 'arg.sum * 10 + arg.count' of effect 'reporting'; nothing changed"
        ])
    }

    @Test func aStateFileSavesListsAndPendingDataAsJSON() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let state = files.path("tally.state")
        let first = try Smrun.run([file, "--state", state, "--send", "add", "--send", "close"])
        #expect(first.exited(0), "\(first.errorText)")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(#""marks": [15,3],"#), "\(saved)")
        #expect(saved.contains(#""input": "report", "arg": {"sum":15,"count":2}, "sent_by": "closing""#), "\(saved)")
        let resumed = try Smrun.run([file, "--state", state, "--format", "json"], input: .bytes(.init("@wait 1s\n".utf8)))
        #expect(resumed.exited(0), "\(resumed.errorText)")
        #expect(resumed.lines.last?.contains(#""best":152"#) == true, "\(resumed.text)")
    }

    @Test func aStateFileWithAListOfTheWrongItemsIsRefused() throws {
        let files = try TemporaryFiles()
        let file = try files.file("tally.yaml", Self.machine)
        let state = files.path("tally.state")
        #expect(try Smrun.run([file, "--state", state, "--send", "add"]).exited(0))
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        try saved.replacingOccurrences(of: "[15,3]", with: "[15,\"x\"]").write(toFile: state, atomically: true, encoding: .utf8)
        let run = try Smrun.run([file, "--state", state, "--send", "add"])
        #expect(run.exited(2) || run.exited(1), "\(run.errorText)")
        #expect(run.errorText.contains("context variable 'marks' is of type [int], but the snapshot has a string at index 1 of its list"), "\(run.errorText)")
    }

    /// A scenario starts from, and expects, lists written as YAML sequences.
    @Test func scenariosStartFromAndExpectLists() throws {
        let files = try TemporaryFiles()
        _ = try files.file("tally.yaml", Self.machine)
        let scenario = try files.file(
            "tally.test.yaml",
            """
            machine: tally.yaml
            scenarios:
              - name: sums what it starts with
                context: { marks: [1, 2] }
                steps:
                  - send: add
                    expect: { context: { total: 3, marks: [3, 2] } }
              - name: a list that differs fails
                steps:
                  - send: add
                    expect: { context: { marks: [15] } }
            """)
        let run = try Smrun.run(["test", scenario])
        #expect(run.exited(1), "\(run.errorText)")
        #expect(run.text.contains("1 passed, 1 failed"), "\(run.text)")
        #expect(run.text.contains("- context.marks: [15]\n    + context.marks: [15, 3]"), "\(run.text)")
        let bad = try files.file(
            "bad.test.yaml", "machine: tally.yaml\nscenarios:\n  - name: x\n    context: { marks: [1, true] }\n    steps: [{ send: add }]\n")
        let refused = try Smrun.run(["test", bad])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains("bad.test.yaml:4:27: error: the value of 'marks': a list's items are of one type, but it mixes bool and int [invalid-value]"),
            "\(refused.errorText)")
    }

    /// SCXML: a variable that `<data id="x"/>` declares is nullable, and under `on_error: raise`
    /// storing it where null is not allowed is a warning that raises only while it is null.
    @Test func scxmlStoresANullableValueCheckingItWhenItRuns() throws {
        let files = try TemporaryFiles()
        let document = try files.file(
            "nullable.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <datamodel><data id="x"/><data id="n" expr="0"/></datamodel>
              <state id="a">
                <transition event="set"><assign location="x" expr="5"/></transition>
                <transition event="add"><assign location="n" expr="x + 1"/></transition>
                <transition event="error.execution" target="failed"/>
              </state>
              <state id="failed"><transition event="back" target="a"/></state>
            </scxml>
            """)
        let validated = try Smrun.run(["validate", document])
        #expect(validated.exited(0))
        #expect(validated.text.contains(
            "nullable.scxml:5: warning: in the value of 'n' 'x + 1': expected a value of type int, found int?; it raises error.execution when it runs if the value is null (on_error: raise) [expression-type]"),
            "\(validated.text)")
        let run = try Smrun.run([document, "--send", "add", "--send", "back", "--send", "set", "--send", "add", "--format", "json"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines.count == 5, "\(run.text)")
        #expect(run.lines[1].contains(#""input":"error.execution","ok":true,"from":"a","to":"failed""#), "\(run.text)")
        #expect(run.lines[4].contains(#""context":{"x":5,"n":6}"#), "\(run.text)")
        let rejecting = try files.file(
            "rejecting.scxml",
            try String(contentsOfFile: document, encoding: .utf8).replacingOccurrences(
                of: "version=\"1.0\"", with: "version=\"1.0\" xmlns:sc=\"https://statecraft.dev/scxml\" sc:on-error=\"reject\""))
        let refused = try Smrun.run(["validate", rejecting])
        #expect(refused.exited(1))
        #expect(refused.text.contains("rejecting.scxml:5: error: in the value of 'n' 'x + 1': expected a value of type int, found int? [expression-type]"),
            "\(refused.text)")
    }

    /// SCXML: a `<foreach>` whose item and index no `<data>` declares declares them; the items
    /// come in order; `<param>` values are taken when the send runs.
    @Test func scxmlListsLoopsAndParams() throws {
        let files = try TemporaryFiles()
        let document = try files.file(
            "loops.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <datamodel><data id="steps">[10, 20, 30]</data><data id="rising" expr="true"/><data id="last" expr="0"/><data id="got" expr="0"/></datamodel>
              <state id="counting">
                <onentry>
                  <foreach array="steps" item="step" index="at">
                    <if cond="step &lt;= last"><assign location="rising" expr="false"/></if>
                    <assign location="last" expr="step"/>
                  </foreach>
                  <send event="check" delayexpr="500"><param name="seen" expr="last"/></send>
                  <assign location="last" expr="-1"/>
                </onentry>
                <transition event="check" cond="rising &amp;&amp; at == 2" target="checked"><assign location="got" expr="_event.data.seen"/></transition>
              </state>
              <state id="checked"><transition cond="got == 30" target="pass"/></state>
              <final id="pass"/>
            </scxml>
            """)
        let run = try Smrun.run([document], input: .bytes(.init("@wait 1s\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines.last?.hasSuffix("checked -> pass") == true, "\(run.text)")
    }
}
