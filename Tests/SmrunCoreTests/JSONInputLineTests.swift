import Testing

@testable import SmrunCore

/// Reading one line of JSON Lines input (`smrun run --input-format jsonl`) into its parts.
@Suite struct JSONInputLineTests {
    /// The line read, as plain values: `input NAME ARG`, `wait DURATION`, `blank` or `bad NAME: PROBLEM`.
    static func read(_ line: String) -> String {
        var line = line
        return line.withUTF8 { bytes in
            switch JSONInputLine(UnsafeRawBufferPointer(bytes)) {
            case .blank: "blank"
            case .input(let name, let argument):
                "input \(String(decoding: name, as: UTF8.self))" + (argument.map { " " + String(decoding: $0, as: UTF8.self) } ?? "")
            case .wait(let duration): "wait \(String(decoding: duration, as: UTF8.self))"
            case .bad(let name, let problem): "bad \(String(decoding: name, as: UTF8.self)): \(problem)"
            }
        }
    }

    @Test func anInputWithAnArgumentKeepsTheArgumentAsWritten() {
        #expect(Self.read(#"{"input": "go"}"#) == "input go")
        #expect(Self.read(#"{ "arg" : "a \"b\"" , "input":"go" }"#) == #"input go "a \"b\"""#)
        #expect(Self.read(#"{"input": "go", "arg": -1.5e3}"#) == "input go -1.5e3")
        #expect(Self.read(#"{"input": "go", "arg": false}"#) == "input go false")
        #expect(Self.read(#"{"input": "go", "arg": null}"#) == "input go")
        #expect(Self.read("{\"input\": \"go\"}\r") == "input go")
    }

    @Test func theNameIsDecoded() {
        #expect(Self.read(#"{"input": "caf\u00e9"}"#) == "input café")
        #expect(Self.read(#"{"\u0069nput": "go"}"#) == "input go")
    }

    @Test func blankLinesAndWaits() {
        #expect(Self.read("") == "blank")
        #expect(Self.read(" \t ") == "blank")
        #expect(Self.read(#"{"wait": "1h30m"}"#) == "wait 1h30m")
    }

    /// Only JSON's numbers: no leading zeros, `+`, bare fraction or exponent.
    @Test func numbersAreJSONs() {
        for number in ["0", "-0", "12", "1.25", "1e9", "2E-3", "-7.5e+2"] {
            #expect(Self.read(#"{"input": "go", "arg": \#(number)}"#) == "input go \(number)", "\(number)")
        }
        for number in ["01", "+1", ".5", "1.", "1e", "--1", "0x10", "NaN", "Infinity"] {
            #expect(Self.read(#"{"input": "go", "arg": \#(number)}"#).hasPrefix("bad go: not a JSON input line: expected a JSON value for 'arg'"), "\(number)")
        }
    }

    @Test func aBadLineShowsItsInputOrItsText() {
        #expect(Self.read(#"{"input": "go", "arg": {}}"#) == "bad go: 'arg' must be a string, a number, true or false, not an object (column 24)")
        #expect(Self.read("go") .hasPrefix("bad go: not a JSON input line: expected a JSON object, found 'go' (column 1)"))
        let long = #"{"nothing": "\#(String(repeating: "é", count: 30))"}"#
        let shown = Self.read(long)
        #expect(shown.hasPrefix(#"bad {"nothing": ""#) && shown.contains("...: unknown key 'nothing'"), "\(shown)")
        #expect(Self.read(#"{"input": "go", "x\u0007": 1}"#).contains(#"unknown key 'x\u0007'"#))
    }
}
