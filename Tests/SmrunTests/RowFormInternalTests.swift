import Foundation
import Testing

/// `=> TO (internal)` in a row (docs/machine-files.md): the row form of `type: internal`,
/// compiled, fingerprinted and exported as the mapping form's.
@Suite struct RowFormInternalTests {
    static func machine(_ goHome: String) -> String {
        """
        machine: session
        initial: session
        states:
          session:
            entry: [greet]
            exit: [bye]
            states:
              home:
              page:
        effects:
          greet:
          bye:
        transitions:
        \(goHome)
          - open | home => page
        """
    }

    static let row = machine("  - goHome | session => home (internal) [true] | count")
    static let mapping = machine("  - { input: goHome, from: session, to: home, type: internal, when: 'true', effects: [count] }")
    static let external = machine("  - goHome | session => home [true] | count")

    /// Saves a run of `text` to a state file and returns what smrun printed and the fingerprint.
    private func run(_ text: String, _ files: TemporaryFiles, _ name: String) throws -> (output: String, fingerprint: String?) {
        let machine = try files.file("\(name).yaml", text.replacing("effects:\n", with: "effects:\n  count:\n"))
        let state = files.path("\(name).json")
        let run = try Smrun.run([machine, "--state", state, "--send", "open", "--send", "goHome"])
        #expect(run.exited(0), "\(run.errorText)")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        return (run.text, saved?["fingerprint"] as? String)
    }

    @Test func aRowMarkedInternalIsTheMappingFormsInternalTransition() throws {
        let files = try TemporaryFiles()
        let row = try run(Self.row, files, "row")
        let mapping = try run(Self.mapping, files, "mapping")
        let external = try run(Self.external, files, "external")
        // Internal: the session is not left, so neither `bye` nor `greet` runs.
        #expect(row.output.split(separator: "\n").last == "goHome: page -> home / count", "\(row.output)")
        #expect(external.output.split(separator: "\n").last == "goHome: page -> home / bye, count, greet", "\(external.output)")
        #expect(row.output == mapping.output)
        #expect(row.fingerprint != nil && row.fingerprint == mapping.fingerprint)
        #expect(row.fingerprint != external.fingerprint)
    }

    @Test func aRowMarkedInternalIsExportedAsTypeInternal() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("row.yaml", Self.row.replacing("effects:\n", with: "effects:\n  count:\n"))
        let yaml = try Smrun.run(["export", "--format", "yaml", machine])
        #expect(yaml.exited(0), "\(yaml.errorText)")
        #expect(yaml.text.contains("type: internal"), "\(yaml.text)")
        let scxml = try Smrun.run(["export", "--format", "scxml", machine])
        #expect(scxml.exited(0), "\(scxml.errorText)")
        #expect(scxml.text.contains(#"<transition event="goHome" cond="true" target="home" type="internal">"#), "\(scxml.text)")
    }

    /// `(internal)` only after a target, after a blank: anything else is a state's name.
    @Test func anInternalMarkWithoutABlankIsAName() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("bad.yaml", Self.machine("  - goHome | session => home(internal)").replacing("effects:\n", with: "effects:\n  count:\n"))
        let run = try Smrun.run(["validate", machine])
        #expect(run.exited(1), "\(run.errorText)")
        #expect(run.text.contains("undefined state 'home(internal)' [undefined-state]"), "\(run.text)")
    }
}
