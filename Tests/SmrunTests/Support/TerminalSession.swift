import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// smrun running in a real pseudo-terminal: a tmux server of its own, driven with `send-keys`
/// and read with `capture-pane`, as a person at a terminal would use it.
final class TerminalSession {
    private let socket = "smrun-test-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// Starts `smrun ARGUMENTS` in a 100x40 terminal, with `environment` set (HOME, to keep
    /// history away from the user's); when smrun exits the pane shows `EXITED=STATUS`.
    convenience init(_ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(program: try Paths.smrun().path, arguments, environment: environment)
    }

    /// Starts `program ARGUMENTS` (a shell, say) the same way.
    init(program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        let command = "env \(assignments) \(Self.quoted(program)) \(arguments.map(Self.quoted).joined(separator: " ")); echo EXITED=$?; sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", "-c", Paths.packageRoot.path, command])
    }

    deinit { _ = try? ExternalTool.tmux.run(["-L", socket, "kill-server"]) }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = try ExternalTool.tmux.run(["-L", socket] + arguments)
        guard output.status == 0 else { throw TmuxFailed(arguments: arguments, message: output.errorText) }
        return output.text
    }

    /// Types `text` as it is.
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Presses keys by tmux's names: `Enter`, `Tab`, `Up`, `C-c`, `C-d`.
    func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// The screen's text, lines without trailing blanks, empty lines at the end dropped.
    func screen(escapes: Bool = false) throws -> [String] {
        var lines = try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : [])).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits until the screen satisfies `condition`; fails with the screen after `timeout`.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Duration = .seconds(20), escapes: Bool = false, _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = try screen(escapes: escapes)
            if condition(lines) { return lines }
            guard ContinuousClock.now < deadline else { throw ScreenTimedOut(waitingFor: what, screen: lines) }
            usleep(50_000)
        }
    }

    /// Waits until the last line of the screen is `line`.
    @discardableResult
    func waitForLastLine(_ line: String) throws -> [String] {
        try waitFor("last line '\(line)'") { $0.last == line }
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

struct TmuxFailed: Error, CustomStringConvertible {
    var arguments: [String]
    var message: String
    var description: String { "tmux \(arguments.joined(separator: " ")) failed: \(message)" }
}

struct ScreenTimedOut: Error, CustomStringConvertible {
    var waitingFor: String
    var screen: [String]
    var description: String { "timed out waiting for \(waitingFor); the screen:\n" + screen.joined(separator: "\n") }
}
