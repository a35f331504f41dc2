import Foundation
import Testing

/// Flat machines are the special case of statecharts: every example, made a statechart by an
/// eventless transition whose guard never holds (so that it runs on the statechart engine),
/// prints exactly its expected transcript.
struct FlatMachinesAsStatechartsTests {
    @Test(arguments: ExampleMachineTests.examples)
    func theStatechartEngineAgreesWithTheFlatOne(_ example: ExampleMachineTests.Example) throws {
        let files = try TemporaryFiles()
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.machine), encoding: .utf8)
        let initial = try #require(text.split(separator: "\n").first { $0.hasPrefix("initial: ") }?.dropFirst("initial: ".count))
        // Every example ends with its transitions, so a row appended at the end is one more transition.
        #expect(text.split(separator: "\n").last { !$0.hasPrefix(" ") && !$0.hasPrefix("#") && !$0.isEmpty } == "transitions:")
        let machine = try files.file(
            "machine.yaml", text + (text.hasSuffix("\n") ? "" : "\n") + "  - { from: \(initial), to: \(initial), when: \"false\" }\n")
        let expected = try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.expected), encoding: .utf8)
        let run = try Smrun.run([machine], input: .file(Paths.packageRoot.appendingPathComponent(example.script)))
        #expect(run.text == expected)
    }
}
