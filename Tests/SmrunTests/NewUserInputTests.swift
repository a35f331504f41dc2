import Foundation
import Testing

// Issue 35: inputs that were dropped or misread silently, and messages that misled.

extension UsageErrorTests {
    /// `--wait` alone would leave standard input unread: a usage error that points at `@wait`.
    @Test func waitWithoutSendIsAUsageError() throws {
        let run = try Smrun.run(["machines/traffic-light.yaml", "--wait", "5m"], input: .bytes(.init("green\n".utf8)))
        #expect(run.exited(2), "exit status \(run.status)")
        #expect(run.stdout.isEmpty, "\(run.text)")
        #expect(run.errorText.contains("Error: --wait needs --send"), "\(run.errorText)")
        #expect(run.errorText.contains("'@wait 5m'"), "\(run.errorText)")
    }

    @Test func waitWithSendStillRuns() throws {
        let run = try Smrun.run(["machines/timed-traffic-light.yaml", "--wait", "30s", "--send", "button"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines.contains("after 30s: red -> green / go"), "\(run.text)")
    }
}

extension StatusCommandTests {
    /// Only one file is shown: a second `--state` is refused, not silently taken instead.
    @Test(arguments: [["--state", "a.json", "--state", "b.json"], ["--state=a.json", "--state=b.json"]])
    func twoStateFilesAreAUsageError(arguments: [String]) throws {
        let run = try Smrun.run(["status"] + arguments)
        #expect(run.exited(2), "exit status \(run.status)")
        #expect(run.stdout.isEmpty, "\(run.text)")
        #expect(run.errorText.contains("Error: --state names one file, given 2 times (a.json, b.json)"), "\(run.errorText)")
    }
}

extension ScriptHandlingTests {
    /// An editor's byte order mark is no part of the first input, as a final `\r` is not.
    @Test func aByteOrderMarkBeforeTheFirstLineIsDropped() throws {
        let run = try Smrun.run(["machines/traffic-light.yaml"], input: .bytes(Data([0xEF, 0xBB, 0xBF] + Array("green\r\nyellow\n".utf8))))
        #expect(run.lines == ["start: -> red / stop", "green: red -> green / go", "yellow: green -> yellow / slow"], "\(run.text)")
        #expect(run.exited(0))
    }

    /// Only at the start of the script: later, it is part of its line, and shown escaped.
    @Test func anInvisibleCharacterInANameIsShownEscaped() throws {
        let run = try Smrun.run(
            ["machines/traffic-light.yaml"], input: .bytes(Data(Array("green\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("yel\u{200B}low\n".utf8))))
        #expect(
            run.lines.last == #"line 2: "\ufeffyel\u200blow": green: rejected: unknown-input: unknown input '\ufeffyel\u200blow'"#,
            "\(run.text)")
        let json = try Smrun.run(["machines/traffic-light.yaml", "--format", "json"], input: .bytes(Data("yel\u{2060}low\n".utf8)))
        #expect(json.text.contains(#""input":"yel\u2060low""#), "\(json.text)")
    }

    /// A blank then `#` starts a comment; inside a JSON-quoted argument it is text.
    @Test func aTrailingCommentIsNoPartOfTheLine() throws {
        let script = """
            startEngine # first
            pickUpPassengers
            passengersHaveEntered 4 # all aboard
            driveToLocation The Witches Brew # dinner
            park
            driveToLocation "The # Witches Brew" # quoted
            """
        let run = try Smrun.run(["machines/self-driving-car.yaml"], input: .bytes(Data(script.utf8)))
        #expect(run.lines[0] == "startEngine: unstarted -> parked", "\(run.text)")
        #expect(run.lines[2] == "passengersHaveEntered 4: pickingUpPassengers -> pickingUpPassengers / pickedUpPassengers", "\(run.text)")
        #expect(run.lines[3].hasPrefix(#"driveToLocation "The Witches Brew": "#), "\(run.text)")
        #expect(run.lines[5].hasPrefix(#"line 6: driveToLocation "The # Witches Brew": parked: rejected"#), "\(run.text)")
    }
}

extension MachineFileEncodingTests {
    /// The message names the byte's value and where it is, not its offset as if it were a byte.
    @Test func invalidUTF8NamesTheByteAndItsLineAndColumn() throws {
        let files = try TemporaryFiles()
        let file = try files.file("latin1.yaml", Array("initial: idle\nstates: [idle]\ntransitions: []\ndescription: caf".utf8) + [0xB5, 0x0A])
        let run = try Smrun.run(["validate", file])
        #expect(run.text.contains("invalid UTF-8: byte 0xB5 at line 4, column 17; machine files must be UTF-8 text"), "\(run.text)")
        #expect(!run.text.contains("(byte "), "\(run.text)")
    }
}

extension PlainRunTests {
    /// A mistyped subcommand is not taken for a machine file.
    @Test(arguments: [(["valdate", "x.yaml"], "validate"), (["tset"], "test"), (["stauts", "--state", "s.json"], "status")])
    func aMistypedSubcommandGetsADidYouMean(arguments: [String], meant: String) throws {
        let run = try Smrun.run(arguments)
        #expect(run.exited(2), "exit status \(run.status)")
        #expect(run.stdout.isEmpty, "\(run.text)")
        #expect(run.errorText.contains("Error: '\(arguments[0])' is neither a subcommand nor a file (did you mean '\(meant)'?)"), "\(run.errorText)")
    }

    /// Each command's help ends its overview with examples.
    @Test(arguments: ["run", "validate", "test"])
    func helpShowsExamples(command: String) throws {
        let run = try Smrun.run([command, "--help"])
        #expect(run.exited(0), "\(run.errorText)")
        let overview = run.text.components(separatedBy: "USAGE:")[0]
        let examples = overview.components(separatedBy: "Examples:\n")
        #expect(examples.count == 2, "\(run.text)")
        let lines = (examples.last ?? "").split(separator: "\n")
        #expect((2...3).contains(lines.count) && lines.allSatisfy { $0.hasPrefix("  smrun ") }, "\(run.text)")
    }
}

extension SendOptionTests {
    /// `--send 'INPUT ARG'`, written as a script line, is told to use `INPUT=ARG`.
    @Test func anArgumentAfterABlankIsToldToUseEquals() throws {
        let run = try Smrun.run(["machines/checkout.yaml", "--send", "addItem 5"])
        #expect(run.exited(1), "exit status \(run.status)")
        #expect(run.text.hasSuffix("write --send addItem=5\n"), "\(run.text)")
        let unknown = try Smrun.run(["machines/checkout.yaml", "--send", "bogus 5"])
        #expect(!unknown.text.contains("write --send"), "\(unknown.text)")
    }
}

extension ValidateCommandTests {
    /// A scenario file is named as one, with the command that runs it: one error, not four.
    @Test func aScenarioFileIsNamedAsOne() throws {
        let file = "Tests/SmrunTests/Fixtures/scenarios/door.test.yaml"
        let run = try Smrun.run(["validate", file])
        #expect(run.exited(1), "exit status \(run.status)")
        #expect(
            run.lines == ["\(file):2:1: error: this is a scenario file ('scenarios' lists tests of a machine), not a machine file; run it with 'smrun test' [unknown-key]"],
            "\(run.text)")
    }
}

extension ReadmeExamplesTests {
    /// Every code fence in README.md and docs/*.md is well formed: an opening fence is ``` and
    /// at most a language word, a closing one is ``` alone (text after it garbles the page).
    @Test func everyCodeFenceIsWellFormed() throws {
        let docs = Paths.packageRoot.appendingPathComponent("docs")
        let pages = [Paths.packageRoot.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)).filter { $0.pathExtension == "md" }
        for page in pages {
            var open = false
            for (index, line) in try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.drop(while: { $0 == " " })
                guard trimmed.hasPrefix("```") else { continue }
                let rest = trimmed.dropFirst(3)
                if open {
                    #expect(rest.isEmpty, "\(page.lastPathComponent):\(index + 1): a closing fence has text after it: \(line)")
                } else {
                    #expect(rest.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "+" }, "\(page.lastPathComponent):\(index + 1): \(line)")
                }
                open.toggle()
            }
            #expect(!open, "\(page.lastPathComponent): a fence is never closed")
        }
    }
}
