import Foundation
import Testing

/// `smrun repl MACHINE --state FILE` explores a saved instance without ever writing FILE;
/// `:save-state` writes a snapshot elsewhere, `:timers` lists what is pending (docs/cli.md).
@Suite struct ReplStateFileTests {
    static let light = "machines/timed-traffic-light.yaml"

    private func repl(_ lines: [String], _ options: [String]) throws -> SmrunOutput {
        try Smrun.run(["repl", Self.light] + options, input: .bytes(Data(lines.map { $0 + "\n" }.joined().utf8)))
    }

    /// A state file of the light, green since 30 s with the crossing requested at 35 s.
    private func savedLight(_ files: TemporaryFiles) throws -> String {
        let path = files.path("light.json")
        let run = try Smrun.run([Self.light, "--state", path, "--wait", "35s", "--send", "button"])
        #expect(run.exited(0), "\(run.errorText)")
        return path
    }

    @Test func aSessionStartsFromTheSavedInstanceAndNeverWritesItsFile() throws {
        let files = try TemporaryFiles()
        let path = try savedLight(files)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let copy = files.path("copy.json")
        let session = try repl([":state", ":context", ":timers", ":wait 5s", ":timers", ":save-state \(copy)", ":save-state \(path)"], ["--state", path])
        #expect(session.exited(0), "\(session.errorText)")
        #expect(
            session.lines == [
                "green",
                "cycles = 1", "waiting = true",
                "cross (sent by requestCrossing, timer crossing), due in 5s", "after 25s of green, due in 20s",
                "cross (sent by requestCrossing, timer crossing): green -> yellow / endCrossing, slow",
                "after 5s of yellow, due in 5s",
                "saved state 'yellow' to \(copy)",
            ], "\(session.text)")
        #expect(
            session.errorText
                == "error: :save-state does not write '\(path)', the state file this session was loaded from (--state); save to another file, and resume that one\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // The snapshot written resumes where the session was.
        let resumed = try Smrun.run([Self.light, "--state", copy], input: .bytes(Data("@wait 5s\n".utf8)))
        #expect(resumed.exited(0), "\(resumed.errorText)")
        #expect(resumed.lines == ["after 5s: yellow -> red / stop"], "\(resumed.text)")
    }

    @Test func timersWithoutAStateFileSaysWhatIsPendingOrThatNothingIs() throws {
        let session = try repl([":timers", ":wait 30s", ":timers"], [])
        #expect(session.lines == [
            "start: -> red / stop", "after 30s of red, due in 30s", "after 30s: red -> green / go", "after 25s of green, due in 25s",
        ], "\(session.text)")
        let untimed = try Smrun.run(["repl", "machines/traffic-light.yaml"], input: .bytes(Data(":timers\n".utf8)))
        #expect(untimed.lines.last == "the machine has no timers", "\(untimed.text)")
    }

    @Test func aStateFileThatDoesNotResumeTheMachineIsRefusedSayingWhy() throws {
        let files = try TemporaryFiles()
        let path = try savedLight(files)
        let other = try Smrun.run(["repl", "machines/traffic-light.yaml", "--state", path], input: .bytes(Data(":state\n".utf8)))
        #expect(other.exited(2))
        #expect(other.stdout.isEmpty)
        #expect(
            other.errorText.hasPrefix(
                "smrun: state file \(path): the snapshot belongs to machine 'timed-traffic-light'"), "\(other.errorText)")
        #expect(other.errorText.contains("smrun repl explores a snapshot of this very machine"), "\(other.errorText)")
        let missing = try Smrun.run(["repl", Self.light, "--state", files.path("none.json")])
        #expect(missing.exited(2))
        #expect(missing.errorText == "smrun: state file \(files.path("none.json")): no such file\n", "\(missing.errorText)")
        let real = try files.file(
            "real.json",
            try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"clock\": \"virtual\",\n  \"time\": 35000,", with: "\"clock\": \"real\","))
        let wall = try Smrun.run(["repl", Self.light, "--state", real])
        #expect(wall.exited(2))
        #expect(
            wall.errorText.hasSuffix("its 2 pending timers are on the real clock, and smrun repl runs the virtual clock (its time moves with :wait)\n"),
            "\(wall.errorText)")
    }
}
