#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Statecraft

/// Draws diagrams with Graphviz's `dot` (found on `PATH`), for `smrun graph --format svg` and
/// the server's `diagram.svg`: one code path for both. `dot` runs as a child process on a
/// temporary file holding the DOT, and is killed when it takes longer than the time limit.
package enum Graphviz {
    /// How long `dot` may take.
    package static let timeLimitSeconds = 10
    /// The most SVG bytes `dot` may write; a larger drawing is an error.
    package static let maximumOutputBytes = 64 << 20

    /// Why no SVG came out.
    package enum Failure: Error, Sendable, Equatable {
        /// No `dot` on `PATH`.
        case notInstalled
        /// `dot` ran out of time and was killed.
        case timedOut
        /// `dot` failed (its exit status and what it wrote to standard error), or could not be run.
        case failed(String)

        /// A sentence for a person.
        package var message: String {
            switch self {
            case .notInstalled:
                "Graphviz's 'dot' is not installed (or not on PATH): install Graphviz to draw SVG (Debian: apt-get install graphviz)"
            case .timedOut:
                "Graphviz's 'dot' took longer than \(Graphviz.timeLimitSeconds) s to draw the machine and was stopped"
            case .failed(let reason):
                "Graphviz's 'dot' failed: \(reason)"
            }
        }
    }

    /// `machine` as an SVG drawing with hooks for a page (``IdentifiedDiagram``).
    package static func svg(
        _ machine: CompiledMachine, definition: MachineDefinition?, options: Diagram.Options = Diagram.Options()
    ) throws(Failure) -> [UInt8] {
        let diagram = IdentifiedDiagram(machine, definition: definition, options: options)
        return diagram.addingHooks(toSVG: try run(dot: diagram.dot))
    }

    /// What `dot -Tsvg` makes of `dot`.
    package static func run(dot: String) throws(Failure) -> [UInt8] {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/statecraft-XXXXXX.dot".utf8CString)
        let file = mkstemps(&template, 4)
        guard file >= 0 else { throw .failed("cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        var bytes = Array(dot.utf8)
        let written = bytes.withUnsafeMutableBytes { buffer in writeAll(file, buffer) }
        close(file)
        guard written else { throw .failed("cannot write the temporary file \(path)") }
        return try spawn(["dot", "-Tsvg", path])
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Runs `arguments` (the program found on `PATH`) with standard input from `/dev/null`;
    /// its standard output, or why there is none.
    private static func spawn(_ arguments: [String]) throws(Failure) -> [UInt8] {
        let output = try makePipe()
        let errors: [Int32]
        do throws(Failure) {
            errors = try makePipe()
        } catch {
            close(output[0])
            close(output[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // The child starts with no signal blocked, whatever the calling thread blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard spawned == 0 else {
            if spawned == ENOENT { throw .notInstalled }
            throw .failed("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var svg: [UInt8] = []
        var message: [UInt8] = []
        let deadline = monotonicMilliseconds() + timeLimitSeconds * 1_000
        var open = [true, true]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while open[0] || open[1] {
            let remaining = deadline - monotonicMilliseconds()
            guard remaining > 0, svg.count <= maximumOutputBytes else {
                kill(pid, SIGKILL)
                _ = waitForExit(pid)
                if remaining <= 0 { throw .timedOut }
                throw .failed("the drawing is larger than \(maximumOutputBytes >> 20) MiB")
            }
            var fds = [
                pollfd(fd: open[0] ? output[0] : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: open[1] ? errors[0] : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(min(remaining, 1_000)))
            if ready < 0 && errno != EINTR { break }
            for stream in 0..<2 where open[stream] && fds[stream].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fds[stream].fd, $0.baseAddress!, $0.count) }
                if count > 0 {
                    if stream == 0 { svg += buffer[..<count] } else if message.count < 4_096 { message += buffer[..<count] }
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    open[stream] = false
                }
            }
        }
        let status = waitForExit(pid)
        guard status == 0 else {
            let text = String(decoding: message, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: "; ")
            throw .failed("exit status \(status)" + (text.isEmpty ? "" : ": \(text)"))
        }
        return svg
    }

    /// A pipe, both ends close-on-exec (the child gets its ends through `dup2`).
    private static func makePipe() throws(Failure) -> [Int32] {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .failed("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    private static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000 + now.tv_nsec / 1_000_000
    }
}
