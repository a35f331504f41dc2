import Foundation
import Testing

/// `smrun` on statecharts: configurations as `from` and `to`, every transition taken, done
/// events and eventless microsteps as results of their own.
struct StatechartRunTests {
    @Test func jsonShowsConfigurationsTransitionsDoneEventsAndEventlessSteps() throws {
        let run = try Smrun.run([Paths.fixture("statechart.yaml"), "--format", "json", "--send", "start", "--send", "up", "--send", "overload"])
        #expect(
            run.lines == [
                #"{"input":"start","ok":true,"from":["off"],"to":["dim","slow"],"effects":["countRun","enterOn"],"transitions":[{"from":"off","to":["on"]}],"context":{"runs":1}}"#,
                #"{"input":"up","ok":true,"from":["dim","slow"],"to":["bright","fast"],"effects":[],"transitions":[{"from":"dim","to":["bright"]},{"from":"slow","to":["fast"]}],"context":{"runs":1}}"#,
                #"{"input":"overload","ok":true,"from":["bright","fast"],"to":["burnt","fast"],"effects":[],"transitions":[{"from":"bright","to":["burnt"]}],"context":{"runs":1}}"#,
                #"{"input":"done.state.lamp","ok":true,"from":["burnt","fast"],"to":["resting"],"effects":[],"transitions":[{"from":"on","to":["resting"]}],"sent_by":"lamp","context":{"runs":1}}"#,
                #"{"eventless":true,"ok":true,"from":["resting"],"to":["off"],"effects":[],"transitions":[{"from":"resting","to":["off"]}],"context":{"runs":1}}"#,
            ])
        #expect(run.exited(0))
    }

    @Test func textIndentsWhatFollowsAnInputAndRejectionsShowTheConfiguration() throws {
        let run = try Smrun.run(fixture: "statechart.yaml", script: "start\nup\noverload\nup\nstart\nnope\n")
        #expect(
            run.lines == [
                "start: off -> dim, slow / countRun, enterOn",
                "up: dim, slow -> bright, fast",
                "overload: bright, fast -> burnt, fast",
                "  done.state.lamp (sent by lamp): burnt, fast -> resting",
                "  (eventless): resting -> off",
                "up: off: rejected: no-transition: no transition for 'up' from 'off'",
                "start: off -> dim, slow / countRun, enterOn",
                "nope: dim, slow: rejected: unknown-input: unknown input 'nope'",
            ])
        #expect(run.exited(1))
    }

    @Test func unknownInputsInJSONShowTheConfigurationAsFrom() throws {
        let run = try Smrun.run([Paths.fixture("statechart.yaml"), "--format", "json", "--send", "start", "--send", "nope"])
        #expect(run.lines.last == #"{"input":"nope","ok":false,"from":["dim","slow"],"error":"unknown-input","message":"unknown input 'nope'"}"#)
    }

    @Test func aMachineWithoutNestingKeepsStringsForFromAndTo() throws {
        let run = try Smrun.run([Paths.fixture("eventless-flat.yaml"), "--format", "json", "--send", "go"])
        #expect(
            run.lines == [
                #"{"input":"go","ok":true,"from":"a","to":"b","effects":[],"transitions":[{"from":"a","to":["b"]}]}"#,
                #"{"eventless":true,"ok":true,"from":"b","to":"c","effects":[],"transitions":[{"from":"b","to":["c"]}]}"#,
            ])
    }

    @Test func aStateFileKeepsTheConfigurationAndHistoryBetweenRuns() throws {
        let files = try TemporaryFiles()
        let state = files.path("player.json")
        let first = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "play", "--send", "mute", "--send", "lowBandwidth", "--send", "pause"])
        #expect(first.exited(0), "\(first.errorText)")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(#""configuration": ["paused"],"#))
        #expect(saved.contains(#""lastPlayback": ["muted", "sd"]"#))
        let second = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "stop"])
        #expect(second.lines == ["stop: paused -> stopped / hideControls"])
        // Deep history restores the paused player, and pausing's history brings back the regions.
        let third = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "resume", "--send", "play"])
        #expect(third.lines == ["resume: stopped -> paused / showControls, freezeFrame", "play: paused -> muted, sd / showMuteIcon, lowerResolution"])
    }

    @Test(arguments: [
        (#"["muted", "sound", "hd"]"#, "the configuration [sound, muted, hd] holds 2 children of a compound state; machine 'media-player' cannot be in it"),
        (#"["muted"]"#, "the configuration [muted] leaves a region of a parallel state inactive; machine 'media-player' cannot be in it"),
        (#"["playing"]"#, "the configuration [playing] is not an atomic state; machine 'media-player' cannot be in it"),
        (#"["stoped"]"#, "state \"stoped\" is not a state of machine 'media-player' (did you mean 'stopped'?)"),
    ])
    func aSnapshotWhoseConfigurationCannotBeIsRefusedAndLeftAlone(_ configuration: String, _ message: String) throws {
        let files = try TemporaryFiles()
        let state = files.path("player.json")
        _ = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "play"])
        let edited = try String(contentsOfFile: state, encoding: .utf8).replacing(#"["sound", "hd"]"#, with: configuration)
        try edited.write(toFile: state, atomically: true, encoding: .utf8)
        let run = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "stop"])
        #expect(run.exited(2))
        #expect(run.errorText.contains(message), "\(run.errorText)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == edited)
    }

    @Test func aHistoryRecordThatCannotBeIsRefused() throws {
        let files = try TemporaryFiles()
        let state = files.path("player.json")
        _ = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "play", "--send", "pause"])
        let edited = try String(contentsOfFile: state, encoding: .utf8).replacing(#"["sound", "hd"]"#, with: #"["stopped"]"#)
        try edited.write(toFile: state, atomically: true, encoding: .utf8)
        let run = try Smrun.run(["machines/media-player.yaml", "--state", state, "--send", "play"])
        #expect(run.exited(2))
        #expect(run.errorText.contains("history state 'lastPlayback' records states it cannot recall"), "\(run.errorText)")
    }

    @Test func aStartWhoseEntryEffectFailsShowsTheConfigurationItEntered() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "boom.yaml", "initial: a\ncontext: { z: 0, n: 0 }\nstates: { a: { entry: [boom], states: [a1] } }\neffects:\n  boom: { set: { n: 1 / z } }\ntransitions: []\n")
        let run = try Smrun.run([machine, "--format", "json"])
        #expect(
            run.lines == [
                #"{"start":true,"ok":false,"from":["a1"],"error":"expression-error","message":"division by zero in '1 / z' of effect 'boom'; nothing changed"}"#
            ])
        #expect(run.exited(1))
    }

    @Test func inputPatternsWorkInRowsAndInFlatMachines() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "patterns.yaml", "initial: a\ninputs: [error, error.disk, errors, go]\nstates: [a, b]\ntransitions:\n  - error.* | a => b\n  - \"* | b => a\"\n")
        let run = try Smrun.run([machine], input: .bytes(Data("error.disk\ngo\nerror\nerrors\nerrors\n".utf8)))
        #expect(run.lines == ["error.disk: a -> b", "go: b -> a", "error: a -> b", "errors: b -> a", "errors: a: rejected: no-transition: no transition for 'errors' from 'a'"])
    }

    @Test func validateAcceptsTheExampleStatecharts() throws {
        let run = try Smrun.run(["validate", "machines/media-player.yaml", "machines/checkout.yaml", "machines/network-link.yaml"])
        #expect(run.exited(0), "\(run.errorText)")
    }
}
