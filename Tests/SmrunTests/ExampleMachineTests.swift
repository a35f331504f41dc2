import Foundation
import Testing

/// Every example in `machines/` prints exactly its expected transcript.
///
/// `machines/NAME[.VARIANT].script` is run as `smrun machines/NAME.yaml < script` (or
/// `NAME.scxml`, for an SCXML document) and compared with `machines/NAME[.VARIANT].expected.txt`;
/// a new machine with a script is covered by adding the files.
@Suite struct ExampleMachineTests {
    /// A script in `machines/` with the machine it drives and its expected transcript.
    struct Example: CustomTestStringConvertible, Sendable {
        var script: String
        var machine: String
        var expected: String
        var testDescription: String { script }
    }

    static let examples: [Example] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Paths.machines.path)) ?? []
        return files.filter { $0.hasSuffix(".script") }.sorted().map { script in
            let stem = String(script.dropLast(".script".count))
            let machine = stem.split(separator: ".", maxSplits: 1)[0]
            let isSCXML = files.contains("\(machine).scxml")
            return Example(
                script: "machines/\(script)", machine: "machines/\(machine).\(isSCXML ? "scxml" : "yaml")",
                expected: "machines/\(stem).expected.txt")
        }
    }()

    @Test func examplesAreFound() {
        let machines = Set(Self.examples.map(\.machine))
        #expect(machines.count >= 6, "found only \(machines.sorted()) in machines/")
    }

    @Test func everyMachineHasAScript() throws {
        let machines = try FileManager.default.contentsOfDirectory(atPath: Paths.machines.path)
            .filter { ($0.hasSuffix(".yaml") && !$0.hasSuffix(".test.yaml")) || $0.hasSuffix(".scxml") }
        let scripted = Set(Self.examples.map(\.machine))
        for machine in machines {
            #expect(scripted.contains("machines/\(machine)"), "machines/\(machine) has no .script to check it by")
        }
    }

    @Test(arguments: examples)
    func transcriptMatches(_ example: Example) throws {
        let expected = try String(contentsOf: Paths.packageRoot.appendingPathComponent(example.expected), encoding: .utf8)
        let run = try Smrun.run([example.machine], input: .file(Paths.packageRoot.appendingPathComponent(example.script)))
        #expect(run.text == expected)
        #expect(run.errorText == "")
        let rejected = expected.split(separator: "\n").contains { $0.contains(": rejected: ") }
        #expect(run.exited(rejected ? 1 : 0), "exit status \(run.status)")
    }
}
