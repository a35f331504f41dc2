import Statecraft
import Testing

@testable import SmrunCore

/// A parse's outcome as plain values: the parser hands back pointers into the line, which live
/// only as long as the line does.
enum Outcome: Equatable, CustomStringConvertible {
    case skip
    /// An input with its argument's value (`.null` for none).
    case input(String, Value)
    /// A string argument the machine never reads: its value is not built, its bytes are kept as
    /// written (a JSON literal, quotes included, when `isJSON`).
    case unread(String, raw: [UInt8], isJSON: Bool)
    case unknown([UInt8])
    case bad(String, problem: String)
    /// `@wait DURATION`, in milliseconds.
    case wait(Int)
    case badWait(String)
    /// An event no input names, taken by the named input (`nil`: by none).
    case undeclared(String, by: String?)

    var description: String {
        switch self {
        case .skip: "skip"
        case .input(let name, let value): "input \(name) \(value)"
        case .unread(let name, let raw, let isJSON): "unread \(name) \(String(decoding: raw, as: UTF8.self)) json: \(isJSON)"
        case .unknown(let name): "unknown \(name)"
        case .bad(let name, let problem): "bad \(name): \(problem)"
        case .wait(let milliseconds): "wait \(milliseconds)"
        case .badWait(let problem): "bad wait: \(problem)"
        case .undeclared(let name, let input): "undeclared \(name) by \(input ?? "none")"
        }
    }
}

/// A machine with an input of each argument kind, and the parser for its scripts.
struct Script {
    static let machine: CompiledMachine = {
        let output = MachineCompiler.compile(
            MachineDefinition(
                name: "script", initial: "idle",
                context: [
                    ContextVariable("n", .int(0)), ContextVariable("x", .double(0)), ContextVariable("on", .bool(false)),
                    ContextVariable("who", .string("")),
                ],
                inputs: [
                    InputDeclaration("start"), InputDeclaration("count", argumentType: .int),
                    InputDeclaration("scale", argumentType: .double), InputDeclaration("toggle", argumentType: .bool),
                    InputDeclaration("name", argumentType: .string), InputDeclaration("note", argumentType: .string),
                    InputDeclaration("café"), InputDeclaration("go!"), InputDeclaration("a.very.long.input.name.of.forty.bytes.x"),
                    InputDeclaration("a.very.long.input.name.of.forty.bytes.y"),
                ],
                states: [StateDeclaration("idle")],
                effects: [
                    EffectDefinition("setN", assignments: [.init("n", "arg")]),
                    EffectDefinition("setX", assignments: [.init("x", "arg")]),
                    EffectDefinition("setOn", assignments: [.init("on", "arg")]),
                    EffectDefinition("setWho", assignments: [.init("who", "arg")]),
                ],
                transitions: [
                    row("start"), row("count", "setN"), row("scale", "setX"), row("toggle", "setOn"), row("name", "setWho"),
                    // `note` takes a string that nothing reads.
                    row("note"), row("café"), row("go!"), row("a.very.long.input.name.of.forty.bytes.x"),
                    row("a.very.long.input.name.of.forty.bytes.y"),
                ]))
        precondition(output.diagnostics.isEmpty, "\(output.diagnostics)")
        return output.machine!
    }()

    static func row(_ input: String, _ effect: Named? = nil) -> TransitionDefinition {
        TransitionDefinition(Named(input), from: .states(["idle"]), to: nil, effects: effect.map { [$0] } ?? [])
    }

    var parser = ScriptLineParser(machine: Script.machine)

    func name(_ input: Int) -> String { Script.machine.inputNames[input] }

    func outcome(_ parsed: ScriptLineParser.Parsed) -> Outcome {
        switch parsed {
        case .skip: return .skip
        case .input(let input, let argument):
            if let raw = argument.raw { return .unread(name(input), raw: Array(raw), isJSON: argument.rawIsJSON) }
            return .input(name(input), argument.value)
        case .unknownInput(let name): return .unknown(Array(name))
        case .badArgument(let input, let problem): return .bad(name(input), problem: problem)
        case .wait(let milliseconds): return .wait(milliseconds)
        case .badWait(let problem): return .badWait(problem)
        case .undeclaredEvent(let input, let event, _): return .undeclared(String(decoding: event, as: UTF8.self), by: input.map(name))
        }
    }

    /// `line` (without its `\n`) through ``ScriptLineParser/parse(line:)``.
    mutating func parse(_ line: [UInt8]) -> Outcome {
        line.withUnsafeBytes { bytes in outcome(parser.parse(line: bytes)) }
    }

    mutating func parse(_ line: String) -> Outcome { parse(Array(line.utf8)) }

    /// `NAME` and `ARG` through ``ScriptLineParser/parse(name:argument:)``, as `--send NAME=ARG`.
    mutating func parse(name: String, argument: String?) -> Outcome {
        Array(name.utf8).withUnsafeBytes { name in
            guard let argument else { return outcome(parser.parse(name: name, argument: nil)) }
            return Array(argument.utf8).withUnsafeBytes { outcome(parser.parse(name: name, argument: $0)) }
        }
    }

    /// `line` through ``ScriptLineParser/parsePlain(line:)``, as the outcome ``parse(_:)``
    /// would give, or `nil` when it is not a plain line.
    func parsePlain(_ line: String) -> Outcome? {
        Array(line.utf8).withUnsafeBytes { bytes in
            guard let plain = parser.parsePlain(line: bytes) else { return nil }
            let argument = plain.argument
            if let raw = argument.raw {
                #expect(plain.kind == .unreadString)
                return .unread(name(plain.input), raw: Array(raw), isJSON: argument.rawIsJSON)
            }
            #expect(plain.value == argument.value)
            return .input(name(plain.input), plain.value)
        }
    }
}

/// Input-script lines (docs/cli.md, "Input scripts"): `INPUT` or `INPUT ARG`, blanks and `#` comments skipped, an
/// argument checked against its input's declared type.
struct ScriptLineParserTests {
    @Test(arguments: ["", " ", "\t \t", "\r", "  \r", "#", "# a comment", "   # indented", "\t#x y z", "#start"])
    func blankLinesAndCommentsAreSkipped(line: String) {
        var script = Script()
        #expect(script.parse(line) == .skip)
    }

    @Test func anInputWithoutArgument() {
        var script = Script()
        for line in ["start", "  start", "start  ", "\tstart\t", "start\r", " start \r"] {
            #expect(script.parse(line) == .input("start", .null), "\(line.debugDescription)")
        }
    }

    @Test func anInputWithAnArgumentOfEachType() {
        var script = Script()
        #expect(script.parse("count 42") == .input("count", .int(42)))
        #expect(script.parse("scale 2.5") == .input("scale", .double(2.5)))
        #expect(script.parse("toggle true") == .input("toggle", .bool(true)))
        #expect(script.parse("toggle false") == .input("toggle", .bool(false)))
        #expect(script.parse("name Ada") == .input("name", .string("Ada")))
        #expect(script.parse("name \"Ada\"") == .input("name", .string("Ada")))
    }

    @Test func blanksAroundTheArgumentAreDroppedButNotInsideIt() {
        var script = Script()
        #expect(script.parse("count \t  42 \t ") == .input("count", .int(42)))
        #expect(script.parse("name  two  words  ") == .input("name", .string("two  words")))
        #expect(script.parse("name \"  quoted blanks stay  \"  ") == .input("name", .string("  quoted blanks stay  ")))
        #expect(script.parse("name\tAda") == .input("name", .string("Ada")))
    }

    @Test func crlfLineEndsAreTheSameAsLF() {
        var script = Script()
        #expect(script.parse("count 42\r") == .input("count", .int(42)))
        #expect(script.parse("name \"Ada\"\r") == .input("name", .string("Ada")))
        #expect(script.parse("name Ada\r") == .input("name", .string("Ada")))
        // Only the line's last `\r` is its line end; another is part of the argument.
        #expect(script.parse("name Ada\r\r") == .input("name", .string("Ada\r")))
    }

    @Test func ints() {
        var script = Script()
        let cases: [(String, Int)] = [
            ("0", 0), ("-7", -7), ("+7", 7), ("007", 7), ("-0", 0),
            ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ]
        for (argument, value) in cases {
            #expect(script.parse("count \(argument)") == .input("count", .int(value)), "\(argument)")
        }
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "1.5", "1e3", "12abc", "-", "+", "--1", "0x10", "١٢", "\"42\"", "true"])
    func badInts(argument: String) {
        var script = Script()
        #expect(script.parse("count \(argument)") == .bad("count", problem: "got \(JSONText.quoted(argument))"))
    }

    @Test func doubles() {
        var script = Script()
        let cases: [(String, Double)] = [("2.5", 2.5), ("-0.5", -0.5), ("3", 3), ("1e3", 1000), ("1E-2", 0.01), ("+4.25", 4.25), (".5", 0.5)]
        for (argument, value) in cases {
            #expect(script.parse("scale \(argument)") == .input("scale", .double(value)), "\(argument)")
        }
    }

    @Test(arguments: ["nan", "inf", "-inf", "infinity", "1e999", "0x10", "1..2", "1e", "2.5f", "\"2.5\"", String(repeating: "1", count: 400)])
    func badDoubles(argument: String) {
        var script = Script()
        guard case .bad("scale", let problem) = script.parse("scale \(argument)") else {
            Issue.record("\(argument) was taken")
            return
        }
        #expect(problem.hasPrefix("got \""))
    }

    @Test(arguments: ["TRUE", "True", "1", "0", "yes", "\"true\"", "truex"])
    func boolsAreExactlyTrueOrFalse(argument: String) {
        var script = Script()
        #expect(script.parse("toggle \(argument)") == .bad("toggle", problem: "got \(JSONText.quoted(argument))"))
    }

    @Test func anArgumentIsRequiredExactlyWhenTheInputTakesOne() {
        var script = Script()
        for input in ["count", "scale", "toggle", "name"] {
            #expect(script.parse(input) == .bad(input, problem: "but none was given"))
            #expect(script.parse("\(input)   \r") == .bad(input, problem: "but none was given"))
        }
        #expect(script.parse("start 1") == .bad("start", problem: "got \"1\""))
        // A blank then `#` after a name starts a comment, not an argument; `#` after another
        // byte is part of the argument.
        #expect(script.parse("start # why") == .input("start", .null))
        #expect(script.parse("start #why") == .input("start", .null))
        #expect(script.parse("start a#why") == .bad("start", problem: "got \"a#why\""))
    }

    @Test func jsonQuotedStringsAreDecoded() {
        var script = Script()
        let cases: [(String, String)] = [
            (#""The Witches Brew""#, "The Witches Brew"),
            (#""""#, ""),
            (#""a\"b""#, "a\"b"),
            (#""back\\slash""#, "back\\slash"),
            (#""\/\b\f\n\r\t""#, "/\u{8}\u{C}\n\r\t"),
            (#""caf\u00e9""#, "café"),
            (#""\u00E9\u4e2d""#, "é中"),
            (#""\ud83d\ude00""#, "😀"),
            (#""\u0000 nul""#, "\u{0} nul"),
            (#""café 中 😀""#, "café 中 😀"),
            (##""# not a comment""##, "# not a comment"),
        ]
        for (argument, value) in cases {
            #expect(script.parse("name \(argument)") == .input("name", .string(value)), "\(argument)")
        }
    }

    @Test(arguments: [
        #""unterminated"#, #""a"b""#, #""\x""#, #""\"#, #""\u12""#, #""\u12g4""#, #""\ud83d""#, #""\ud83dx""#,
        #""\ude00""#, #""\ud83d\u0041""#, "\"tab\there\"", "\"new\u{1}line\"", #""trailing\""#, #""""""#,
    ])
    func invalidJSONStringsAreBadArguments(argument: String) {
        var script = Script()
        #expect(script.parse("name \(argument)") == .bad("name", problem: "got \(JSONText.quoted(argument))"))
        // The same for a string nothing reads: it is checked all the same.
        #expect(script.parse("note \(argument)") == .bad("note", problem: "got \(JSONText.quoted(argument))"))
    }

    @Test func invalidUTF8IsABadArgumentQuotedOrNot() {
        var script = Script()
        for bytes: [UInt8] in [[0xFF], [0xC3], [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            guard case .bad("name", _) = script.parse(Array("name ".utf8) + bytes) else {
                Issue.record("unquoted \(bytes) was taken")
                continue
            }
            guard case .bad("name", _) = script.parse(Array("name \"".utf8) + bytes + [UInt8(ascii: "\"")]) else {
                Issue.record("quoted \(bytes) was taken")
                continue
            }
        }
    }

    @Test func aStringNothingReadsKeepsItsBytesInsteadOfAValue() {
        var script = Script()
        #expect(script.parse("note plain words ") == .unread("note", raw: Array("plain words".utf8), isJSON: false))
        #expect(script.parse(#"note "a\tb""#) == .unread("note", raw: Array(#""a\tb""#.utf8), isJSON: true))
        #expect(Script.machine.argumentIsRead[Script.machine.inputNames.firstIndex(of: "name")!])
        #expect(!Script.machine.argumentIsRead[Script.machine.inputNames.firstIndex(of: "note")!])
    }

    @Test func unknownInputsGiveTheirNameAsWritten() {
        var script = Script()
        for name in ["stop", "Start", "sta", "startx", "count42", "cafe", "café!", "a.very.long.input.name.of.forty.bytes.z"] {
            #expect(script.parse(name) == .unknown(Array(name.utf8)), "\(name)")
            #expect(script.parse("  \(name) 12 \r") == .unknown(Array(name.utf8)), "\(name)")
        }
    }

    @Test func namesAreMatchedByTheirExactBytes() {
        var script = Script()
        #expect(script.parse("café") == .input("café", .null))
        #expect(script.parse("go!") == .input("go!", .null))
        #expect(script.parse("a.very.long.input.name.of.forty.bytes.x") == .input("a.very.long.input.name.of.forty.bytes.x", .null))
        #expect(script.parse("a.very.long.input.name.of.forty.bytes.y") == .input("a.very.long.input.name.of.forty.bytes.y", .null))
        // The same text in another Unicode normalization is another name.
        #expect(script.parse("cafe\u{301}") == .unknown(Array("cafe\u{301}".utf8)))
        // Odd bytes are an unknown name, given back byte for byte.
        for odd: [UInt8] in [[0], [0x73, 0x74, 0x61, 0x72, 0x74, 0], [0, 0x73, 0x74, 0x61, 0x72, 0x74], [0xFF, 0xFE], [0xC3], [0x7F], [0x1B, 0x5B, 0x41]] {
            #expect(script.parse(odd) == .unknown(odd), "\(odd)")
            #expect(script.parse(odd + Array(" 1\r".utf8)) == .unknown(odd), "\(odd)")
        }
    }

    @Test func longLines() {
        var script = Script()
        let long = String(repeating: "x", count: 1 << 20)
        #expect(script.parse(long) == .unknown(Array(long.utf8)))
        #expect(script.parse("name \(long)") == .input("name", .string(long)))
        #expect(script.parse("name \"\(long)\"") == .input("name", .string(long)))
        let digits = String(repeating: "9", count: 100_000)
        // A message shows the first 60 bytes of a long argument.
        #expect(script.parse("count \(digits)") == .bad("count", problem: "got \"\(digits.prefix(60))\"..."))
        #expect(script.parse("count \(String(repeating: "0", count: 100_000))7") == .input("count", .int(7)))
    }

    @Test func theParserIsReusedAcrossLines() {
        var script = Script()
        // The scratch buffer of a decoded string must not leak into the next one.
        #expect(script.parse(#"name "a long string first""#) == .input("name", .string("a long string first")))
        #expect(script.parse(#"name "b""#) == .input("name", .string("b")))
        #expect(script.parse(#"name """#) == .input("name", .string("")))
    }

    @Test func sendOptionsTakeTheNameAndArgumentApart() {
        var script = Script()
        #expect(script.parse(name: "count", argument: "42") == .input("count", .int(42)))
        #expect(script.parse(name: "start", argument: nil) == .input("start", .null))
        #expect(script.parse(name: "count", argument: nil) == .bad("count", problem: "but none was given"))
        #expect(script.parse(name: "start", argument: "") == .bad("start", problem: "got \"\""))
        #expect(script.parse(name: "name", argument: " padded ") == .input("name", .string(" padded ")))
        #expect(script.parse(name: "nope", argument: "1") == .unknown(Array("nope".utf8)))
    }

    /// The fast path for lines written as smrun prints them, and `nil` for every other line.
    @Test func plainLines() {
        let script = Script()
        #expect(script.parsePlain("start") == .input("start", .null))
        #expect(script.parsePlain("café") == .input("café", .null))
        #expect(script.parsePlain("count 42") == .input("count", .int(42)))
        #expect(script.parsePlain("count -5") == .input("count", .int(-5)))
        #expect(script.parsePlain("count 0") == .input("count", .int(0)))
        #expect(script.parsePlain("count 999999999999999999") == .input("count", .int(999_999_999_999_999_999)))
        #expect(script.parsePlain("toggle true") == .input("toggle", .bool(true)))
        #expect(script.parsePlain("toggle false") == .input("toggle", .bool(false)))
        #expect(script.parsePlain(#"name "Ada Lovelace""#) == .input("name", .string("Ada Lovelace")))
        #expect(script.parsePlain(#"note "x y""#) == .unread("note", raw: Array(#""x y""#.utf8), isJSON: true))
        let notPlain = [
            "", " ", "# comment", "start ", " start", "start\r", "stop", "start 1", "count", "count +42", "count 042", "count -0",
            "count 1234567890123456789", "count  42", "count 42 ", "count 4x", "scale 2.5", "toggle TRUE", "name Ada",
            #"name "a\"b""#, #"name "tab\tescape""#, "name \"é\"", #"name ""#, "name \"unterminated",
        ]
        for line in notPlain {
            #expect(script.parsePlain(line) == nil, "\(line.debugDescription)")
        }
    }

    /// A plain line's name ends at its first space, looked for a word at a time: every length
    /// up to 40 bytes, a space at every offset (or none), gives the first space's offset.
    @Test func theFirstSpaceIsFoundAtEveryOffset() {
        for count in 0...40 {
            for space in [nil] + Array(0..<count) {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: count)
                if let space {
                    bytes[space] = UInt8(ascii: " ")
                    // Later spaces change nothing.
                    for later in stride(from: space + 3, to: count, by: 5) { bytes[later] = UInt8(ascii: " ") }
                }
                let found = bytes.withUnsafeBytes { ScriptLineParser.spaceIndex($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: count) }
                #expect(found == space, "\(count) bytes, space at \(String(describing: space))")
            }
        }
        // A space more than one byte after the longest name ends no name: not a plain line.
        let script = Script()
        #expect(script.parsePlain("a.very.long.input.name.of.forty.bytes.xx 1") == nil)
        #expect(script.parsePlain("a.very.long.input.name.of.forty.bytes.x 1") == nil)
    }

    /// A line the fast path takes means what the general parser makes of it.
    @Test func plainLinesMeanWhatTheyMeanToTheGeneralParser() {
        var script = Script()
        let lines = [
            "start", "café", "go!", "a.very.long.input.name.of.forty.bytes.x", "count 42", "count -5", "count 0",
            "count 999999999999999999", "toggle true", "toggle false", #"name "Ada""#, #"name """#, #"note "x y""#, ##"note "#""##,
        ]
        for line in lines {
            let plain = script.parsePlain(line)
            #expect(plain != nil, "\(line)")
            #expect(plain == script.parse(line), "\(line)")
        }
    }

    /// Plain string arguments come back as the strings written, however often they repeat and
    /// however many distinct ones push each other out of the parser's kept values (lengths on
    /// both sides of 8 and of 15 bytes, the small-string limit).
    @Test func repeatedStringArgumentsKeepTheirValues() {
        var script = Script()
        let names = (0..<300).map { index in String(repeating: "ab", count: index % 13) + "\(index)" }
        for round in 0..<3 {
            for (index, name) in names.enumerated() where index % (round + 1) == 0 {
                let line = Array("name \"\(name)\"".utf8)
                let value = line.withUnsafeBytes { bytes in
                    script.parser.parsePlain(line: bytes).map { script.parser.value(of: $0) }
                }
                #expect(value == .string(name), "\(name)")
            }
        }
    }
}

/// JSON string literals as scripts write them, decoded directly.
struct JSONStringTests {
    func decode(_ literal: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = [1, 2, 3]
        let valid = literal.withUnsafeBytes { JSONString.decode($0, into: &out) }
        return valid ? out : nil
    }

    @Test func decodesIntoFreshBytes() {
        #expect(decode(Array(#""a\nb""#.utf8)) == [0x61, 0x0A, 0x62])
        #expect(decode(Array(#""""#.utf8)) == [])
        #expect(decode(Array(#""\u0000""#.utf8)) == [0])
    }

    @Test func refusesWhatIsNotExactlyOneLiteral() {
        for literal in ["", "\"", "a", "\"a", "a\"", "\"a\"b\"", "\"a\" ", " \"a\"", "'a'"] {
            #expect(decode(Array(literal.utf8)) == nil, "\(literal)")
        }
        #expect(decode([0x22, 0xFF, 0x22]) == nil)
    }

    @Test func utf8Validity() {
        let valid: [[UInt8]] = [[], Array("ascii".utf8), Array("é中😀".utf8), [0xEF, 0xBB, 0xBF]]
        let invalid: [[UInt8]] = [[0x80], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x61, 0xFF]]
        for bytes in valid { #expect(bytes.withUnsafeBytes { JSONString.isValidUTF8($0) }, "\(bytes)") }
        for bytes in invalid { #expect(!bytes.withUnsafeBytes { JSONString.isValidUTF8($0) }, "\(bytes)") }
    }
}

/// Internal inputs (`{ internal: true }`) are unknown to scripts and `--send`: only the machine's
/// effects may send them. The fast path never takes one either.
struct InternalInputScriptTests {
    static let machine: CompiledMachine = {
        let output = MachineCompiler.compile(
            MachineDefinition(
                name: "internal", initial: "idle",
                inputs: [
                    InputDeclaration("start"), InputDeclaration("done", isInternal: true),
                    InputDeclaration("progress", argumentType: .int, isInternal: true),
                ],
                states: [StateDeclaration("idle")],
                transitions: ["start", "done", "progress"].map { TransitionDefinition(Named($0), from: .states(["idle"]), to: nil) }))
        precondition(output.diagnostics.isEmpty, "\(output.diagnostics)")
        return output.machine!
    }()

    var parser = ScriptLineParser(machine: Self.machine)

    func isUnknown(_ parsed: ScriptLineParser.Parsed) -> Bool {
        if case .unknownInput = parsed { return true }
        return false
    }

    @Test(arguments: ["done", "progress 3", "  done  ", "progress \"3\"", "progress"])
    mutating func aScriptLineSendingOneIsAnUnknownInput(_ line: String) {
        let bytes = Array(line.utf8)
        bytes.withUnsafeBytes { bytes in
            #expect(parser.parsePlain(line: bytes) == nil)
            #expect(isUnknown(parser.parse(line: bytes)))
        }
    }

    @Test mutating func sendIsRefusedTooButOtherInputsParse() {
        Array("done".utf8).withUnsafeBytes { #expect(isUnknown(parser.parse(name: $0, argument: nil))) }
        Array("progress".utf8).withUnsafeBytes { name in
            Array("1".utf8).withUnsafeBytes { #expect(isUnknown(parser.parse(name: name, argument: $0))) }
        }
        Array("start".utf8).withUnsafeBytes { bytes in
            #expect(parser.parsePlain(line: bytes)?.input == 0)
            guard case .input(0, _) = parser.parse(line: bytes) else {
                Issue.record("'start' did not parse")
                return
            }
        }
    }
}
