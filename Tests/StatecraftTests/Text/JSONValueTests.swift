import Testing

@testable import Statecraft

struct JSONValueTests {
    private func string(_ text: String) throws(JSONValue.SyntaxError) -> String? {
        guard case .object(let members) = try JSONValue.parse(Array(text.utf8)) else { return nil }
        guard case .string(let value) = members.first?.value else { return nil }
        return value
    }

    /// A string without escapes is taken as it stands (non-ASCII, empty, beside others); one
    /// with escapes keeps what comes before, between and after them.
    @Test func stringsReadAsWritten() throws {
        #expect(try string(#"{"k":"plain"}"#) == "plain")
        #expect(try string(#"{"k":""}"#) == "")
        #expect(try string(#"{"k":"é ✓ 𝄞"}"#) == "é ✓ 𝄞")
        #expect(try string(#"{"k":"a\"b"}"#) == "a\"b")
        #expect(try string(#"{"k":"\\"}"#) == "\\")
        #expect(try string(#"{"k":"x\ny\u00e9z"}"#) == "x\nyéz")
        #expect(try string(#"{"k":"\ud834\udd1e end"}"#) == "𝄞 end")
        let object = try JSONValue.parse(Array(#"{"input":"go","arg":"a\tb","more":["c"]}"#.utf8))
        guard case .object(let members) = object else {
            Issue.record("not an object: \(object)")
            return
        }
        #expect(members.map(\.key) == ["input", "arg", "more"])
        #expect(object.jsonText == #"{"input":"go","arg":"a\tb","more":["c"]}"#)
    }

    /// A string that breaks the rules is refused where it breaks them, before or after an
    /// escape.
    @Test func badStringsAreRefusedWhereTheyBreak() {
        let cases: [(String, Int, String)] = [
            ("{\"k\":\"a\u{1}b\"}", 7, "a control character in a string must be escaped"),
            ("{\"k\":\"a\\nb\u{1}\"}", 10, "a control character in a string must be escaped"),
            (#"{"k":"abc"#, 5, "unterminated string"),
            (#"{"k":"a\"#, 5, "unterminated string"),
            (#"{"k":"a\qb"}"#, 7, "unknown escape '\\q'"),
        ]
        for (text, offset, message) in cases {
            do {
                _ = try JSONValue.parse(Array(text.utf8))
                Issue.record("\(text) was read")
            } catch {
                #expect(error.offset == offset && error.message == message, "\(text): \(error.offset) \(error.message)")
            }
        }
    }
}
