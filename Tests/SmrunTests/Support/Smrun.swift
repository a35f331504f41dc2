import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `smrun` as a subprocess in the package root, the way a user runs it.
enum Smrun {
    /// Long enough for a slow debug build on a busy machine; a hang still fails instead of blocking.
    static let defaultTimeout: Duration = .seconds(60)

    /// Runs `smrun ARGUMENTS < input` to completion and collects what it printed.
    static func run(_ arguments: [String], input: StandardInput = .bytes(Data()), timeout: Duration = defaultTimeout)
        throws -> SmrunOutput
    {
        let process = try SmrunProcess(arguments, input: input)
        let stdout = process.collectOutput()
        if case .bytes(let data) = input { process.feed(data) }
        return try process.finish(output: stdout, timeout: timeout)
    }

    /// Runs smrun on a fixture machine with the given script on standard input.
    static func run(fixture: String, script: String, _ options: [String] = []) throws -> SmrunOutput {
        try run([Paths.fixture(fixture)] + options, input: .bytes(Data(script.utf8)))
    }
}

/// What smrun reads on standard input.
enum StandardInput: Sendable {
    /// Bytes written through a pipe, then the pipe is closed.
    case bytes(Data)
    /// A file opened for reading, as `smrun < FILE` does.
    case file(URL)
}

/// How one run of smrun ended and what it printed.
struct SmrunOutput: Sendable {
    var stdout: Data
    var stderr: Data
    /// The exit status, or the signal number when ``signalled``.
    var status: Int32
    var signalled: Bool
    var elapsed: Duration

    var text: String { String(decoding: stdout, as: UTF8.self) }
    var errorText: String { String(decoding: stderr, as: UTF8.self) }

    /// Standard output's lines, without their `\n`.
    var lines: [String] { Self.lines(stdout) }

    /// Standard error's lines, without their `\n`.
    var errorLines: [String] { Self.lines(stderr) }

    /// Split on `\n` bytes: a `String` would keep `\r\n` together as one character.
    private static func lines(_ data: Data) -> [String] {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Standard output parsed as JSON Lines, one object per line.
    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotAJSONObject(line: line)
            }
            return object
        }
    }

    /// Whether smrun exited normally with `code`.
    func exited(_ code: Int32) -> Bool { !signalled && status == code }
}

/// A JSON Lines line that is not a JSON object.
struct NotAJSONObject: Error, CustomStringConvertible {
    var line: String
    var description: String { "not a JSON object: \(line.prefix(200))" }
}

/// smrun printed no complete line within the timeout.
struct NoOutputLine: Error, CustomStringConvertible {
    var timeout: Duration
    var description: String { "smrun printed no line within \(timeout)" }
}

/// smrun did not exit within the timeout and was killed.
struct SmrunTimedOut: Error, CustomStringConvertible {
    var arguments: [String]
    var timeout: Duration
    var description: String { "smrun \(arguments.joined(separator: " ")) did not exit within \(timeout); killed" }
}

/// A launched smrun with pipes on its standard streams; standard error is drained in the
/// background so that smrun never blocks on it.
final class SmrunProcess: @unchecked Sendable {
    let arguments: [String]
    private let child: Subprocess
    private let started = ContinuousClock.now
    private let errorOutput: Drained

    /// Launches smrun; with no `input`, standard input is a pipe for ``write(_:)`` and ``closeInput()``.
    init(_ arguments: [String], input: StandardInput?) throws {
        self.arguments = arguments
        var inputFile: String?
        if case .file(let url) = input { inputFile = url.path }
        child = try Subprocess(try Paths.smrun().path, arguments, directory: Paths.packageRoot.path, inputFile: inputFile)
        errorOutput = Subprocess.drain(child.errorOutput)
    }

    /// Writes `data` to standard input on a thread of its own, then closes it.
    func feed(_ data: Data) { child.feed(data) }

    /// Writes `text` to standard input now, without closing it.
    func write(_ text: String) throws {
        if !child.write(Data(text.utf8)) { throw SpawnFailed(executable: "smrun's standard input", errno: EPIPE) }
    }

    func closeInput() throws { child.closeInput() }

    /// The process id, to send it a signal.
    var pid: pid_t { child.pid }

    /// Closes the reading end of standard output, as `smrun | head -1` does after one line.
    func closeOutput() throws { child.closeOutput() }

    /// Standard output read by ``readLine(timeout:)`` but not yet returned.
    private var pending: [UInt8] = []

    /// The next line of standard output (without `\n`), waiting at most `timeout` for it;
    /// `nil` at the end of output.
    func readLine(timeout: Duration) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw NoOutputLine(timeout: timeout) }
            var ready = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&ready, 1, milliseconds) > 0 else { continue }
            let count = read(child.output, &chunk, chunk.count)
            if count <= 0 { return nil }
            pending += chunk[..<count]
        }
    }

    /// Reads all of standard output on a thread of its own (so smrun never blocks writing it).
    func collectOutput() -> Drained { Subprocess.drain(child.output) }

    /// Waits for smrun to exit (killing it after `timeout`) and for its output to be read.
    /// `output` is standard output from ``collectOutput()``, or `nil` when it was read line by line.
    func finish(output: Drained?, timeout: Duration) throws -> SmrunOutput {
        guard let termination = child.wait(timeout: timeout) else {
            throw SmrunTimedOut(arguments: arguments, timeout: timeout)
        }
        let elapsed = ContinuousClock.now - started
        return SmrunOutput(
            stdout: output?.wait() ?? Data(), stderr: errorOutput.wait(), status: termination.status,
            signalled: termination.signalled, elapsed: elapsed)
    }
}
