import Foundation
import Testing

/// `smrun repl` at a terminal (a tmux pseudo-terminal): a prompt with the state, TAB
/// completion, history kept across sessions, `:undo`, Ctrl-C and Ctrl-D.
@Suite struct ReplTerminalTests {
    let home: TemporaryFiles

    init() throws { home = try TemporaryFiles() }

    func session(_ machine: String = "machines/traffic-light.yaml", colour: Bool = false) throws -> TerminalSession {
        var environment = ["HOME": home.directory.path, "TERM": "xterm"]
        // NO_COLOR empty counts as unset (no-color.org); the test runner may have set it.
        environment["NO_COLOR"] = colour ? "" : "1"
        let session = try TerminalSession(["repl", machine], environment: environment)
        try session.waitFor("the first prompt") { $0.last?.hasSuffix("> ") == true || $0.last?.hasSuffix(">") == true }
        return session
    }

    @Test func thePromptShowsTheStateInColour() throws {
        let plain = try session()
        #expect(!(try plain.screen(escapes: true)).contains { $0.contains("\u{1B}[36m") }, "NO_COLOR turns colour off")
        let terminal = try session(colour: true)
        let lines = try terminal.screen(escapes: true)
        #expect(lines.contains { $0.contains("\u{1B}[36mred\u{1B}[0m") }, "\(lines.map { $0.debugDescription })")
        #expect(try terminal.screen().last == "red>")
    }

    /// The banner counts the inputs a user sends: not the done events `done.state.NAME` of the
    /// compound and parallel states, which the machine raises itself.
    @Test func theBannerCountsTheUsersInputsOnly() throws {
        let terminal = try session("machines/media-player.yaml")
        let lines = try terminal.screen()
        #expect(lines.first == "media-player: 12 states, 8 inputs. :help lists the commands, Ctrl-D leaves.", "\(lines)")
    }

    @Test func tabCompletesAnInputName() throws {
        let terminal = try session()
        try terminal.type("gr")
        try terminal.press("Tab")
        try terminal.waitForLastLine("red> green")
        try terminal.press("Enter")
        try terminal.waitForLastLine("green>")
        #expect(try terminal.screen().contains("green: red -> green / go"))
    }

    @Test func tabListsInputsWithATransitionFromTheStateFirst() throws {
        let terminal = try session("machines/self-driving-car.yaml")
        try terminal.press("Tab")
        let lines = try terminal.waitFor("the list of inputs") { $0.contains { $0.hasPrefix("startEngine  ") } }
        let list = try #require(lines.first { $0.hasPrefix("startEngine  ") })
        #expect(list.contains("  driveAround  "))
        try terminal.type("startEngine")
        try terminal.press("Enter")
        try terminal.waitForLastLine("parked>")
        try terminal.press("Tab")
        // From parked, the inputs with a transition (driveAround, pickUpPassengers) come first.
        try terminal.waitFor("the inputs from parked first") { $0.contains { $0.hasPrefix("driveAround  pickUpPassengers  ") } }
    }

    @Test func tabCompletesCommands() throws {
        let terminal = try session()
        try terminal.type(":sa")
        try terminal.press("Tab")
        try terminal.waitForLastLine("red> :save")
        try terminal.press("C-u")
        try terminal.type(":gr")
        try terminal.press("Tab")
        try terminal.type("m")
        try terminal.press("Tab")
        try terminal.waitForLastLine("red> :graph mermaid")
    }

    @Test func tabCompletesTheFileOfLoad() throws {
        let terminal = try session()
        try terminal.type(":load machines/traffic-l")
        try terminal.press("Tab")
        try terminal.waitForLastLine("red> :load machines/traffic-light.")
        try terminal.press("Tab")
        try terminal.waitFor("the files") {
            $0.contains("machines/traffic-light.expected.txt  machines/traffic-light.script  machines/traffic-light.yaml")
        }
        try terminal.type("s")
        try terminal.press("Tab")
        try terminal.waitForLastLine("red> :load machines/traffic-light.script")
        try terminal.press("Enter")
        try terminal.waitFor("the script's results") { $0.suffix(2) == ["green: red -> green / go", "green>"] }
    }

    @Test func historyRecallsLinesAndOutlivesTheSession() throws {
        let first = try session()
        try first.type("green")
        try first.press("Enter")
        try first.waitForLastLine("green>")
        try first.type(":state")
        try first.press("Enter")
        try first.waitFor("the state") { $0.suffix(2) == ["green", "green>"] }
        try first.press("Up", "Up")
        try first.waitForLastLine("green> green")
        try first.press("C-u")  // Ctrl-D leaves on an empty line; on text it deletes a character
        try first.press("C-d")
        try first.waitFor("the end of the session") { $0.last == "EXITED=0" }

        let history = try String(contentsOfFile: home.path(".smrun_history"), encoding: .utf8)
        #expect(history.contains("green\n") && history.contains(":state\n"))
        let second = try session()
        try second.press("Up")
        try second.waitForLastLine("red> :state")
    }

    @Test func undoGoesBackInTheTerminal() throws {
        let terminal = try session()
        try terminal.type("green")
        try terminal.press("Enter")
        try terminal.waitForLastLine("green>")
        try terminal.type(":undo")
        try terminal.press("Enter")
        let lines = try terminal.waitForLastLine("red>")
        #expect(lines.suffix(2).first == "undid 'green': back in red")
    }

    @Test func aStatechartsPromptShowsItsConfigurationAndTabOffersItsInputsFirst() throws {
        let terminal = try session("machines/media-player.yaml")
        #expect(try terminal.screen().last == "stopped>")
        try terminal.type("play")
        try terminal.press("Enter")
        try terminal.waitForLastLine("sound, hd>")
        // From sound and hd: pause (from playing), mute (from sound), lowBandwidth (from hd), stop (from active).
        try terminal.press("Tab")
        try terminal.waitFor("the inputs of the active states first") { $0.contains { $0.hasPrefix("pause  mute  lowBandwidth  stop  ") } }
        try terminal.press("C-u")
        try terminal.type("mu")
        try terminal.press("Tab")
        try terminal.waitForLastLine("sound, hd> mute")
        try terminal.press("Enter")
        try terminal.waitForLastLine("muted, hd>")
        try terminal.type(":undo")
        try terminal.press("Enter")
        let lines = try terminal.waitForLastLine("sound, hd>")
        #expect(lines.suffix(2).first == "undid 'mute': back in sound, hd")
    }

    @Test func ctrlCCancelsTheLineAndTheSessionGoesOn() throws {
        let terminal = try session()
        try terminal.type("green")
        try terminal.press("C-c")
        try terminal.waitFor("a new prompt") { $0.suffix(2) == ["red> green^C", "red>"] || $0.last == "red>" && $0.count >= 3 }
        try terminal.type(":state")
        try terminal.press("Enter")
        let lines = try terminal.waitFor("the state") { $0.suffix(2) == ["red", "red>"] }
        #expect(!lines.contains("green: red -> green / go"), "Ctrl-C must not send the line")
    }

    @Test func ctrlZAndFgGoOnEditingTheLine() throws {
        let smrun = try Paths.smrun().path
        let shell = try TerminalSession(
            program: try ExternalTool.bash.executable(), ["--norc", "--noprofile", "-i"],
            environment: ["HOME": home.directory.path, "NO_COLOR": "1", "PS1": "$ "])
        try shell.waitFor("bash's prompt") { $0.last == "$" }
        try shell.type("'\(smrun)' repl machines/traffic-light.yaml")
        try shell.press("Enter")
        try shell.waitForLastLine("red>")
        try shell.type("gr")
        // Typed keys that smrun has not read yet when Ctrl-Z stops it are the terminal's, not
        // the line's: the line must hold them before the stop.
        try shell.waitForLastLine("red> gr")
        try shell.press("C-z")
        try shell.waitFor("the job stopped") { $0.last == "$" }
        try shell.type("fg")
        try shell.press("Enter")
        try shell.waitForLastLine("red> gr")
        try shell.type("e")
        try shell.press("Tab")
        try shell.waitForLastLine("red> green")
        try shell.press("Enter")
        try shell.waitFor("the result") { $0.suffix(2) == ["green: red -> green / go", "green>"] }
    }

    @Test func ctrlDLeaves() throws {
        let terminal = try session()
        try terminal.press("C-d")
        try terminal.waitFor("the end of the session") { $0.last == "EXITED=0" }
    }

    @Test func aSessionSavedAtTheTerminalReplaysWithRun() throws {
        let terminal = try session()
        let saved = home.path("session.script")
        // Each line is typed at its prompt: what is typed ahead is echoed by the terminal.
        for (line, answer) in [
            ("green", "green: red -> green / go"), ("yellow", "yellow: green -> yellow / slow"),
            ("blue", "line 3: blue: yellow: rejected: unknown-input: unknown input 'blue'"), (":save \(saved)", "saved 3 inputs to \(saved)"),
        ] {
            try terminal.type(line)
            try terminal.press("Enter")
            try terminal.waitFor("'\(answer)'") { $0.suffix(2) == [answer, "yellow>"] || $0.suffix(2) == [answer, "green>"] }
        }
        let screen = try terminal.screen()
        let replayed = try Smrun.run(["machines/traffic-light.yaml"], input: .file(URL(fileURLWithPath: saved)))
        for line in replayed.lines { #expect(screen.contains(line), "\(line) not on the screen: \(screen)") }
        #expect(replayed.lines.count == 4)
    }
}
