import Foundation
import Testing

/// smrun with timers on the virtual clock (docs/semantics.md, docs/cli.md): `@wait` lines,
/// `--wait` between `--send`s, the fields of timer results, bad waits and what is refused.
@Suite struct TimerRunTests {
    static let light = "machines/timed-traffic-light.yaml"

    @Test func waitLinesFireTheTimersAndJSONResultsNameThemWithTheClockAndTheWaitsLine() throws {
        let run = try Smrun.run([Self.light, "--format", "json"], input: .bytes(Data("@wait 30s\nbutton\n@wait 5s\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines == [
            #"{"start":true,"ok":true,"to":"red","effects":["stop"],"context":{"cycles":1,"waiting":false}}"#,
            #"{"line":1,"after":"30s","at":30000,"ok":true,"from":"red","to":"green","effects":["go"],"context":{"cycles":1,"waiting":false}}"#,
            #"{"line":2,"input":"button","ok":true,"from":"green","to":"green","effects":["requestCrossing"],"context":{"cycles":1,"waiting":true}}"#,
            #"{"line":3,"input":"cross","at":35000,"ok":true,"from":"green","to":"yellow","effects":["endCrossing","slow"],"sent_by":"requestCrossing","timer":"crossing","context":{"cycles":1,"waiting":false}}"#,
        ])
    }

    @Test func waitsAndSendsRunInCommandLineOrder() throws {
        let early = try Smrun.run([Self.light, "--send", "button", "--wait", "30s", "--send=button", "--wait=5s"])
        #expect(early.lines == [
            "start: -> red / stop", "button: red -> red", "after 30s: red -> green / go", "button: green -> green / requestCrossing",
            "cross (sent by requestCrossing, timer crossing): green -> yellow / endCrossing, slow",
        ])
        let late = try Smrun.run([Self.light, "--wait", "30s", "--send", "button", "--send", "button", "--wait", "4999ms"])
        #expect(late.lines == [
            "start: -> red / stop", "after 30s: red -> green / go", "button: green -> green / requestCrossing", "button: green -> green",
        ])
    }

    @Test func aBadWaitLineIsRejectedNamingItsLineAndTheRunGoesOn() throws {
        let run = try Smrun.run([Self.light], input: .bytes(Data("@wait 5 parsecs\n@wait\n@wait 30s\n".utf8)))
        #expect(run.exited(1))
        #expect(run.lines == [
            "start: -> red / stop",
            #"line 1: @wait: red: rejected: bad-argument: "5 parsecs" is not a duration: ' parsecs' is not a unit of duration: ms, s, m or h"#,
            "line 2: @wait: red: rejected: bad-argument: '@wait' needs a duration, such as @wait 30s",
            "after 30s: red -> green / go",
        ])
    }

    @Test(arguments: [["--wait", "-1s"], ["--wait", "1.5.2s"], ["--max-timers", "0"]])
    func aBadWaitOrTimerCapOnTheCommandLineIsAUsageError(arguments: [String]) throws {
        let run = try Smrun.run([Self.light] + arguments)
        #expect(run.exited(2))
        #expect(run.stdout.isEmpty && run.errorText.contains("Error: "), "\(run.errorText)")
    }

    @Test func statechartsTakeWaitLinesToo() throws {
        let machine = TimedChart.yaml
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("timed-chart-\(UUID()).yaml")
        try Data(machine.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Smrun.run([file.path, "--format", "json"], input: .bytes(Data("click\n@wait 1m\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines == [
            #"{"line":1,"input":"click","ok":true,"from":["idle"],"to":["busy"],"effects":[],"transitions":[{"from":"idle","to":["busy"]}]}"#,
            #"{"line":2,"after":"10s","at":10000,"ok":true,"from":["busy"],"to":["idle"],"effects":[],"transitions":[{"from":"busy","to":["idle"]}]}"#,
            #"{"line":2,"after":"1m","at":60000,"ok":true,"from":["idle"],"to":["offline"],"effects":[],"transitions":[{"from":"online","to":["offline"]}]}"#,
        ])
    }

    @Test func aMillionWaitLinesRunToTheEnd() throws {
        let script = Data(String(repeating: "@wait 1h\n", count: 1_000_000).utf8)
        let run = try Smrun.run(["machines/login-session.yaml", "--format", "json"], input: .bytes(script), timeout: .seconds(300))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.stdout.isEmpty)
    }

    @Test func graphLabelsDelayedEdgesWithTheirDelay() throws {
        let dot = try Smrun.run(["graph", Self.light])
        #expect(dot.text.contains(#"s0 -> s1 [label="after 30s"];"#), "\(dot.text)")
        let mermaid = try Smrun.run(["graph", "--format", "mermaid", Self.light])
        #expect(mermaid.text.contains("s2 --> s0 : after 5s"), "\(mermaid.text)")
    }
}
