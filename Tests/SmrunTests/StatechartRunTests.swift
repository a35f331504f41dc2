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
                "line 4: up: off: rejected: no-transition: no transition for 'up' from 'off'",
                "start: off -> dim, slow / countRun, enterOn",
                "line 6: nope: dim, slow: rejected: unknown-input: unknown input 'nope'",
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
        #expect(run.lines == ["error.disk: a -> b", "go: b -> a", "error: a -> b", "errors: b -> a", "line 5: errors: a: rejected: no-transition: no transition for 'errors' from 'a'"])
    }

    @Test func validateAcceptsTheExampleStatecharts() throws {
        let run = try Smrun.run(["validate", "machines/media-player.yaml", "machines/checkout.yaml", "machines/network-link.yaml"])
        #expect(run.exited(0), "\(run.errorText)")
    }
}
