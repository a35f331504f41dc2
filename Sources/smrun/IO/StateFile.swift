import SmrunCore
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
///   before anything is written, unless a ``Recovery`` was asked for: `--reset` starts afresh
///   and `--migrate` keeps what still fits the edited machine, each after keeping the old file
///   as a backup beside it (``backupPath(for:)``), under the lock.
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
    private var saved: MachineSnapshot?
    /// FILE's permissions, kept by every save; a new file gets 0666 less the umask.
    private var mode: mode_t?

    /// The largest snapshot read.
    static let maximumBytes = 256 << 20

    private struct Failure: Error {
        var message: String
        /// What the user can do about it, shown after the message.
        var hint = ""
    }

    /// What to do with a FILE that does not resume this machine.
    enum Recovery {
        /// `--reset`: back FILE up and start from the initial state.
        case reset
        /// `--migrate`: back FILE up and keep its state and the context values that still fit.
        case migrate
    }

    /// Locks and loads `path` for `machine`, whose timers run on `clock` with at most
    /// `timerLimit` pending, then installs the stop-signal handlers; a refusal is reported on
    /// standard error and throws exit status 2.
    static func open(
        _ path: String?, machine: CompiledMachine, recovery: Recovery? = nil, clock: MachineSnapshot.Clock = .virtual,
        timerLimit: Int = RunLimits.defaultTimerLimit
    ) throws -> StateFile? {
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
        // Whether FILE holds the snapshot resumed from, so that a save may be skipped.
        var isSaved = true
        do throws(Failure) {
            if let (bytes, fileMode) = try read(path) {
                mode = fileMode
                switch recovery {
                case nil:
                    do {
                        snapshot = try codec.decode(bytes)
                    } catch {
                        throw Failure(message: error.message, hint: Self.recoveryHint(error.kind))
                    }
                    try checkTimers(snapshot!, clock: clock, timerLimit: timerLimit)
                case .reset:
                    let backup = try backUp(bytes, of: path, mode: fileMode)
                    FileHandleOutput.standardError("smrun: state file \(path): reset: starting from the initial state; the old file is \(backup)\n")
                case .migrate:
                    let migration: SnapshotMigration
                    do {
                        migration = try codec.migrate(bytes, now: clock == .real ? WallClock.now() : nil, clock: clock)
                    } catch {
                        throw Failure(message: error.message, hint: error.kind == .unknownState ? "; use --reset to start afresh, keeping a backup" : "")
                    }
                    snapshot = migration.snapshot
                    try checkTimers(migration.snapshot, clock: clock, timerLimit: timerLimit)
                    if !migration.wasCurrent {
                        let backup = try backUp(bytes, of: path, mode: fileMode)
                        isSaved = false
                        FileHandleOutput.standardError(
                            "smrun: state file \(path): migrated to this definition of machine '\(machine.name)': "
                                + "\(MigrationSummary.text(migration, machine: machine, done: true)); the old file is \(backup)\n")
                    }
                }
            }
        } catch {
            close(lock)
            throw refusal(path, error.message, hint: error.hint)
        }
        StopSignals.install()
        return StateFile(path: path, codec: codec, snapshot: snapshot, isSaved: isSaved, lock: lock, mode: mode)
    }

    private init(path: String, codec: SnapshotCodec, snapshot: MachineSnapshot?, isSaved: Bool, lock: Int32, mode: mode_t?) {
        self.path = path
        self.codec = codec
        self.snapshot = snapshot
        self.lockDescriptor = lock
        self.mode = mode
        saved = isSaved ? snapshot : nil
    }

    /// Refuses a snapshot whose pending timers are on another clock than the run's (their due
    /// times would mean nothing on it), or more than the run lets be pending.
    private static func checkTimers(_ snapshot: MachineSnapshot, clock: MachineSnapshot.Clock, timerLimit: Int) throws(Failure) {
        if !snapshot.timers.isEmpty && snapshot.clock != clock {
            let count = snapshot.timers.count == 1 ? "its pending timer is" : "its \(snapshot.timers.count) pending timers are"
            throw Failure(
                message: "\(count) on the \(snapshot.clock.rawValue) clock, and this run is on the \(clock.rawValue) clock",
                hint: "; run \(snapshot.clock == .real ? "with" : "without") --clock real, or with --reset to start afresh (keeping a backup)")
        }
        if snapshot.timers.count > timerLimit {
            throw Failure(
                message: "it has \(snapshot.timers.count) pending timers, more than --max-timers \(timerLimit)",
                hint: "; run with --max-timers \(snapshot.timers.count) or more")
        }
    }

    private static func refusal(_ path: String, _ message: String, hint: String = "") -> ExitCode {
        FileHandleOutput.standardError("smrun: state file \(path): \(message); the file was not changed\(hint)\n")
        return ExitCode(Smrun.Status.invalid)
    }

    /// How to get past a snapshot that does not resume the machine.
    static func recoveryHint(_ kind: SnapshotError.Kind) -> String {
        switch kind {
        case .differentMachine, .unknownState, .invalidContext, .invalidTimer:
            "; use --migrate to keep the state and the context values that still fit, or --reset to start afresh (either keeps a backup)"
        case .syntax, .notASnapshot, .unsupportedVersion, .invalidField:
            "; use --reset to start afresh, keeping a backup"
        }
    }

    /// Keeps FILE's old `bytes` beside it, written atomically under a name no file has
    /// (``backupPath(for:)``); returns that name.
    private static func backUp(_ bytes: [UInt8], of path: String, mode: mode_t) throws(Failure) -> String {
        var backup = backupPath(for: path)
        var attempt = 1
        while access(backup, F_OK) == 0 {
            attempt += 1
            backup = backupPath(for: path, attempt: attempt)
        }
        _ = try writeAtomically(bytes, to: backup, mode: mode)
        return backup
    }

    /// `FILE.20261124T203000Z.bak`: FILE's name, the UTC time, and `-2`, `-3`... for a second
    /// backup within a second.
    static func backupPath(for path: String, attempt: Int = 1, time: time_t = time(nil)) -> String {
        var seconds = time
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
        return "\(path).\(stamp)\(attempt > 1 ? "-\(attempt)" : "").bak"
    }

    deinit { close(lockDescriptor) }

    /// Reads FILE as a snapshot document, without locking it (saves replace it whole) or
    /// checking it against a machine: for `smrun status` and `smrun graph --state`. A missing,
    /// unreadable or damaged FILE is reported on standard error and throws exit status 2.
    static func readDocument(_ path: String) throws -> (bytes: [UInt8], saved: SavedSnapshot) {
        func refuse(_ message: String) -> ExitCode {
            FileHandleOutput.standardError("smrun: state file \(path): \(message)\n")
            return ExitCode(Smrun.Status.invalid)
        }
        let contents: (bytes: [UInt8], mode: mode_t)?
        do throws(Failure) {
            contents = try read(path)
        } catch {
            throw refuse(error.message)
        }
        guard let bytes = contents?.bytes else { throw refuse("no such file") }
        do throws(SnapshotError) {
            return (bytes, try SavedSnapshot.read(bytes))
        } catch {
            throw refuse(error.message)
        }
    }

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

    /// Saves the runner's state (a statechart's configuration and history records) and context
    /// (and, for a machine with timers, its clock and pending timers, on `clock`) unless FILE
    /// already holds them. A failure is reported and ends the run with status 2, before the
    /// results whose state it could not save are printed; FILE keeps the snapshot it had.
    func save(_ runner: some MachineRunner, clock: MachineSnapshot.Clock) {
        if !runner.machine.hasTimers, let saved {
            let now = runner.savedState
            if saved.state == now.state, saved.configuration == now.configuration, saved.histories == now.histories,
                saved.context == runner.context
            {
                return
            }
        }
        save(codec.snapshot(of: runner), clock: clock)
    }

    private func save(_ snapshot: MachineSnapshot, clock: MachineSnapshot.Clock) {
        var snapshot = snapshot
        // Only a machine with timers saves its clock, and only a virtual clock's time: the
        // wall clock's is now.
        snapshot.clock = codec.machine.hasTimers ? clock : .virtual
        if snapshot.clock == .real || !codec.machine.hasTimers { snapshot.time = 0 }
        if let saved, saved == snapshot { return }
        do {
            let written = try Self.writeAtomically(codec.encode(snapshot), to: path, mode: mode)
            if mode == nil { mode = written }
            saved = snapshot
        } catch {
            FileHandleOutput.standardError("smrun: state file \(path): cannot save: \(error.message)\n")
            exit(Smrun.Status.invalid)
        }
    }

    /// Write PATH.tmp, fsync it, rename it over PATH, fsync the directory. `mode` is the
    /// permissions to keep, or `nil` for a new file's (0666 less the umask), which are returned.
    private static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t?) throws(Failure) -> mode_t? {
        let temporary = path + ".tmp"
        unlink(temporary)  // a leftover of a run that was killed while saving
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode ?? 0o666)
        guard fd >= 0 else { throw Failure(message: "cannot create \(temporary): \(reason())") }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        do {
            defer { close(fd) }
            if let mode, fchmod(fd, mode) != 0 { throw Failure(message: "cannot set the permissions of \(temporary): \(reason())") }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw Failure(message: "cannot write \(temporary): \(reason())") }
                offset += n
            }
            guard fsync(fd) == 0 else { throw Failure(message: "cannot sync \(temporary): \(reason())") }
        }
        guard rename(temporary, path) == 0 else { throw Failure(message: "cannot rename \(temporary) to \(path): \(reason())") }
        ok = true
        let written = mode ?? currentMode(path)
        let directory = directory(of: path)
        let directoryDescriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw Failure(message: "cannot open directory \(directory): \(reason())") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw Failure(message: "cannot sync directory \(directory): \(reason())") }
        return written
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
