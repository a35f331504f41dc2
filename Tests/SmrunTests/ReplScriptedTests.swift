import Foundation
import Testing

/// `smrun repl MACHINE` without a terminal: it reads lines from standard input, without
/// prompts, prints each input's result exactly as `run` does, and no mistake ends it.
@Suite struct ReplScriptedTests {
    static func repl(_ machine: String, _ lines: [String], _ options: [String] = []) throws -> SmrunOutput {
        try Smrun.run(["repl", machine] + options, input: .bytes(Data(lines.map { $0 + "\n" }.joined().utf8)))
    }

    @Test func inputsPrintAsRunPrintsThem() throws {
        let script = try String(contentsOf: Paths.machines.appendingPathComponent("self-driving-car.script"), encoding: .utf8)
        let lines = script.split(separator: "\n").map(String.init)
        let repl = try Self.repl("machines/self-driving-car.yaml", lines)
        let run = try Smrun.run(["machines/self-driving-car.yaml"], input: .bytes(Data(script.utf8)))
        #expect(repl.exited(0))
        #expect(repl.text == run.text)
        #expect(repl.text.contains(#"driveToLocation "The Witches Brew": pickingUpPassengers -> drivingToLocation"#))
    }

    /// A start that prints no line (no entry effect ran) but takes an eventless step shows that
    /// step at the margin, not indented under nothing; the steps after an input stay indented,
    /// and so does `:reset`'s start.
    @Test func anEventlessStepAfterAnUnshownStartIsNotIndented() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "hop.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
            <state id="a"><transition target="b"/></state>
            <state id="b"><transition event="go" target="a"/></state>
            </scxml>

            """)
        let session = try Self.repl(machine, ["go", ":reset"])
        #expect(session.exited(0), "\(session.errorText)")
        #expect(
            session.lines == ["(eventless): a -> b", "go: b -> a", "  (eventless): a -> b", "(eventless): a -> b", "reset: back in b",
            ], "\(session.text)")
    }

    /// `@wait DURATION` moves the clock in a session as in a script: a timed machine's timers
    /// fire, each with its result.
    @Test func aWaitLineFiresTheTimersThatFallDue() throws {
        let session = try Self.repl("machines/timed-traffic-light.yaml", ["@wait 30s", ":state", "@wait 1 minute"])
        let run = try Smrun.run(["machines/timed-traffic-light.yaml"], input: .bytes(.init("@wait 30s\n".utf8)))
        #expect(session.lines.prefix(2) == run.lines[...], "\(session.text)")
        #expect(session.lines.dropFirst(2).first == "green", "\(session.text)")
        #expect(session.lines.last == #"line 3: @wait: green: rejected: bad-argument: "1 minute" is not a duration: ' minute' is not a unit of duration: ms, s, m or h"#, "\(session.text)")
        let command = try Self.repl("machines/timed-traffic-light.yaml", [":wait 30s", ":state", ":undo", ":state"])
        #expect(command.lines == ["start: -> red / stop", "after 30s: red -> green / go", "green", "undid '@wait 30s': back in red", "red"], "\(command.text)")
    }

    /// `:undo` of a wait turns the clock back too: the timers it fired are pending again.
    @Test func undoingAWaitPutsBackTheClockAndTheTimersItFired() throws {
        let session = try Self.repl("machines/timed-traffic-light.yaml", [":wait 35s", ":undo", ":wait 35s"])
        #expect(session.lines == [
            "start: -> red / stop", "after 30s: red -> green / go", "undid '@wait 35s': back in red", "after 30s: red -> green / go",
        ], "\(session.text)")
    }

    @Test func aStatechartPrintsAsRunPrintsItAndUndoes() throws {
        let script = try String(contentsOf: Paths.machines.appendingPathComponent("media-player.script"), encoding: .utf8)
        let repl = try Self.repl("machines/media-player.yaml", script.split(separator: "\n").map(String.init))
        let run = try Smrun.run(["machines/media-player.yaml"], input: .bytes(Data(script.utf8)))
        #expect(repl.text == run.text)
        let session = try Self.repl("machines/media-player.yaml", ["play", "mute", ":state", ":undo", ":state", ":undo", ":state"])
        #expect(
            session.lines == [
                "play: stopped -> sound, hd / showControls", "mute: sound, hd -> muted, hd / showMuteIcon", "muted, hd",
                "undid 'mute': back in sound, hd", "sound, hd", "undid 'play': back in stopped", "stopped",
            ])
    }

    @Test func aStatechartsInputsAreThoseOfItsActiveStates() throws {
        let session = try Self.repl("machines/media-player.yaml", ["play", "mute", "pause", ":inputs", "play", ":graph mermaid"])
        let inputs = Array(session.lines[3..<7])
        #expect(
            inputs == [
                "play (from paused) -> lastPlayback", "stop (from active) -> stopped", "other inputs are rejected (no-transition)",
                "play: paused -> muted, hd / showMuteIcon",
            ], "\(session.text)")
        #expect(session.lines.contains("    class s5,s7 current"), "the active atomic states muted and hd are highlighted: \(session.text)")
        let checkout = try Self.repl("machines/checkout.yaml", ["addItem 3", "checkout", ":inputs"])
        #expect(checkout.lines.contains("done.state.payment (from payment; raised when it completes) -> review"), "\(checkout.text)")
        let files = try TemporaryFiles()
        let chart = try files.file("end.yaml", "initial: run\nstates:\n  run: { states: [step] }\n  end: { final: true }\ntransitions:\n  - quit | run => end\n")
        let finished = try Self.repl(chart, ["quit", ":inputs", ":state"])
        #expect(finished.lines == ["quit: step -> end", "the statechart has finished: every input is rejected (finished)", "end"])
    }

    @Test func jsonResultsAreRunsToo() throws {
        let repl = try Self.repl("machines/traffic-light.yaml", ["green", "blue"], ["--format", "json"])
        let run = try Smrun.run(["machines/traffic-light.yaml", "--format", "json"], input: .bytes(Data("green\nblue\n".utf8)))
        #expect(repl.lines.count == 3)
        #expect(repl.text == run.text)
    }

    @Test func startEffectsPrintFirst() throws {
        let output = try Self.repl("machines/traffic-light.yaml", [":state"])
        #expect(output.lines == ["start: -> red / stop", "red"])
    }

    @Test func undoGoesBackOneInputToAnyDepth() throws {
        let output = try Self.repl(
            Paths.fixture("counter.yaml"), ["inc", "inc", "inc", ":context", ":undo", ":undo", ":state", ":context", ":undo", ":undo", "inc"])
        #expect(
            output.lines == [
                "inc: even -> odd / increment",
                "inc: odd -> even / increment",
                "inc: even -> odd / increment",
                "count = 3",
                "undid 'inc': back in even",
                "undid 'inc': back in odd",
                "odd",
                "count = 1",
                "undid 'inc': back in even",
                "inc: even -> odd / increment",
            ])
        #expect(output.errorLines == ["error: nothing to undo"])
        #expect(output.exited(0))
    }

    @Test func undoRestoresTheContextThatJSONResultsShow() throws {
        let output = try Self.repl(Paths.fixture("counter.yaml"), ["inc", "inc", ":undo", ":undo", "inc"], ["--format", "json"])
        let results = try output.lines.filter { $0.hasPrefix("{") }.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let counts = results.map { ($0?["context"] as? [String: Any])?["count"] as? Int }
        #expect(counts == [1, 2, 1], "\(output.lines)")
        #expect(output.lines.filter { !$0.hasPrefix("{") } == ["undid 'inc': back in odd", "undid 'inc': back in even"])
    }

    @Test func undoTakesBackARejectedInputToo() throws {
        let output = try Self.repl(Paths.fixture("counter.yaml"), ["inc", "dec", ":undo", ":state"])
        #expect(output.lines.suffix(2) == ["undid 'dec': back in odd", "odd"])
    }

    @Test func resetStartsOverAndRunsStartEffectsAgain() throws {
        let output = try Self.repl("machines/traffic-light.yaml", ["green", ":reset", ":undo", ":state"])
        #expect(output.lines == ["start: -> red / stop", "green: red -> green / go", "start: -> red / stop", "reset: back in red", "red"])
        #expect(output.errorLines == ["error: nothing to undo"])
    }

    @Test func mistakesPrintAMessageAndTheSessionGoesOn() throws {
        let output = try Self.repl(
            Paths.fixture("counter.yaml"),
            [
                ":stat", ":frobnicate", ":undo now", ":save", ":graph png", ":load /nonexistent/script", ":save /nonexistent/dir/s",
                "inc 3", "blue", "inc",
            ])
        #expect(
            output.errorLines == [
                "error: unknown command ':stat' (did you mean ':state'?); :help lists the commands",
                "error: unknown command ':frobnicate'; :help lists the commands",
                "error: :undo takes no argument, not 'now'",
                "error: :save needs a file name: :save FILE",
                "error: :graph draws dot or mermaid, not 'png'",
                "error: cannot load '/nonexistent/script': No such file or directory",
                "error: cannot save to '/nonexistent/dir/s': No such file or directory",
            ])
        #expect(output.lines.count == 3)
        // Rejections name the session's line, as `run` names the script's.
        #expect(output.lines[0].hasPrefix("line 8: inc: even: rejected: bad-argument: 'inc' takes no argument"))
        #expect(output.lines[1].hasPrefix("line 9: blue: even: rejected: unknown-input: unknown input 'blue'"))
        #expect(output.lines.last == "inc: even -> odd / increment")
        #expect(output.exited(0))
    }

    @Test func quitEndsTheSession() throws {
        let output = try Self.repl(Paths.fixture("counter.yaml"), ["inc", ":quit", "inc"])
        #expect(output.lines == ["inc: even -> odd / increment"])
        #expect(output.exited(0))
    }

    @Test func inputsListsWhatCanBeSentAndWhereItLeads() throws {
        let output = try Self.repl("machines/self-driving-car.yaml", ["startEngine", "pickUpPassengers", ":inputs"])
        let listing = Array(output.lines.dropFirst(2))
        #expect(listing.contains("passengersHaveEntered <int> -> pickingUpPassengers / pickedUpPassengers"), "\(listing)")
        #expect(listing.contains { $0.hasPrefix("driveToLocation <string> -> drivingToLocation") }, "\(listing)")
        #expect(listing.contains("noFailInput (stays in pickingUpPassengers)"), "\(listing)")
        #expect(listing.last == "other inputs are rejected (no-transition)")
    }

    @Test func inputsInAFinalState() throws {
        let output = try Self.repl(Paths.fixture("final-state.yaml"), [":inputs", "finish", ":inputs"])
        #expect(output.lines.first == "finish -> done")
        #expect(output.lines.last == "'done' is a final state: every input is rejected (finished)")
    }

    @Test func graphHighlightsTheCurrentState() throws {
        let output = try Self.repl("machines/traffic-light.yaml", ["green", ":graph", ":graph mermaid"])
        let text = output.text
        #expect(text.contains(##"s2 [label="green\nentry / go", style="rounded,filled,bold", fillcolor="#ffe08a"];"##))
        #expect(text.contains(#"s0 [label="red\nentry / stop"];"#))
        #expect(text.contains("    class s2 current\n"))
    }

    @Test func aSavedSessionReplaysWithRun() throws {
        let files = try TemporaryFiles()
        let saved = files.path("session.script")
        let output = try Self.repl(
            Paths.fixture("counter.yaml"), ["inc", "inc", "bogus", "inc", ":undo", "# a comment", "", ":save \(saved)"])
        #expect(output.lines.last == "saved 3 inputs to \(saved)")
        let script = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(script == "inc\ninc\nbogus\n")
        let replayed = try Smrun.run([Paths.fixture("counter.yaml")], input: .file(URL(fileURLWithPath: saved)))
        #expect(replayed.lines == Array(output.lines.prefix(3)))
    }

    @Test func loadSendsEveryInputOfAScriptEachUndoable() throws {
        let files = try TemporaryFiles()
        let script = try files.file("three.script", "# three incs\ninc\n\ninc\r\ninc\n")
        let output = try Self.repl(Paths.fixture("counter.yaml"), [":load \(script)", ":undo", ":context"])
        #expect(
            output.lines == [
                "inc: even -> odd / increment", "inc: odd -> even / increment", "inc: even -> odd / increment",
                "undid 'inc': back in even", "count = 2",
            ])
    }

    @Test func helpListsEveryCommand() throws {
        let output = try Self.repl("machines/traffic-light.yaml", [":help"])
        for command in ["state", "context", "inputs", "undo", "reset", "graph", "save", "load", "help", "quit"] {
            #expect(output.text.contains("  :\(command)"), "\(command)")
        }
    }

    @Test func anInvalidMachineIsRefusedAsByRun() throws {
        let output = try Self.repl(Paths.fixture("invalid-unknown-key.yaml"), [])
        #expect(output.exited(2))
        #expect(output.errorText.contains("unknown key 'transitons'"))
    }
}
