import Foundation
import Testing

/// Flat machines are the special case of statecharts: every example, made a statechart by an
/// eventless transition whose guard never holds (so that it runs on the statechart engine),
/// prints exactly its expected transcript. (The SCXML examples are statecharts already.)
struct FlatMachinesAsStatechartsTests {
    @Test(arguments: ExampleMachineTests.examples.filter { $0.machine.hasSuffix(".yaml") })
    func theStatechartEngineAgreesWithTheFlatOne(_ example: ExampleMachineTests.Example) throws {
        let files = try TemporaryFiles()
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.machine), encoding: .utf8)
        let initial = try #require(text.split(separator: "\n").first { $0.hasPrefix("initial: ") }?.dropFirst("initial: ".count))
        // Every example ends with its transitions, so a row appended at the end is one more transition.
        #expect(text.split(separator: "\n").last { !$0.hasPrefix(" ") && !$0.hasPrefix("#") && !$0.isEmpty } == "transitions:")
        let machine = try files.file(
            "machine.yaml", text + (text.hasSuffix("\n") ? "" : "\n") + "  - { from: \(initial), to: \(initial), when: \"false\" }\n")
        let expected = try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.expected), encoding: .utf8)
        let script = Paths.packageRoot.appendingPathComponent(example.script)
        let run = try Smrun.run([machine], input: .file(script))
        #expect(run.text == expected)
        // In JSON too, byte for byte, but for `transitions`, which only statecharts print.
        let flat = try Smrun.run([example.machine, "--format", "json"], input: .file(script)).lines.map(Self.withoutTransitions)
        let chart = try Smrun.run([machine, "--format", "json"], input: .file(script)).lines.map(Self.withoutTransitions)
        #expect(chart == flat)
    }

    /// A JSON result line without its `,"transitions":[...]` member (names are quoted, so the
    /// array ends at the first `]` that closes it outside a string).
    static func withoutTransitions(_ line: String) -> String {
        let key = #","transitions":["#
        guard let start = line.range(of: key) else { return line }
        var depth = 1
        var inString = false
        var escaped = false
        var index = start.upperBound
        while index < line.endIndex, depth > 0 {
            let character = line[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            }
            index = line.index(after: index)
        }
        return String(line[..<start.lowerBound]) + String(line[index...])
    }
}
