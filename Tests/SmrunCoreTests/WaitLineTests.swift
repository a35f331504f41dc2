import Testing

@testable import SmrunCore

/// `@wait DURATION` script lines (docs/cli.md): the duration in milliseconds, or a bad line
/// that says why.
@Suite struct WaitLineTests {
    var script = Script()

    @Test(arguments: [
        ("@wait 250ms", 250), ("@wait 30s", 30_000), ("@wait 5m", 300_000), ("@wait 1h", 3_600_000),
        ("@wait 1.5s", 1_500), ("@wait 0s", 0), ("  @wait   2s  ", 2_000), ("@wait 0.001s", 1),
        ("@wait 9m59s", 599_000), ("@wait 1h30m", 5_400_000),
    ])
    mutating func aWaitLineGivesItsDurationInMilliseconds(line: String, milliseconds: Int) {
        #expect(script.parse(line) == .wait(milliseconds))
    }

    @Test(arguments: [
        ("@wait 5 parsecs", #""5 parsecs" is not a duration: ' parsecs' is not a unit of duration: ms, s, m or h"#),
        ("@wait -1s", #""-1s" is not a duration: a duration cannot be negative"#),
        ("@wait 99999999999h", #""99999999999h" is not a duration: a duration is at most 100 years"#),
        ("@wait 1.5.2s", #""1.5.2s" is not a duration: a duration's number has one decimal point at most"#),
        ("@wait 30", #""30" is not a duration: a duration needs a unit: ms, s, m or h"#),
        ("@wait 1h1h", #""1h1h" is not a duration: 'h' appears twice in a duration; write each unit once, as 1h30m"#),
        ("@wait 5m3h", #""5m3h" is not a duration: 'h' comes after 'm' in a duration; write the units from the largest to the smallest, as 1h30m"#),
        ("@wait 1.5m30s", #""1.5m30s" is not a duration: only the last number of a duration may have a decimal point; write 1m30s, not 1.5m30s"#),
        ("@wait 876600h1s", #""876600h1s" is not a duration: a duration is at most 100 years"#),
        ("@wait", "'@wait' needs a duration, such as @wait 30s"),
    ])
    mutating func aBadDurationSaysWhy(line: String, problem: String) {
        #expect(script.parse(line) == .badWait(problem))
    }

    @Test mutating func anotherAtWordIsAnUnknownInputAndTheFastPathTakesNoWaitLine() {
        #expect(script.parse("@sleep 1s") == .unknown(Array("@sleep".utf8)))
        #expect(Array("@wait 1s".utf8).withUnsafeBytes { script.parser.parsePlain(line: $0) } == nil)
    }
}
