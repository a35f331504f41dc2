import Foundation
import Testing

/// `smrun --state FILE` on statecharts (docs/snapshots.md): the configuration and the history
/// records are saved and resumed, under the same fingerprint, `--migrate` and `--reset` rules
/// as a flat machine's state.
@Suite struct StatechartStateFileTests {
    static let player = "machines/media-player.yaml"

    /// FILE as a JSON object.
    static func snapshot(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The media player with `replacements` made to its text, written beside the state file.
    static func editedPlayer(_ files: TemporaryFiles, _ replacements: [(String, String)]) throws -> String {
        var text = try String(contentsOfFile: player, encoding: .utf8)
        for (old, new) in replacements {
            #expect(text.contains(old), "the media player no longer has \(old)")
            text = text.replacing(old, with: new)
        }
        return try files.file("player.yaml", text)
    }

    // MARK: - Resuming

    @Test func aRunResumesTheConfigurationAndTheHistoryRecords() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        let first = try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute", "--send", "lowBandwidth", "--send", "pause"])
        #expect(first.exited(0), "\(first.errorText)")
        let saved = try Self.snapshot(path)
        #expect(saved["state"] as? [String] == ["paused"])
        #expect((saved["history"] as? [String: [String]]) == ["lastPlayback": ["muted", "sd"]])

        // The deep history brings back what the first run left, so the second run knows it.
        let second = try Smrun.run([Self.player, "--state", path], input: .bytes(Data("play\nstop\n".utf8)))
        #expect(second.exited(0), "\(second.errorText)")
        #expect(
            second.lines == [
                "play: paused -> muted, sd / showMuteIcon, lowerResolution",
                "stop: muted, sd -> stopped / hideMuteIcon, hideControls",
            ])
        let third = try Smrun.run([Self.player, "--state", path, "--send", "resume"])
        #expect(third.lines == ["resume: stopped -> muted, sd / showControls, showMuteIcon, lowerResolution"], "\(third.errorText)")
        let last = try Self.snapshot(path)
        #expect(last["state"] as? [String] == ["muted", "sd"])
        #expect((last["history"] as? [String: [String]]) == ["lastPlayback": ["muted", "sd"], "lastSession": ["muted", "sd"]])
    }

    @Test func aNewFileHoldsTheInitialConfigurationAndNoHistoryYet() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        let run = try Smrun.run([Self.player, "--state", path])
        #expect(run.exited(0), "\(run.errorText)")
        let text = String(decoding: try Self.bytes(path), as: UTF8.self)
        #expect(text.contains("\"state\": [\"stopped\"],\n  \"history\": {},\n  \"context\": {}"), "\(text)")
    }

    @Test func aStatechartWithoutNestingSavesItsStateAsAName() throws {
        let files = try TemporaryFiles()
        let path = files.path("flat.json")
        let run = try Smrun.run([Paths.fixture("eventless-flat.yaml"), "--state", path, "--send", "go"])
        #expect(run.exited(0), "\(run.errorText)")
        let saved = try Self.snapshot(path)
        #expect(saved["state"] as? String == "c")
        #expect(saved["history"] == nil)
    }

    @Test func contextAndDoneEventsSurviveTheRoundTrip() throws {
        let files = try TemporaryFiles()
        let path = files.path("lamp.json")
        let machine = Paths.fixture("statechart.yaml")
        #expect(try Smrun.run([machine, "--state", path, "--send", "start", "--send", "up"]).exited(0))
        #expect(try Self.snapshot(path)["state"] as? [String] == ["bright", "fast"])
        let run = try Smrun.run([machine, "--state", path, "--send", "overload"])
        #expect(
            run.lines == [
                "overload: bright, fast -> burnt, fast", "  done.state.lamp (sent by lamp): burnt, fast -> resting", "  (eventless): resting -> off",
            ], "\(run.errorText)")
        #expect(try Self.snapshot(path)["context"] as? [String: Int] == ["runs": 1])
    }

    // MARK: - Refusals

    @Test(arguments: [
        (#"["muted"]"#, "the saved states muted are no configuration of machine 'media-player': the list leaves a region of a parallel state inactive"),
        (#"["mutd", "hd"]"#, #"state "mutd" is not a state of machine 'media-player' (did you mean 'muted'?)"#),
        (#""stopped""#, #""state" must be an array of state names: machine 'media-player' has nested states"#),
    ])
    func aConfigurationTheMachineCannotBeInIsRefused(state: String, message: String) throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play"]).exited(0))
        let text = String(decoding: try Self.bytes(path), as: UTF8.self).replacing(#"["sound", "hd"]"#, with: state)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let refused = try Smrun.run([Self.player, "--state", path, "--send", "pause"])
        #expect(refused.exited(2))
        #expect(refused.text.isEmpty)
        #expect(refused.errorText.contains(message), "\(refused.errorText)")
        #expect(refused.errorText.contains("the file was not changed"))
        #expect(try Self.bytes(path) == Data(text.utf8))
    }

    @Test(arguments: [
        (#""lastPlayback": ["muted", "hd"]"#, #""lastPlayback": ["muted"]"#, "history 'lastPlayback' records muted, which it cannot: the list leaves a region of a parallel state out"),
        (#""lastPlayback": ["muted", "hd"]"#, #""lastPlayback": ["stopped"]"#, "history 'lastPlayback' records stopped, which it cannot: the list holds a state that is not an atomic state inside the history's parent"),
        (#""lastPlayback""#, #""playing""#, #""playing" in "history" is not a history state of machine 'media-player'"#),
        (#""history": {"#, #""histories": {"#, #"unknown member "histories""#),
    ])
    func aHistoryRecordTheMachineCannotHaveIsRefused(old: String, new: String, message: String) throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute", "--send", "pause"]).exited(0))
        let text = String(decoding: try Self.bytes(path), as: UTF8.self).replacing(old, with: new)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let refused = try Smrun.run([Self.player, "--state", path, "--send", "play"])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains(message), "\(refused.errorText)")
        #expect(try Self.bytes(path) == Data(text.utf8))
    }

    @Test func anEditedStatechartIsRefusedWithTheWayOut() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play"]).exited(0))
        let edited = try Self.editedPlayer(files, [("bandwidthRestored]", "bandwidthRestored, rewind]")])
        let refused = try Smrun.run([edited, "--state", path, "--send", "pause"])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains("the snapshot was saved by a different definition of machine 'media-player'"), "\(refused.errorText)")
        #expect(refused.errorText.contains("use --migrate"))
    }

    // MARK: - Migrating and resetting

    @Test func migrateKeepsTheConfigurationAndTheHistoriesThatStillFit() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute", "--send", "stop"]).exited(0))
        // A new video state, and the session's history gone.
        let edited = try Self.editedPlayer(
            files, [("              sd: { entry: [lowerResolution] }", "              sd: { entry: [lowerResolution] }\n              audioOnly:"), ("      lastSession: { history: deep }\n", ""), ("  - resume            | stopped => lastSession\n", "")])
        let migrated = try Smrun.run([edited, "--state", path, "--migrate", "--send", "play"])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.errorText.contains("kept state 'stopped'; forgot history lastSession"), "\(migrated.errorText)")
        #expect(migrated.lines == ["play: stopped -> sound, hd / showControls"])
        let saved = try Self.snapshot(path)
        #expect((saved["history"] as? [String: [String]]) == ["lastPlayback": ["muted", "hd"]])
    }

    @Test func migrateRefusesAConfigurationWhoseStateIsGone() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute"]).exited(0))
        let before = try Self.bytes(path)
        let edited = try Self.editedPlayer(files, [("muted", "silent")])
        let refused = try Smrun.run([edited, "--state", path, "--migrate"])
        #expect(refused.exited(2))
        #expect(
            refused.errorText.contains(#"the saved state "muted" is no longer a state of machine 'media-player', so the snapshot cannot be migrated"#),
            "\(refused.errorText)")
        #expect(refused.errorText.contains("use --reset"))
        #expect(try Self.bytes(path) == before)
    }

    @Test func aFlatMachinesSnapshotMigratesToTheStatechartItBecame() throws {
        let files = try TemporaryFiles()
        let path = files.path("lamp.json")
        let flat = try files.file("flat.yaml", "machine: lamp\ninitial: off\nstates: [off, on]\ntransitions:\n  - toggle | off => on\n  - toggle | on => off\n")
        let nested = try files.file(
            "nested.yaml", "machine: lamp\ninitial: off\nstates:\n  off:\n  on: { states: [warm, hot] }\ntransitions:\n  - toggle | off => on\n  - toggle | on => off\n  - heat | warm => hot\n")
        #expect(try Smrun.run([flat, "--state", path, "--send", "toggle"]).exited(0))
        // 'on' has children now: no configuration holds it alone.
        let refused = try Smrun.run([nested, "--state", path, "--migrate"])
        #expect(refused.exited(2))
        #expect(
            refused.errorText.contains("the saved states on are no configuration of machine 'lamp': the list holds a state that is not atomic, so the snapshot cannot be migrated"),
            "\(refused.errorText)")
        #expect(try Smrun.run([flat, "--state", path, "--send", "toggle"]).exited(0))
        let moved = try Smrun.run([nested, "--state", path, "--migrate", "--send", "toggle", "--send", "heat"])
        #expect(moved.exited(0), "\(moved.errorText)")
        #expect(moved.errorText.contains("kept state 'off'"), "\(moved.errorText)")
        #expect(moved.lines == ["toggle: off -> warm", "heat: warm -> hot"])
        #expect(try Self.snapshot(path)["state"] as? [String] == ["hot"])
    }

    @Test func resetStartsTheStatechartAfresh() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute", "--send", "stop"]).exited(0))
        let run = try Smrun.run([Self.player, "--state", path, "--reset", "--send", "resume"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.errorText.contains("reset: starting from the initial state"))
        #expect(run.lines == ["resume: stopped -> sound, hd / showControls"], "a reset forgets the history records")
    }

    // MARK: - smrun status

    @Test func statusShowsTheConfigurationAndTheHistoryRecords() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "lowBandwidth", "--send", "pause"]).exited(0))
        let status = try Smrun.run(["status", "--state", path, Self.player])
        #expect(status.exited(0), "\(status.errorText)")
        #expect(Array(status.lines[3...]) == [
            "state: paused", "history:", "  lastPlayback: sound, sd", "context: none",
            "pending: none (a snapshot is saved between inputs, when nothing is queued)", "matches \(Self.player): yes",
        ])
        let json = try Smrun.run(["status", "--state", path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["state"] as? [String] == ["paused"])
        #expect((object["history"] as? [String: [String]]) == ["lastPlayback": ["sound", "sd"]])
    }

    @Test func statusSaysWhatMigrateWouldForget() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "stop"]).exited(0))
        let edited = try Self.editedPlayer(files, [("      lastSession: { history: deep }\n", ""), ("  - resume            | stopped => lastSession\n", "")])
        let status = try Smrun.run(["status", "--state", path, edited])
        #expect(status.exited(1))
        #expect(status.lines.contains("--migrate would keep state 'stopped'; would forget history lastSession"), "\(status.text)")
        let json = try Smrun.run(["status", "--state", path, edited, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["matches"] as? Bool == false)
        let migration = try #require(object["migration"] as? [String: Any], "\(json.text)")
        #expect(migration["possible"] as? Bool == true)
        #expect(migration["state"] as? [String] == ["stopped"])
        #expect(migration["forgotten_history"] as? [String] == ["lastSession"])
    }

    @Test func graphHighlightsTheSavedConfiguration() throws {
        let files = try TemporaryFiles()
        let path = files.path("player.json")
        #expect(try Smrun.run([Self.player, "--state", path, "--send", "play", "--send", "mute"]).exited(0))
        let graph = try Smrun.run(["graph", Self.player, "--state", path, "--format", "mermaid"])
        #expect(graph.exited(0), "\(graph.errorText)")
        #expect(graph.lines.contains("    class s5,s7 current"), "\(graph.text)")
    }
}
