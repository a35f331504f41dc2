import Foundation
import Testing

/// A text rejection names the script line it came from (`line N: `), whichever path the line
/// took (a plain line's precomputed cell text or the parser and printer); accepted lines and
/// `--send` inputs have no line number; and bytes that are not printable are escaped one way,
/// JSON's, in the result and in its message alike.
@Suite struct RejectionLineTests {
    static let car = "machines/self-driving-car.yaml"

    @Test func rejectionsNameTheirScriptLineOnEveryPath() throws {
        let script = [
            "startEngine",  // accepted: as before
            "noMapInput",  // plain: the precomputed no-transition text
            "# a comment still counts as a line",
            "noMapInput  ",  // trailing blanks: the general path
            "passengersHaveEntered 4",  // a plain line with an argument
            "bogus",  // unknown input
            "startEngine now",  // bad argument
            "driveAround",
        ].joined(separator: "\n") + "\n"
        let run = try Smrun.run([Self.car], input: .bytes(Data(script.utf8)))
        #expect(run.lines == [
            "startEngine: unstarted -> parked",
            "line 2: noMapInput: parked: rejected: no-transition: no transition for 'noMapInput' from 'parked'",
            "line 4: noMapInput: parked: rejected: no-transition: no transition for 'noMapInput' from 'parked'",
            "line 5: passengersHaveEntered 4: parked: rejected: no-transition: no transition for 'passengersHaveEntered' from 'parked'",
            "line 6: bogus: parked: rejected: unknown-input: unknown input 'bogus'",
            "line 7: startEngine: parked: rejected: bad-argument: 'startEngine' takes no argument, got \"now\"",
            "driveAround: parked -> drivingAround",
        ])
        #expect(run.exited(1))
    }

    @Test func lineNumbersPastTheFirstDigitsAreRight() throws {
        let script = String(repeating: "startEngine\n", count: 1234)
        let run = try Smrun.run([Self.car], input: .bytes(Data(script.utf8)))
        #expect(run.lines.count == 1234)
        #expect(run.lines[9] == "line 10: startEngine: parked: rejected: no-transition: no transition for 'startEngine' from 'parked'")
        #expect(run.lines.last?.hasPrefix("line 1234: startEngine: parked: rejected: ") == true)
    }

    @Test func aQueuedInputsRejectionNamesTheLineOfTheInputThatQueuedIt() throws {
        let run = try Smrun.run(fixture: "livelock.yaml", script: "rest\ntick\n", ["--max-steps", "2"])
        #expect(run.lines.first == "rest: spinning -> spinning")
        #expect(run.lines.filter { $0.contains("rejected") }.map { String($0.prefix(40)) } == ["  line 2: tick (sent by again): spinning"])
        #expect(run.lines.filter { $0.contains("-> spinning / again") }.allSatisfy { !$0.contains("line") })
    }

    @Test func sentInputsHaveNoLine() throws {
        let run = try Smrun.run([Self.car, "--send", "startEngine", "--send", "noMapInput", "--send", "bogus"])
        #expect(run.lines == [
            "startEngine: unstarted -> parked",
            "noMapInput: parked: rejected: no-transition: no transition for 'noMapInput' from 'parked'",
            "bogus: parked: rejected: unknown-input: unknown input 'bogus'",
        ])
    }

    @Test func controlBytesAreEscapedOneWayInResultsAndMessages() throws {
        let script: [UInt8] = Array("x".utf8) + [0x7F] + Array("y".utf8) + [0x01, 0x1B] + Array("[31m\n".utf8)
        let text = try Smrun.run([Self.car], input: .bytes(Data(script)))
        #expect(text.lines == [#"line 1: "x\u007fy\u0001\u001b[31m": unstarted: rejected: unknown-input: unknown input 'x\u007fy\u0001\u001b[31m'"#])
        #expect(!text.text.contains(#"\u{"#))
        #expect(!text.stdout.contains(0x7F) && !text.stdout.contains(0x1B))

        let json = try Smrun.run([Self.car, "--format", "json"], input: .bytes(Data(script)))
        let result = try #require(try json.jsonLines().first)
        #expect(result["input"] as? String == "x\u{7F}y\u{1}\u{1B}[31m")
        #expect(result["message"] as? String == #"unknown input 'x\u007fy\u0001\u001b[31m'"#)
    }

    @Test func invalidNamesInMachineFilesAreEscapedTheSameWay() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("m.yaml", "initial: a\n\"k\\x7fz\": 1\nstates: [\"a\\u007fb\"]\ntransitions: []\n")
        for format in ["text", "github"] {
            let run = try Smrun.run(["validate", "--format", format, machine])
            #expect(run.text.contains(#"name 'a\u007fb' contains a space or control character"#), "\(run.text)")
            #expect(run.text.contains(#"unknown key 'k\u007fz'"#), "\(run.text)")
            #expect(!run.stdout.contains(0x7F))
        }
        let json = try Smrun.run(["validate", "--format", "json", machine])
        #expect(json.text.contains(#"unknown key 'k\u007fz'"#), "\(json.text)")
    }
}
