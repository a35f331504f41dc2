import Foundation
import Statecraft
import Testing

/// `smrun validate`: every problem of every file, with stable codes and positions, in three formats.
///
/// Each fixture in `Fixtures/validate/` starts with `# expect: CODE LINE:COLUMN` lines (`CODE
/// LINE` for an SCXML element, which has no column; in an SCXML fixture they are in a comment):
/// the diagnostics validate must report for it, all of them and nothing else.
struct ValidateCommandTests {
    static let fixtureDirectory = Paths.packageRoot.appendingPathComponent("Tests/SmrunTests/Fixtures/validate")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtureDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scxml") }.sorted()
    }

    /// `CODE LINE:COLUMN` for each `# expect:` line of a fixture.
    static func expectations(_ fixture: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: fixtureDirectory.appendingPathComponent(fixture)), as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("# expect: ") }.map { String($0.dropFirst(10)) }
    }

    static func json(_ output: SmrunOutput) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]])
    }

    @Test(arguments: fixtures)
    func reportsExactlyTheExpectedDiagnostics(_ fixture: String) throws {
        let path = "Tests/SmrunTests/Fixtures/validate/\(fixture)"
        let output = try Smrun.run(["validate", "--format", "json", path])
        let found = try Self.json(output)
        #expect(
            found.map { "\($0["code"]!) \($0["line"]!)" + (($0["column"] as? Int).map { ":\($0)" } ?? "") } == (try Self.expectations(fixture)))
        for diagnostic in found {
            #expect(diagnostic["file"] as? String == path)
            #expect(["error", "warning"].contains(diagnostic["severity"] as? String))
            #expect((diagnostic["message"] as? String)?.isEmpty == false)
        }
        let hasError = found.contains { $0["severity"] as? String == "error" }
        #expect(output.exited(hasError ? 1 : 0), "\(output.errorText)")
    }

    @Test func everyFileDiagnosticCodeHasAFixture() throws {
        let covered = Set(try Self.fixtures.flatMap { try Self.expectations($0) }.map { String($0.split(separator: " ")[0]) })
        // Reachable only from Swift (a YAML mapping refuses the duplicate key first) or from a path.
        let elsewhere: Set<DiagnosticCode> = [.duplicateEffect, .duplicateVariable, .unreadableFile]
        let missing = DiagnosticCode.allCases.filter { !elsewhere.contains($0) && !covered.contains($0.rawValue) }
        #expect(missing.isEmpty, "no validate fixture for \(missing.map(\.rawValue))")
    }

    @Test func theExampleMachinesHaveNoErrors() throws {
        let output = try Smrun.run(["validate", "machines"])
        #expect(output.exited(0), "\(output.text)")
        // Jester's car declares noMapInput to show an unmapped input failing; that is its only warning.
        #expect(output.lines == [
            "machines/self-driving-car.yaml:16:3: warning: input 'noMapInput' is declared but no transition uses it; it is always rejected [unused-input]"
        ])
        #expect(output.errorLines.last?.hasSuffix("files, 0 errors, 1 warning") == true)
        #expect(try Smrun.run(["validate", "--strict", "machines"]).exited(1), "--strict fails on warnings")
    }

    /// Named hooks stay possible: a file without an `effects` section names hooks freely, and
    /// one with it declares a hook as a key without a body. `--strict` fails on a misspelt effect.
    @Test func hooksNeedDeclaringOnlyWhereEffectsAreDeclared() throws {
        let files = try TemporaryFiles()
        let hooks = try files.file(
            "hooks.yaml", "initial: a\nstates:\n  a: { exit: [leaving] }\n  b:\ntransitions:\n  - go | a => b | notify\n  - back | b => a\n")
        let hooksOnly = try Smrun.run(["validate", "--strict", hooks])
        #expect(hooksOnly.exited(0), "\(hooksOnly.text)")
        #expect(hooksOnly.lines.isEmpty)
        let misspelt = try Smrun.run(["validate", "--strict", "Tests/SmrunTests/Fixtures/validate/undeclared-effect.yaml"])
        #expect(misspelt.exited(1))
        #expect(misspelt.lines.contains(
            "Tests/SmrunTests/Fixtures/validate/undeclared-effect.yaml:17:23: warning: this 'tick' transition runs effect 'countTik', which is not declared under 'effects' (did you mean 'countTick'?); it runs as a hook that does nothing (to mean a hook, declare it as 'countTik:' with no body) [undeclared-effect]"
        ))
        #expect(misspelt.lines.count == 3, "notify (line 14), declared without a body, is a hook used without warning\n\(misspelt.text)")
    }

    @Test func everyFileIsCheckedNotJustTheFirst() throws {
        let files = ["machines/traffic-light.yaml", "Tests/SmrunTests/Fixtures/validate/undefined-state.yaml",
                     "Tests/SmrunTests/Fixtures/validate/duplicate-key.yaml"]
        let output = try Smrun.run(["validate"] + files)
        #expect(output.exited(1))
        #expect(output.lines.filter { $0.hasPrefix(files[1] + ":") }.count == 2)
        #expect(output.lines.filter { $0.hasPrefix(files[2] + ":") }.count == 1)
        #expect(output.errorLines == ["3 files, 3 errors, 0 warnings"])
    }

    @Test func textFormatIsCompilerStyle() throws {
        let output = try Smrun.run(["validate", "Tests/SmrunTests/Fixtures/validate/undefined-state.yaml"])
        #expect(output.lines == [
            "Tests/SmrunTests/Fixtures/validate/undefined-state.yaml:3:10: error: initial state 'parkd' is not a declared state (did you mean 'parked'?) [undefined-state]",
            "Tests/SmrunTests/Fixtures/validate/undefined-state.yaml:6:23: error: transition refers to undefined state 'drivin' (did you mean 'driving'?) [undefined-state]",
        ])
    }

    @Test func githubFormatIsWorkflowAnnotations() throws {
        let output = try Smrun.run([
            "validate", "--format", "github", "Tests/SmrunTests/Fixtures/validate/undefined-state.yaml",
            "Tests/SmrunTests/Fixtures/validate/trap-state.yaml",
        ])
        #expect(output.lines == [
            "::error file=Tests/SmrunTests/Fixtures/validate/undefined-state.yaml,line=3,col=10,title=undefined-state::initial state 'parkd' is not a declared state (did you mean 'parked'?) [undefined-state]",
            "::error file=Tests/SmrunTests/Fixtures/validate/undefined-state.yaml,line=6,col=23,title=undefined-state::transition refers to undefined state 'drivin' (did you mean 'driving'?) [undefined-state]",
            "::warning file=Tests/SmrunTests/Fixtures/validate/trap-state.yaml,line=5,col=3,title=trap-state::state 'stuck' is not final but has no transition to another state; mark it 'final: true' or add a way out [trap-state]",
        ])
        #expect(output.stderr.isEmpty, "the summary is for the text format only")
    }

    @Test func theThreeFormatsAgree() throws {
        for fixture in Self.fixtures {
            let path = "Tests/SmrunTests/Fixtures/validate/\(fixture)"
            let json = try Self.json(try Smrun.run(["validate", "--format", "json", path]))
            let text = try Smrun.run(["validate", path]).lines
            let github = try Smrun.run(["validate", "--format", "github", path]).lines
            #expect(text.count == json.count && github.count == json.count, "\(fixture)")
            for (index, object) in json.enumerated() where index < text.count && index < github.count {
                // An SCXML element has a line and no column.
                let (line, column, code) = (object["line"]!, object["column"] as? Int, object["code"]!)
                let textPosition = "\(line):" + (column.map { "\($0):" } ?? "")
                let githubPosition = "line=\(line)," + (column.map { "col=\($0)," } ?? "")
                #expect(text[index].hasPrefix("\(path):\(textPosition) \(object["severity"]!): "), "\(fixture)")
                #expect(text[index].hasSuffix("[\(code)]"))
                #expect(github[index].hasPrefix("::\(object["severity"]!) file=\(path),\(githubPosition)title=\(code)::"))
            }
        }
    }

    @Test func directoriesExpandAndUnreadableFilesExitTwo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("nested"), withIntermediateDirectories: true)
        let machine = Data("initial: a\nstates: [a, b]\ntransitions:\n  - go | a => b\n  - back | b => a\n".utf8)
        try machine.write(to: directory.appendingPathComponent("one.yaml"))
        try machine.write(to: directory.appendingPathComponent("nested/two.yml"))
        try Data("not a machine".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let clean = try Smrun.run(["validate", directory.path])
        #expect(clean.exited(0))
        #expect(clean.errorLines == ["2 files, 0 errors, 0 warnings"])

        let missing = try Smrun.run(["validate", directory.path, directory.appendingPathComponent("absent.yaml").path])
        #expect(missing.exited(2))
        #expect(missing.text.contains("absent.yaml: error: cannot open: No such file or directory [unreadable-file]"))

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let nothingToCheck = try Smrun.run(["validate", empty.path])
        #expect(nothingToCheck.exited(2))
        // The command line is right: a plain error, not the usage text.
        #expect(nothingToCheck.errorLines == ["smrun validate: no *.yaml, *.yml or *.scxml files under directory '\(empty.path)'"])
        let noArgument = try Smrun.run(["validate"])
        #expect(noArgument.exited(2))
        #expect(noArgument.errorText.contains("Usage: smrun validate"))
    }

    @Test func fileErrorsHaveNoLineOrColumnInAnyFormat() throws {
        let files = try TemporaryFiles()
        let missing = files.path("absent.yaml")
        let text = try Smrun.run(["validate", missing])
        #expect(text.exited(2))
        #expect(text.lines == ["\(missing): error: cannot open: No such file or directory [unreadable-file]"], "\(text.text)")

        let json = try Smrun.run(["validate", "--format", "json", missing])
        #expect(json.exited(2))
        #expect(json.text.contains(#""line":null,"column":null,"severity":"error","code":"unreadable-file""#), "\(json.text)")
        let objects = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects.first?["line"] is NSNull)

        let github = try Smrun.run(["validate", "--format", "github", missing])
        #expect(github.exited(2))
        #expect(github.lines.first?.hasPrefix("::error file=\(missing),title=unreadable-file::cannot open") == true, "\(github.text)")
    }

    @Test func runRefusesAMachineWithErrorsButNotWithWarnings() throws {
        let broken = try Smrun.run(["Tests/SmrunTests/Fixtures/validate/undefined-state.yaml", "--send", "drive"])
        #expect(broken.exited(2))
        #expect(broken.stdout.isEmpty)
        #expect(broken.errorLines.count == 2)
        let warned = try Smrun.run(["Tests/SmrunTests/Fixtures/validate/trap-state.yaml", "--send", "go"])
        #expect(warned.exited(0))
        #expect(warned.lines == ["go: a -> stuck"])
    }
}

/// With errors, the warnings that name what an error names are shown right after it, by
/// `validate` and by every command that loads the machine (issue 35).
@Suite struct RelatedWarningTests {
    private let fixture = "Tests/SmrunTests/Fixtures/validate/related-warnings.yaml"

    @Test func validateShowsTheWarningThatExplainsAnError() throws {
        let run = try Smrun.run(["validate", fixture])
        #expect(run.exited(1))
        let lines = run.lines
        try #require(lines.count == 4, "\(run.text)")
        #expect(lines[0].hasPrefix("\(fixture):15:38: error: in the value of 'total' 'total + arg': 'arg' is not available"))
        #expect(lines[1].contains("warning: this 'add' transition runs effect 'addAmont', which is not declared under 'effects' (did you mean 'addAmount'?)"))
        #expect(lines[2] == "\(fixture):15:3: warning: effect 'addAmount' is declared but no transition or state runs it [unused-effect]")
        #expect(lines[3].hasPrefix("\(fixture):18:19: error: transition refers to undefined state 'idel'"))
        #expect(!run.text.contains("'log'"), "a warning no error names is shown: \(run.text)")
        #expect(run.errorText == "1 file, 2 errors, 2 warnings\n")
    }

    @Test func aRunShowsItToo() throws {
        let run = try Smrun.run([fixture, "--send", "add=1"])
        #expect(run.exited(2))
        #expect(run.lines.isEmpty)
        let lines = run.errorLines
        try #require(lines.count == 4, "\(run.errorText)")
        #expect(lines[0].contains("error: in the value of 'total'"))
        #expect(lines[1].contains("(did you mean 'addAmount'?)") && lines[1].hasSuffix("[undeclared-effect]"))
        #expect(lines[2].hasSuffix("[unused-effect]"))
        #expect(lines[3].hasSuffix("[undefined-state]"))
    }
}
