import Foundation
import Testing

/// `smrun export` loses nothing a machine does: every example machine, written as SCXML and
/// read back (and written as YAML again), gives the same results on its scripts, and every
/// SCXML example the other way round (docs/scxml.md, export).
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
        try export(example.machine, as: isSCXML ? "yaml" : "scxml", to: other)
        try export(other, as: isSCXML ? "scxml" : "yaml", to: back)
        let original = try results(example.machine, example.script)
        for converted in [other, back] {
            let found = try results(converted, example.script)
            #expect(found.text == original.text, "\(converted)")
            #expect(found.json == original.json, "\(converted)")
        }
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
