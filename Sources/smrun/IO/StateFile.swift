import ArgumentParser
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun --state FILE`: the snapshot a run resumes from and saves to (docs/snapshots.md).
///
/// - Locking: an exclusive `flock` on `FILE.lock` (created beside FILE and never removed, so
///   every run locks the same inode) is taken before FILE is read and held until the process
///   exits, after its last save: concurrent runs on one file take turns.
/// - Loading: a missing FILE means a new run from the initial state; anything else must decode
///   as a snapshot of this very machine (``SnapshotCodec``), or the run is refused (exit 2)
///   before anything is written.
/// - Saving is atomic: FILE.tmp is written and fsynced, renamed over FILE, and the directory is
///   fsynced; a reader or a crash sees the old snapshot or the new one, never a mix. A save is
///   skipped when the state and context are those last saved.
final class StateFile {
    let path: String
    private let codec: SnapshotCodec
    /// The snapshot FILE held, or `nil` when there was none.
    let snapshot: MachineSnapshot?
    private let lockDescriptor: Int32
    /// What FILE holds now; `nil` until it exists.
    private var saved: (state: Int, context: [Value])?
    /// For a statechart, the document FILE holds now; `nil` until it exists.
    private var savedDocument: [UInt8]?
    /// FILE's permissions, kept by every save; a new file gets 0666 less the umask.
    private var mode: mode_t?

    /// The largest snapshot read.
    static let maximumBytes = 256 << 20

    private struct Failure: Error {
        var message: String
    }

    /// Locks and loads `path` for `machine`, then installs the stop-signal handlers; a refusal
    /// is reported on standard error and throws exit status 2.
    static func open(_ path: String?, machine: CompiledMachine) throws -> StateFile? {
        guard let path else { return nil }
        let codec = SnapshotCodec(machine)
        let lockPath = path + ".lock"
        let lock = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard lock >= 0 else { throw refusal(path, "cannot open the lock file \(lockPath): \(reason())") }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let message = "cannot lock \(lockPath): \(reason())"
                close(lock)
                throw refusal(path, message)
            }
        }
        var snapshot: MachineSnapshot?
        var mode: mode_t?
        do throws(Failure) {
            if let (bytes, fileMode) = try read(path) {
                mode = fileMode
                do {
                    snapshot = try codec.decode(bytes)
                } catch {
                    throw Failure(message: error.message)
                }
            }
        } catch {
            close(lock)
            throw refusal(path, error.message)
        }
        StopSignals.install()
        return StateFile(path: path, codec: codec, snapshot: snapshot, lock: lock, mode: mode)
    }

    private init(path: String, codec: SnapshotCodec, snapshot: MachineSnapshot?, lock: Int32, mode: mode_t?) {
        self.path = path
        self.codec = codec
        self.snapshot = snapshot
        self.lockDescriptor = lock
        self.mode = mode
        saved = snapshot.map { ($0.state, $0.context) }
        savedDocument = snapshot.map { codec.encode($0) }
    }

    private static func refusal(_ path: String, _ message: String) -> ExitCode {
        FileHandleOutput.standardError("smrun: state file \(path): \(message); the file was not changed\n")
        return ExitCode(Smrun.Status.invalid)
    }

    deinit { close(lockDescriptor) }

    /// FILE's bytes and permissions, or `nil` when it does not exist.
    private static func read(_ path: String) throws(Failure) -> (bytes: [UInt8], mode: mode_t)? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Failure(message: "cannot open: \(reason())")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(message: "cannot read: \(reason())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(message: "not a regular file") }
        guard status.st_size <= maximumBytes else {
            throw Failure(message: "\(status.st_size) bytes, more than a snapshot may have (\(maximumBytes >> 20) MiB)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure(message: "cannot read: \(reason())") }
            if n == 0 { break }
            count += n
            guard count <= maximumBytes else { throw Failure(message: "more than a snapshot may have (\(maximumBytes >> 20) MiB)") }
        }
        return (Array(bytes[..<count]), status.st_mode & 0o7777)
    }

    /// Saves the runner's state and context unless FILE already holds them. A failure is
    /// reported and ends the run with status 2, before the results whose state it could not
    /// save are printed; FILE keeps the snapshot it had.
    func save(_ runner: borrowing Runner) {
        if let saved, saved.state == runner.state, saved.context == runner.context { return }
        do {
            try write(codec.encode(state: runner.state, context: runner.context))
            saved = (runner.state, runner.context)
        } catch {
            FileHandleOutput.standardError("smrun: state file \(path): cannot save: \(error.message)\n")
            exit(Smrun.Status.invalid)
        }
    }

    /// Saves a statechart runner's configuration, history records and context unless FILE
    /// already holds them; a failure ends the run as for ``save(_:)-(Runner)``.
    func save(_ runner: borrowing ChartRunner) {
        let (configuration, histories) = runner.savedState
        let document = codec.encode(configuration: configuration, histories: histories, context: runner.context)
        if document == savedDocument { return }
        do {
            try write(document)
            savedDocument = document
        } catch {
            FileHandleOutput.standardError("smrun: state file \(path): cannot save: \(error.message)\n")
            exit(Smrun.Status.invalid)
        }
    }

    /// Write FILE.tmp, fsync it, rename it over FILE, fsync the directory.
    private func write(_ bytes: [UInt8]) throws(Failure) {
        let temporary = path + ".tmp"
        unlink(temporary)  // a leftover of a run that was killed while saving
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode ?? 0o666)
        guard fd >= 0 else { throw Failure(message: "cannot create \(temporary): \(Self.reason())") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            if let mode, fchmod(fd, mode) != 0 { throw Failure(message: "cannot set the permissions of \(temporary): \(Self.reason())") }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw Failure(message: "cannot write \(temporary): \(Self.reason())") }
                offset += n
            }
            guard fsync(fd) == 0 else { throw Failure(message: "cannot sync \(temporary): \(Self.reason())") }
        }
        guard rename(temporary, path) == 0 else { throw Failure(message: "cannot rename \(temporary) to \(path): \(Self.reason())") }
        ok = true
        if mode == nil { mode = Self.currentMode(path) }
        let directory = Self.directory(of: path)
        let directoryDescriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw Failure(message: "cannot open directory \(directory): \(Self.reason())") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw Failure(message: "cannot sync directory \(directory): \(Self.reason())") }
    }

    private static func currentMode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    /// The directory that holds `path`: what comes before its last `/`, or `.`.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

extension StateFile {
    /// Everything processed is saved and printed and smrun is about to wait for input: from
    /// now until the next input, SIGINT or SIGTERM exits at once.
    func waitingForInput() { StopSignals.waitingForInput() }
}
