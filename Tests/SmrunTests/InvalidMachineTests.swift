import Testing

/// Machine files with a mistake are refused with exit status 2 and a diagnostic that says
/// where and what, `FILE:LINE:COL: error: MESSAGE [code]` (docs/cli.md).
@Suite struct InvalidMachineTests {
    /// A fixture with one problem, where it must be reported, and what the message must say.
    struct Problem: CustomTestStringConvertible, Sendable {
        var fixture: String
        var line: Int
        var column: Int
        var code: String
        var mentions: [String]
        /// Diagnostics expected in all (another, real problem may be reported besides).
        var count = 1
        var testDescription: String { fixture }
    }

    static let problems = [
        Problem(fixture: "invalid-yaml-syntax.yaml", line: 4, column: 12, code: "yaml-syntax", mentions: ["line 3, column 9"]),
        Problem(fixture: "invalid-duplicate-key.yaml", line: 5, column: 1, code: "duplicate-key", mentions: ["'initial'", "line 1", "line 5"]),
        Problem(
            fixture: "invalid-unknown-key.yaml", line: 3, column: 1, code: "unknown-key", mentions: ["'transitons'", "did you mean 'transitions'?"],
            count: 2),
        Problem(fixture: "invalid-missing-initial.yaml", line: 1, column: 1, code: "missing-key", mentions: ["'initial'"]),
        Problem(fixture: "invalid-undefined-state.yaml", line: 4, column: 18, code: "undefined-state", mentions: ["'runing'", "did you mean 'running'?"]),
        Problem(fixture: "invalid-undefined-input-in-send.yaml", line: 5, column: 18, code: "undefined-input", mentions: ["'stpo'"]),
        Problem(fixture: "invalid-undefined-variable-in-guard.yaml", line: 9, column: 29, code: "undefined-variable", mentions: ["'ready'"]),
        Problem(fixture: "invalid-guard-type.yaml", line: 9, column: 22, code: "expression-type", mentions: ["&&", "bool"]),
        Problem(fixture: "invalid-initial-is-final.yaml", line: 1, column: 10, code: "invalid-initial", mentions: ["'done'", "final"]),
        Problem(fixture: "invalid-argument-type.yaml", line: 3, column: 9, code: "argument-type", mentions: ["'list'", "int, double, bool or string"]),
        Problem(fixture: "invalid-arg-read-without-argument.yaml", line: 9, column: 26, code: "expression-type", mentions: ["'arg'", "'store'"]),
        Problem(fixture: "invalid-tab-indentation.yaml", line: 3, column: 1, code: "yaml-syntax", mentions: ["tab"]),
        Problem(fixture: "invalid-empty.yaml", line: 1, column: 1, code: "missing-key", mentions: ["empty"]),
        Problem(fixture: "invalid-top-level-list.yaml", line: 1, column: 1, code: "wrong-kind", mentions: ["mapping", "list"]),
    ]

    @Test(arguments: problems)
    func problemIsReportedWhereItIs(_ problem: Problem) throws {
        let file = Paths.fixture(problem.fixture)
        let run = try Smrun.run([file], input: .bytes(.init("go\n".utf8)))
        run.expectRefusedMachine(file)
        let line = try #require(
            run.diagnostic(file, problem.line, problem.column, problem.code),
            "expected \(problem.line):\(problem.column) [\(problem.code)] in:\n\(run.errorText)")
        for mention in problem.mentions {
            #expect(line.contains(mention), "\(line)")
        }
        #expect(run.errorLines.count == problem.count, "\(run.errorText)")
    }

    @Test func everyProblemInAFileIsReported() throws {
        let file = Paths.fixture("invalid-several-problems.yaml")
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.diagnostic(file, 6, 18, "undefined-state")?.contains("did you mean 'busy'?") == true, "\(run.errorText)")
        #expect(run.diagnostic(file, 10, 17, "expression-type") != nil, "\(run.errorText)")
        #expect(run.diagnostic(file, 11, 5, "unknown-key")?.contains("did you mean 'effects'?") == true, "\(run.errorText)")
        #expect(run.errorLines.count == 3)
    }
}
