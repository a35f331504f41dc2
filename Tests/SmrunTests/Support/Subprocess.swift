import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard streams on pipes.
///
/// Foundation's `Process` crashed the test runner now and then when many tests ran it at once,
/// so the end-to-end tests spawn and wait for their children themselves. Every pipe is
/// close-on-exec, so one test's child never holds another test's pipe open.
final class Subprocess: @unchecked Sendable {
    let pid: pid_t
    /// The write end of the child's standard input, or -1 when it reads a file.
    private(set) var input: Int32
    /// The read ends of the child's standard output and error.
    private(set) var output: Int32
    let errorOutput: Int32

    /// Starts `executable` with `arguments` in `directory`, in the test runner's environment
    /// with `environment`'s variables set over it; standard input is `inputFile`, or a pipe
    /// when it is `nil`.
    init(_ executable: String, _ arguments: [String], directory: String, inputFile: String? = nil, environment: [String: String] = [:]) throws {
        Self.ignoreBrokenPipes
        // Pipes and spawns one at a time: between pipe() and its close-on-exec flag, another
        // test's spawn must not inherit the new descriptors.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        let stdin = inputFile == nil ? try Self.pipe() : (read: -1, write: -1)
        let stdout = try Self.pipe()
        let stderr = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inputFile {
            posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        Self.addChangeDirectory(&actions, directory)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child starts as from a shell, so that the tests can signal it: no signal blocked
        // (the test runner's threads block most), and SIGINT and SIGTERM at their default
        // action even when the test runner was started with them ignored (a background job).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, set in set }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for fd in [stdin.read, stdout.write, stderr.write] where fd >= 0 { close(fd) }
        guard status == 0 else {
            for fd in [stdin.write, stdout.read, stderr.read] where fd >= 0 { close(fd) }
            throw SpawnFailed(executable: executable, errno: status)
        }
        self.pid = pid
        input = stdin.write
        output = stdout.read
        errorOutput = stderr.read
    }

    deinit {
        for fd in [input, output, errorOutput] where fd >= 0 { close(fd) }
    }

    /// Writing to a pipe whose reader has exited must be an error, not a signal that kills the tests.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static let spawnLock = NSLock()

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw SpawnFailed(executable: "pipe", errno: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which Swift's Glibc
    /// module does not import: the child starts in `directory`.
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) {
        typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            fatalError("this C library has no posix_spawn_file_actions_addchdir_np")
        }
        _ = unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, directory)
    }

    /// Writes `bytes` to standard input (blocking until the child has read them); false if it went away.
    @discardableResult
    func write(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(input, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// Closes standard input: the child reads end of file.
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Stops reading standard output, as `| head -1` does: the child's next write fails.
    func closeOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    /// Writes `bytes` on a thread of its own, then closes standard input.
    func feed(_ bytes: Data) {
        Thread { [self] in
            write(bytes)
            closeInput()
        }.start()
    }

    /// Reads `fd` to its end on a thread of its own, through a duplicate that the thread
    /// closes: the child's descriptor may be closed (its ``Subprocess`` released) before the
    /// thread reads the end, and its number then taken by another test's file.
    static func drain(_ fd: Int32) -> Drained {
        let drained = Drained()
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        Thread {
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while own >= 0 {
                let n = read(own, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                data.append(contentsOf: chunk[..<n])
            }
            if own >= 0 { close(own) }
            drained.finish(data)
        }.start()
        return drained
    }

    /// How the child ended.
    struct Termination {
        /// The exit status, or the signal number when `signalled`.
        var status: Int32
        var signalled: Bool
    }

    /// Waits for the child to end; after `timeout` it is killed and `nil` returned.
    func wait(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return Termination(status: -1, signalled: false) }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return nil
            }
            usleep(2_000)
        }
        let signal = status & 0x7F
        return signal == 0 ? Termination(status: (status >> 8) & 0xFF, signalled: false) : Termination(status: signal, signalled: true)
    }
}

/// Bytes read by a background thread, available once it reached the end of its pipe.
final class Drained: @unchecked Sendable {
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

/// `posix_spawn` or `pipe` failed.
struct SpawnFailed: Error, CustomStringConvertible {
    var executable: String
    var errno: Int32
    var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
}
