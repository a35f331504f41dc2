import Foundation
import TestSupport
import Testing

/// How `smrun` reads an input script from standard input (docs/cli.md): one result per input line,
/// whatever the line holds.
@Suite struct ScriptHandlingTests {
    private let car = "machines/self-driving-car.yaml"

    private func runCar(_ script: [UInt8], format: String = "json") throws -> SmrunOutput {
        try Smrun.run([car, "--format", format], input: .bytes(Data(script)))
    }

    private func runCar(_ script: String, format: String = "json") throws -> SmrunOutput {
        try runCar(Array(script.utf8), format: format)
    }

    @Test func blankLinesAndCommentsAreSkippedButCounted() throws {
        let run = try runCar("\n# a comment\n   \nstartEngine\n\t\n  # indented comment\ndriveAround\n")
        let results = try run.jsonLines()
        #expect(results.map { $0["input"] as? String } == ["startEngine", "driveAround"])
        #expect(results.map { JSONValue.int($0["line"]) } == [4, 7])
        #expect(run.exited(0))
    }

    @Test func crlfLineEndsWork() throws {
        let run = try runCar("# comment\r\n\r\nstartEngine\r\npickUpPassengers\r\npassengersHaveEntered 4\r\ndriveToLocation Home\r\n")
        let results = try run.jsonLines()
        #expect(results.count == 4)
        #expect(results.allSatisfy { JSONValue.bool($0["ok"]) == true })
        #expect(JSONValue.int(results[2]["arg"]) == 4)
        #expect(results[3]["arg"] as? String == "Home")
        #expect(run.exited(0))
    }

    /// Lines written as smrun prints them take a precomputed path; the same inputs written any
    /// other way take the parser's. Both must give the same results.
    @Test func plainAndOtherwiseWrittenLinesGiveTheSameResults() throws {
        let plain = [
            "startEngine", "pickUpPassengers", "passengersHaveEntered 7", "passengersHaveEntered -3",
            "passengersHaveEntered 0", "driveToLocation \"The Witches Brew\"", "noFailInput", "park", "noMapInput",
            "dropOffPassengers", "driveAround", "park", "pickUpPassengers", "driveToLocation \"Pier 39\"",
        ]
        let other = [
            "  startEngine", "pickUpPassengers\t", "passengersHaveEntered +7", "passengersHaveEntered\t-3",
            "passengersHaveEntered   00", "driveToLocation The Witches Brew", "noFailInput\r", "park ", "\tnoMapInput",
            "dropOffPassengers  ", "driveAround\r", " park", "pickUpPassengers\r", "driveToLocation \"Pier \\u0033\\u0039\"",
        ]
        for format in ["text", "json"] {
            let fast = try runCar(plain.joined(separator: "\n") + "\n", format: format)
            let slow = try runCar(other.joined(separator: "\n") + "\n", format: format)
            #expect(fast.lines.count == plain.count)
            #expect(fast.lines == slow.lines, "\(format)")
            #expect(fast.status == slow.status)
        }
        let text = try runCar(plain.joined(separator: "\n") + "\n", format: "text")
        #expect(text.lines.last == #"driveToLocation "Pier 39": pickingUpPassengers -> drivingToLocation / driveToLocation"#)
    }

    /// Line ends are found a word at a time in a line's first 32 bytes and by `memchr` after:
    /// a line of every length from 1 to 80 bytes, so that its `\n` falls at every offset of a
    /// word, at the switch and beyond it, gives one result, with the name as written.
    @Test func everyLineLengthAroundTheWordScanGivesOneResult() throws {
        let names = (1...80).map { length in String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }) }
        for ending in ["\n", ""] {
            let run = try runCar(names.joined(separator: "\n") + ending)
            let results = try run.jsonLines()
            #expect(results.map { $0["input"] as? String } == names, "final newline: \(!ending.isEmpty)")
            #expect(results.allSatisfy { $0["error"] as? String == "unknown-input" })
            #expect(run.exited(1))
        }
    }

    @Test func lastLineWithoutNewlineIsProcessed() throws {
        let run = try runCar("startEngine\ndriveAround", format: "text")
        #expect(run.lines == ["startEngine: unstarted -> parked", "driveAround: parked -> drivingAround"])
    }

    @Test func unknownInputIsReportedWithSuggestionAndTheRunGoesOn() throws {
        let run = try runCar("startEngin\nstartEngine\n")
        let results = try run.jsonLines()
        try #require(results.count == 2)
        #expect(results[0]["error"] as? String == "unknown-input")
        #expect(results[0]["input"] as? String == "startEngin")
        #expect((results[0]["message"] as? String)?.contains("did you mean 'startEngine'") == true)
        #expect(results[0]["from"] as? String == "unstarted")
        #expect(JSONValue.bool(results[1]["ok"]) == true)
        #expect(run.exited(1))
    }

    /// A script line whose argument does not fit its input, and what the message must name.
    struct BadArgument: CustomTestStringConvertible, Sendable {
        var line: [UInt8]
        var expected: String
        var testDescription: String { String(decoding: line, as: UTF8.self) }
    }

    static let badArguments = [
        BadArgument(line: Array("passengersHaveEntered abc".utf8), expected: "takes one int argument"),
        BadArgument(line: Array("passengersHaveEntered 4.5".utf8), expected: "takes one int argument"),
        BadArgument(line: Array("passengersHaveEntered 99999999999999999999".utf8), expected: "takes one int argument"),
        BadArgument(line: Array("startEngine now".utf8), expected: "takes no argument"),
        BadArgument(line: Array("passengersHaveEntered".utf8), expected: "takes one int argument"),
        BadArgument(line: Array("driveToLocation".utf8), expected: "takes one string argument"),
        BadArgument(line: Array(#"driveToLocation "abc"#.utf8), expected: "takes one string argument"),
        BadArgument(line: Array(#"driveToLocation "a\qb""#.utf8), expected: "takes one string argument"),
        BadArgument(line: Array("driveToLocation ".utf8) + [0xFF, 0xFE, 0x41], expected: "takes one string argument"),
        BadArgument(line: Array("driveToLocation \"".utf8) + [0xC3, 0x28] + Array("\"".utf8), expected: "takes one string argument"),
    ]

    @Test(arguments: badArguments)
    func badArgumentIsRejectedNamingTheExpectedType(_ bad: BadArgument) throws {
        let run = try runCar(bad.line + Array("\nstartEngine\n".utf8))
        let results = try run.jsonLines()
        try #require(results.count == 2)
        #expect(results[0]["error"] as? String == "bad-argument")
        #expect(JSONValue.int(results[0]["line"]) == 1)
        #expect(results[0]["from"] as? String == "unstarted")
        #expect(results[0]["arg"] == nil)
        let message = try #require(results[0]["message"] as? String)
        #expect(message.contains(bad.expected), "message: \(message)")
        #expect(JSONValue.bool(results[1]["ok"]) == true)
        #expect(run.exited(1))
    }

    /// Lines of bytes that are not text: each starts with a byte that is neither blank nor `#`,
    /// so each is an input line, and none names an input.
    static func garbageLines() -> [[UInt8]] {
        var lines: [[UInt8]] = [[0xFF, 0xFE, 0x00, 0x41], [0x80], [0xC3], [0xED, 0xA0, 0x80], [0x01, 0x02, 0x7F], [0x7F, 0x0D, 0x0D]]
        for first in UInt8(0xC0)...0xFF {
            // A spread of every byte value but `\n`, different on each line.
            let body = (0..<Int(first % 40)).map { UInt8(truncatingIfNeeded: Int(first) &* 31 &+ $0 &* 97) }
            lines.append([first] + body.filter { $0 != UInt8(ascii: "\n") })
        }
        return lines
    }

    @Test(arguments: ["text", "json"])
    func everyGarbageLineGivesOneUnknownInputResult(format: String) throws {
        let lines = Self.garbageLines()
        // Each garbage line is followed by a comment and a blank line, which give no result.
        let script = lines.flatMap { $0 + Array("\n# comment\n\n".utf8) }
        let run = try runCar(script, format: format)
        #expect(run.lines.count == lines.count)
        #expect(run.errorText == "")
        #expect(run.exited(1))
        if format == "json" {
            let results = try run.jsonLines()
            #expect(results.allSatisfy { $0["error"] as? String == "unknown-input" })
            #expect(results.map { JSONValue.int($0["line"]) } == lines.indices.map { 3 * $0 + 1 })
        } else {
            #expect(run.lines.allSatisfy { $0.contains("rejected: unknown-input") })
        }
    }

    @Test func tenMegabyteArgumentGivesOneResult() throws {
        let long = String(repeating: "x", count: 10 << 20)
        let run = try runCar("startEngine\npickUpPassengers\ndriveToLocation \(long)\nnoFailInput\n")
        let results = try run.jsonLines()
        try #require(results.count == 4)
        #expect((results[2]["arg"] as? String)?.utf8.count == 10 << 20)
        #expect(JSONValue.int(results[3]["line"]) == 4)
        #expect(run.exited(0))
    }

    @Test(.timeBound) func tenMegabyteUnknownNameGivesOneResultQuickly() throws {
        let long = String(repeating: "x", count: 10 << 20)
        // A 10 MB argument takes about a second in a debug build; an unknown name should not take
        // much longer (a did-you-mean over it would take minutes). The bound leaves room for the
        // suites that run beside it (several servers and PostgreSQL clusters on 2 cores).
        let run = try Smrun.run([car, "--format", "json"], input: .bytes(Data("\(long)\nstartEngine\n".utf8)), timeout: .seconds(20))
        let results = try run.jsonLines()
        #expect(results.map { $0["error"] as? String } == ["unknown-input", nil])
    }

    @Test func lineOverMaxLineBytesIsReportedNotDropped() throws {
        let long = String(repeating: "y", count: 2 << 20)
        let run = try Smrun.run([car, "--max-line-bytes", "100"], input: .bytes(Data("startEngine\n\(long)\ndriveAround\n".utf8)))
        #expect(run.lines == ["startEngine: unstarted -> parked", "driveAround: parked -> drivingAround"])
        #expect(run.errorText.contains("line 2"), "stderr: \(run.errorText)")
        #expect(run.errorText.contains("--max-line-bytes"))
        #expect(run.exited(1))
    }

    @Test func unreadableStandardInputIsAnIOError() throws {
        let run = try Smrun.run(["machines/self-driving-car.yaml"], input: .file(Paths.machines))
        #expect(run.stdout.isEmpty)
        #expect(run.errorText.contains("standard input"), "\(run.errorText)")
        #expect(run.exited(2))
    }

    @Test func maxLineBytesHoldsForShortLinesToo() throws {
        let run = try Smrun.run(
            [car, "--max-line-bytes", "100"],
            input: .bytes(Data("startEngine\n\(String(repeating: "y", count: 500))\ndriveAround\n".utf8)))
        #expect(run.lines.count == 2, "\(run.lines.map { $0.prefix(80) })")
        #expect(run.errorText.contains("--max-line-bytes"), "stderr: \(run.errorText)")
    }
}
