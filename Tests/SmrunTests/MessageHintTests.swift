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

    /// libyaml's words for a key without a space after its colon, with the hint after them.
    @Test(arguments: [
        ("initial:cart\ninputs: [go]\nstates: [cart, b]\ntransitions:\n  - go | cart => b\n",
         "2:7: error: mapping values are not allowed in this context; a key needs a space after its colon: 'initial: cart' [yaml-syntax]"),
        ("inputs: [go]\ninitial:cart\nstates:\n  - cart\ntransitions:\n  - go | cart => cart\n",
         "3:1: error: could not find expected ':' while scanning a simple key at line 2, column 1; a key needs a space after its colon: 'initial: cart' [yaml-syntax]"),
    ])
    func aKeyWithoutASpaceAfterItsColonIsExplained(text: String, message: String) throws {
        let (path, run) = try Self.validate(text)
        #expect(run.lines == ["\(path):\(message)"], "\(run.text)")
    }

    /// An unquoted `*` is a YAML alias to libyaml; the hint quotes it, in either mapping style.
    @Test(arguments: [
        ("  - input: go\n    from: *\n    to: b\n",
         #"6:12: error: did not find expected alphabetic or numeric character while scanning an alias at line 6, column 11; an unquoted '*' starts a YAML alias (*name): quote it, from: "*" [yaml-syntax]"#),
        ("  - {input: go, from: *, to: b}\n",
         #"5:24: error: did not find expected alphabetic or numeric character while scanning an alias at line 5, column 23; an unquoted '*' starts a YAML alias (*name): quote it, from: "*" [yaml-syntax]"#),
    ])
    func anUnquotedStarIsExplained(rows: String, message: String) throws {
        let (path, run) = try Self.validate("initial: a\ninputs: [go]\nstates: [a, b]\ntransitions:\n" + rows)
        #expect(run.lines == ["\(path):\(message)"], "\(run.text)")
    }

    /// A row without its `- ` is a key without a `:` to libyaml: each row is a list item.
    @Test func aRowWithoutItsDashIsExplained() throws {
        let (path, run) = try Self.validate(
            "initial: a\ninputs: [go, back]\nstates: [a, b]\ntransitions:\n  - go | a => b\n  back | b => a\n  - go | b => b\n")
        #expect(
            run.lines == [
                "\(path):7:3: error: could not find expected ':' while scanning a simple key at line 6, column 3; each row is a list item: write '  - back | b => a' [yaml-syntax]"
            ], "\(run.text)")
    }

    /// Mistakes in expressions from other languages: a quoted state in in(), an unquoted string,
    /// `and`, `or` and `not`.
    @Test func expressionMistakesFromOtherLanguagesAreExplained() throws {
        let (path, run) = try Self.validate(
            """
            initial: a
            inputs: [go]
            context:
              turn: ew
              x: 0
              y: true
            states: [a, b, ewRed]
            transitions:
              - go | a => b [in('ewRed')]
              - go | a => b [turn == ns]
              - go | a => b [ns != turn]
              - go | a => b [x > 0 and y]
              - go | a => b [x > 0 or y]
              - go | a => b [not y]
              - go | a => b [in("ewRedd")]
              - go | a => b [x == ns]
            """)
        #expect(
            run.lines == [
                "\(path):9:18: error: in a guard 'in('ewRed')': in() refers to undefined state 'ewRed'; in() takes a state's name without quotes: in(ewRed) [expression-type]",
                #"\#(path):10:26: error: in a guard 'turn == ns': undefined context variable 'ns'; to compare with the string, quote it: "ns" [undefined-variable]"#,
                #"\#(path):11:18: error: in a guard 'ns != turn': undefined context variable 'ns'; to compare with the string, quote it: "ns" [undefined-variable]"#,
                "\(path):12:24: error: in a guard 'x > 0 and y': expected an operator or the end of the expression, found 'and'; write '&&' for 'and' [expression-syntax]",
                "\(path):13:24: error: in a guard 'x > 0 or y': expected an operator or the end of the expression, found 'or'; write '||' for 'or' [expression-syntax]",
                "\(path):14:22: error: in a guard 'not y': expected an operator or the end of the expression, found 'y'; write '!' for 'not' [expression-syntax]",
                #"\#(path):15:18: error: in a guard 'in("ewRedd")': in() refers to undefined state "ewRedd" (did you mean 'ewRed'?); in() takes a state's name without quotes: in(ewRedd) [expression-type]"#,
                // Compared with a number, the name is no string: no hint.
                "\(path):16:23: error: in a guard 'x == ns': undefined context variable 'ns' [undefined-variable]",
            ], "\(run.text)")
    }

    /// `str` is `string` in other languages: the did-you-mean the docs promise, and the input is
    /// read as taking a string, so its uses of `arg` are not each an error too.
    @Test func aMisnamedArgumentTypeSuggestsTheTypeWithoutACascade() throws {
        let (path, run) = try Self.validate(
            """
            initial: a
            inputs:
              go: str
            states: [a, b]
            context:
              name: ""
            effects:
              keep: { set: { name: arg } }
            transitions:
              - go | a => b [arg == "x"] | keep
              - go | b => a [arg != ""]
            """)
        #expect(
            run.lines == [
                "\(path):3:7: error: argument type is int, double, bool or string, not 'str' (did you mean 'string'?) [argument-type]"
            ], "\(run.text)")
    }
}

extension StatechartScenarioTests {
    /// A scenario starting in a compound or parallel state is refused with the atomic states it
    /// could start in.
    @Test(arguments: [
        ("audio", "names 'audio', a compound state; a scenario starts in atomic states, and those inside it are 'sound', 'muted'"),
        ("playing", "names 'playing', a parallel state; a scenario starts in atomic states, and those inside it are 'sound', 'muted', 'hd', 'sd' (one of each region, as a list)"),
        ("[stopped, active]", "names 'active', a compound state; a scenario starts in atomic states, and those inside it are 'sound', 'muted', 'hd', 'sd', 'paused'"),
    ])
    func aStartInACompoundStateNamesItsAtomicStates(state: String, problem: String) throws {
        let files = try TemporaryFiles()
        let path = try files.file(
            "player.test.yaml", "machine: \(Self.player)\nscenarios:\n  - name: parent\n    state: \(state)\n    steps: []\n")
        let run = try Smrun.run(["test", path])
        #expect(run.exited(2), "\(run.text)\(run.errorText)")
        let column = state.hasPrefix("[") ? 13 : 12
        #expect(
            run.diagnostic(path, 4, column, "invalid-value") == "\(path):4:\(column): error: 'state' \(problem) [invalid-value]",
            "\(run.errorText)")
    }
}
