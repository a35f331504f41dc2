import Statecraft
import Testing

@testable import SmrunCore

/// A blank followed by `#` starts a comment that runs to the end of the line, outside a
/// JSON-quoted argument (docs/cli.md, Input scripts).
@Suite struct ScriptLineParserCommentTests {
    @Test(arguments: [
        ("name TRK-1 # note", "TRK-1"),
        ("name TRK-1\t# note", "TRK-1"),
        ("name TRK-1   #", "TRK-1"),
        (#"name "TRK-1" # note"#, "TRK-1"),
        (#"name "a # b" # note"#, "a # b"),
        (#"name "a \" # b" # c"#, #"a " # b"#),
        ("name a#b", "a#b"),
        ("name a# b", "a# b"),
    ])
    func aTrailingCommentIsNoPartOfTheArgument(line: String, argument: String) {
        var script = Script()
        #expect(script.parse(line) == .input("name", .string(argument)), "\(line)")
    }

    @Test func aTrailingCommentAfterANameOrAWaitIsSkipped() {
        var script = Script()
        #expect(script.parse("start # begin") == .input("start", .null))
        #expect(script.parse("start #") == .input("start", .null))
        #expect(script.parse("count 5 # five") == .input("count", .int(5)))
        #expect(script.parse("@wait 5s # then") == .wait(5000))
        #expect(script.parse("go!#x") == .unknown(Array("go!#x".utf8)))
    }

    /// The plain path never takes a line with a comment: the general parser does.
    @Test func thePlainPathLeavesCommentedLinesToTheParser() {
        let script = Script()
        #expect(script.parsePlain("count 5 # five") == nil)
        #expect(script.parsePlain(#"name "a" # b"#) == nil)
        #expect(script.parsePlain("start # begin") == nil)
    }
}
