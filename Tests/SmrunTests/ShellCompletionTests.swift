import Foundation
import Testing

/// `smrun --generate-completion-script bash|zsh|fish` (from swift-argument-parser): real shells
/// load the scripts and complete subcommands, `--format` values and machine files.
@Suite struct ShellCompletionTests {
    /// Bash completing `line` (the cursor at its end) with smrun's script, as bash-completion
    /// calls it: the candidates, one per line.
    static func bashCompletions(_ line: String) throws -> [String] {
        let script = """
            source <("$SMRUN" --generate-completion-script bash) || exit 3
            COMP_LINE=\(quoted(line)); COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            _smrun smrun "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ExternalTool.bash.run(["-c", "SMRUN=\(quoted(try Paths.smrun().path)); " + script])
        try #require(output.status == 0, "bash failed: \(output.errorText)")
        return output.lines
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test func bashCompletesASubcommand() throws {
        #expect(try Self.bashCompletions("smrun va") == ["validate"])
        #expect(try Self.bashCompletions("smrun re") == ["repl"])
        #expect(Set(try Self.bashCompletions("smrun ")).isSuperset(of: ["run", "validate", "graph", "repl", "schema"]))
    }

    @Test func bashCompletesFormatValues() throws {
        #expect(try Self.bashCompletions("smrun validate --format ") == ["text", "json", "github"])
        #expect(try Self.bashCompletions("smrun graph --format m") == ["mermaid"])
        #expect(try Self.bashCompletions("smrun run --format ") == ["text", "json"])
        #expect(try Self.bashCompletions("smrun run --input-format ") == ["script", "jsonl"])
        #expect(try Self.bashCompletions("smrun validate --machine-format ") == ["yaml", "scxml"])
    }

    @Test func bashCompletesFlags() throws {
        let flags = try Self.bashCompletions("smrun run --ma")
        #expect(Set(flags) == ["--machine-format", "--max-steps", "--max-timers", "--max-line-bytes", "--max-file-size", "--max-depth", "--max-nodes", "--max-table-cells"])
    }

    @Test func bashCompletesMachineFiles() throws {
        #expect(try Self.bashCompletions("smrun graph machines/tr") == ["machines/traffic-light.yaml"])
        // Scripts and expected transcripts beside the machines are not machine files.
        let files = try Self.bashCompletions("smrun repl machines/traffic")
        #expect(files == ["machines/traffic-light.yaml"])
    }

    @Test func fishCompletesASubcommandAndFormats() throws {
        let smrun = try Paths.smrun()
        let path = smrun.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let output = try ExternalTool.fish.run([
            "-c",
            "set -x PATH \(Self.quoted(path)); smrun --generate-completion-script fish | source; complete -C 'smrun va'; complete -C 'smrun graph --format '",
        ])
        #expect(output.status == 0, "\(output.errorText)")
        let words = output.lines.map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        #expect(words == ["validate", "dot", "mermaid", "svg"], "\(output.lines)")
    }

    /// An interactive zsh at a terminal, with smrun's completion loaded, completing `smrun va`
    /// and `smrun graph --format m` as a user pressing TAB.
    @Test func zshCompletesASubcommandAtTheTerminal() throws {
        let home = try TemporaryFiles()
        let smrunDirectory = try Paths.smrun().deletingLastPathComponent().path
        let shell = try TerminalSession(
            program: try ExternalTool.zsh.executable(), ["-f", "-i"],
            environment: ["HOME": home.directory.path, "PATH": smrunDirectory + ":/usr/bin:/bin", "PS1": "zsh$ "])
        try shell.waitFor("zsh's prompt") { $0.last == "zsh$" }
        try shell.type("autoload -U compinit && compinit -u -D && source <(smrun --generate-completion-script zsh) && clear")
        try shell.press("Enter")
        try shell.waitFor("the completion loaded") { $0 == ["zsh$"] }
        try shell.type("smrun va")
        try shell.press("Tab")
        try shell.waitFor("'validate' completed") { $0.first == "zsh$ smrun validate" }
        try shell.press("C-u")
        try shell.type("smrun graph --format m")
        try shell.press("Tab")
        try shell.waitFor("'mermaid' completed") { $0.first == "zsh$ smrun graph --format mermaid" }
    }

    /// The same with an interactive bash.
    @Test func bashCompletesASubcommandAtTheTerminal() throws {
        let home = try TemporaryFiles()
        let smrunDirectory = try Paths.smrun().deletingLastPathComponent().path
        let shell = try TerminalSession(
            program: try ExternalTool.bash.executable(), ["--norc", "--noprofile", "-i"],
            environment: ["HOME": home.directory.path, "PATH": smrunDirectory + ":/usr/bin:/bin", "PS1": "bash$ "])
        try shell.waitFor("bash's prompt") { $0.last == "bash$" }
        try shell.type("source <(smrun --generate-completion-script bash) && clear")
        try shell.press("Enter")
        try shell.waitFor("the completion loaded") { $0 == ["bash$"] }
        try shell.type("smrun va")
        try shell.press("Tab")
        try shell.waitFor("'validate' completed") { $0.first == "bash$ smrun validate" }
        try shell.press("C-u")
        try shell.type("smrun repl machines/traffic-l")
        try shell.press("Tab")
        try shell.waitFor("the machine file completed") { $0.first == "bash$ smrun repl machines/traffic-light.yaml" }
    }

    @Test func zshLoadsTheScript() throws {
        let output = try ExternalTool.zsh.run([
            "-f", "-c",
            "autoload -U compinit && compinit -u -D && source <(\(Self.quoted(try Paths.smrun().path)) --generate-completion-script zsh) && whence -w _smrun",
        ])
        #expect(output.status == 0, "\(output.errorText)")
        #expect(output.text == "_smrun: function\n")
    }

    @Test func versionIsPrinted() throws {
        let output = try Smrun.run(["--version"])
        #expect(output.exited(0))
        #expect(output.text.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil, "\(output.text)")
    }
}
