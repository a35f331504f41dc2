import Foundation
import Testing

// Issue 35, "Messages": the mistakes a new user made, each reported with what to write instead.

extension ValidateCommandTests {
    /// `smrun validate` on a machine file with `text`: its lines, with the file's path.
    static func validate(_ text: String, named name: String = "machine.yaml") throws -> (path: String, run: SmrunOutput) {
        let files = try TemporaryFiles()
        let path = try files.file(name, text)
        let run = try Smrun.run(["validate", path])
        #expect(run.exited(1), "exit status \(run.status): \(run.text)")
        return (path, run)
    }

    /// An unquoted `!` starts a YAML tag: the guard is not reported as empty, but as a tag, quoted.
    @Test func anUnquotedNegatedGuardIsReportedAsATag() throws {
        let (path, run) = try Self.validate(
            """
            initial: a
            inputs: [go]
            context:
              pedRequested: false
            states: [a, b]
            transitions:
              - input: go
                from: a
                to: b
                when: !pedRequested
              - { input: go, from: b, to: a, when: !pedRequested == false }
            """)
        #expect(
            run.lines == [
                #"\#(path):10:11: error: 'when' starts with '!', which YAML reads as a tag (!pedRequested), leaving the expression empty; quote it: when: "!pedRequested" [expression-syntax]"#,
                #"\#(path):11:40: error: 'when' starts with '!', which YAML reads as a tag (!pedRequested), leaving the expression '== false'; quote it: when: "!pedRequested == false" [expression-syntax]"#,
            ], "\(run.text)")
    }
}
