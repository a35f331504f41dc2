import Foundation
import Testing

/// A JSON result shows the whole context after it (docs/cli.md). smrun keeps the context's text
/// from one result to the next and writes again only the values that changed: whatever the
/// changes, each result must show the context as it is then.
@Suite struct JSONContextTests {
    private let machine = "context-of-every-type.yaml"

    /// Lines that change one value, set a value to itself or to an equal one made anew, and
    /// back; after each, the context must be written as the lines so far set it.
    @Test func eachResultShowsTheContextAsItIsThen() throws {
        let names = ["n", "s", "d", "b", "z", "t"]
        var expected = ["n": "0", "s": #""""#, "d": "1.5", "b": "false", "z": "null", "t": #""""#]
        // A line, and the variable it sets with its value's JSON text (nil: none changes).
        let steps: [(line: String, variable: String, json: String?)] = [
            ("setN 5", "n", "5"), ("same", "n", nil), (#"setS "x""#, "s", #""x""#), ("copy", "t", #""x""#),
            (#"setS "x""#, "s", #""x""#), ("setN 5", "n", "5"), ("setD 0.0", "d", "0.0"), ("setB true", "b", "true"),
            (#"setS "Pier 39""#, "s", #""Pier 39""#), ("setN 123456789", "n", "123456789"), ("copy", "t", #""Pier 39""#),
            (#"setS "x""#, "s", #""x""#), ("same", "n", nil), (#"setS "a\"b\u00e9""#, "s", #""a\"bé""#),
            ("copy", "t", #""a\"bé""#), ("setB false", "b", "false"), ("setN -7", "n", "-7"), ("setD 2.25", "d", "2.25"),
            (#"setS """#, "s", #""""#), ("copy", "t", #""""#), ("setN 10", "n", "10"), ("setN 9", "n", "9"),
        ]
        let run = try Smrun.run(fixture: machine, script: steps.map { $0.line + "\n" }.joined(), ["--format", "json"])
        #expect(run.exited(0))
        try #require(run.lines.count == steps.count)
        for (step, line) in zip(steps, run.lines) {
            if let json = step.json { expected[step.variable] = json }
            let context = #","context":{"# + names.map { "\"\($0)\":\(expected[$0]!)" }.joined(separator: ",") + "}}"
            #expect(line.hasSuffix(context), "after \(step.line): \(line)")
        }
    }

    /// Contexts that come back to values they had, among more combinations than smrun keeps
    /// texts for (64), so that kept texts are found, replaced and made from one another: each
    /// result shows its own context.
    @Test func contextsThatComeBackShowTheirValues() throws {
        // Places of many lengths, each named again and again in an order that wanders.
        let places = (0..<40).map { String(repeating: "p", count: $0 % 13) + "\($0)" }
        var lines: [String] = []
        var expected: [(n: Int, s: String)] = []
        var (n, s) = (0, "")
        for index in 0..<2_000 {
            if index % 3 == 0 {
                n = (index &* 7) % 11
                lines.append("setN \(n)")
            } else {
                s = places[(index &* index &+ index / 5) % places.count]
                lines.append("setS \"\(s)\"")
            }
            expected.append((n, s))
        }
        let run = try Smrun.run(fixture: machine, script: lines.map { $0 + "\n" }.joined(), ["--format", "json"])
        #expect(run.exited(0))
        try #require(run.lines.count == expected.count)
        for (index, (line, values)) in zip(run.lines, expected).enumerated() {
            let context = #","context":{"n":\#(values.n),"s":"\#(values.s)","d":1.5,"b":false,"z":null,"t":""}}"#
            #expect(line.hasSuffix(context), "after \(lines[index]): \(line)")
        }
    }

    /// A context of more variables than smrun keeps texts for is shown whole after each result.
    @Test func aContextOfManyVariablesIsShownWhole() throws {
        let script = "setFirst 5\nsetLast \"a\"\nsetFirst 12\nsetLast \"bcd\"\nsetFirst 5\nsetLast \"a\"\n"
        let run = try Smrun.run(fixture: "context-of-many-variables.yaml", script: script, ["--format", "json"])
        #expect(run.exited(0))
        let middle = (2...16).map { "\"v\($0)\":0" }.joined(separator: ",")
        let contexts = [(5, ""), (5, "a"), (12, "a"), (12, "bcd"), (5, "bcd"), (5, "a")].map { first, last in
            #","context":{"v1":\#(first),\#(middle),"v17":"\#(last)"}}"#
        }
        try #require(run.lines.count == contexts.count)
        for (line, context) in zip(run.lines, contexts) { #expect(line.hasSuffix(context), "\(line)") }
    }

    /// Two values equal as numbers but written differently (`0.0` and `-0.0`) are two values.
    @Test func negativeZeroIsWrittenAgain() throws {
        let run = try Smrun.run(fixture: machine, script: "setD 0.0\nsetD -0.0\nsetD 0.0\n", ["--format", "json"])
        let shown = run.lines.map { $0.contains(#""d":-0.0,"#) }
        #expect(shown == [false, true, false])
    }

    /// `smrun repl`'s `:undo` and `:reset` go back to an earlier context: the next result shows
    /// that one, not the context shown last.
    @Test func undoAndResetShowTheContextGoneBackTo() throws {
        let run = try Smrun.run(
            ["repl", Paths.fixture(machine), "--format", "json"],
            input: .bytes(Data("setN 5\nsetN 6\n:undo\nsame\n:reset\nsame\n".utf8)))
        let contexts = try run.lines.filter { $0.hasPrefix("{") }.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(object?["context"] as? [String: Any])["n"] as? Int
        }
        #expect(contexts == [5, 6, 5, 0])
    }
}
