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
        let stdout = process.collect(process.stdout)
        if case .bytes(let data) = input { process.feed(data) }
        return try process.finish(stdout: stdout, timeout: timeout)
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
    var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Standard error's lines, without their `\n`.
    var errorLines: [String] { errorText.split(separator: "\n").map(String.init) }

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
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let started = ContinuousClock.now
    private let stdin = Pipe()
    let stdout = Pipe()
    private let stderr = Pipe()
    private var stderrData: Collected!

    init(_ arguments: [String], input: StandardInput?) throws {
        Self.ignoreBrokenPipes
        self.arguments = arguments
        process.executableURL = try Paths.smrun()
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        if case .file(let url) = input {
            process.standardInput = try FileHandle(forReadingFrom: url)
        } else {
            process.standardInput = stdin
        }
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        stderrData = collect(stderr)
    }

    /// Writing to a pipe whose reader has exited must be an error, not a signal that kills the tests.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes `data` to standard input on a thread of its own, then closes it.
    func feed(_ data: Data) {
        let writer = stdin.fileHandleForWriting
        Thread {
            // smrun may exit before reading everything (an invalid machine): EPIPE is expected.
            try? writer.write(contentsOf: data)
            try? writer.close()
        }.start()
    }

    /// Writes `text` to standard input now, without closing it.
    func write(_ text: String) throws {
        try stdin.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func closeInput() throws { try stdin.fileHandleForWriting.close() }

    /// Closes the reading end of standard output, as `smrun | head -1` does after one line.
    func closeOutput() throws { try stdout.fileHandleForReading.close() }

    /// Standard output read by ``readLine(timeout:)`` but not yet returned.
    private var pending: [UInt8] = []

    /// The next line of standard output (without `\n`), waiting at most `timeout` for it;
    /// `nil` at the end of output.
    func readLine(timeout: Duration) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        let fd = stdout.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw NoOutputLine(timeout: timeout) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&ready, 1, milliseconds) > 0 else { continue }
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return nil }
            pending += chunk[..<count]
        }
    }

    /// Reads `pipe` to its end on a thread of its own.
    func collect(_ pipe: Pipe) -> Collected {
        let collected = Collected()
        let reader = pipe.fileHandleForReading
        Thread {
            collected.finish(reader.readDataToEndOfFile())
        }.start()
        return collected
    }

    /// Waits for smrun to exit (killing it after `timeout`) and for its output to be read.
    func finish(stdout: Collected?, timeout: Duration) throws -> SmrunOutput {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            throw SmrunTimedOut(arguments: arguments, timeout: timeout)
        }
        let elapsed = ContinuousClock.now - started
        return SmrunOutput(
            stdout: stdout?.wait() ?? Data(), stderr: stderrData.wait(),
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            elapsed: elapsed)
    }
}

/// Bytes read by a background thread, available once it reached the end of its pipe.
final class Collected: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    fileprivate func finish(_ data: Data) {
        self.data = data
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        done.signal()
        return data
    }
}
