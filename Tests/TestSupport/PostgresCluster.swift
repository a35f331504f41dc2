import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server for the tests: Debian's `initdb` into a temporary folder, then
/// `pg_ctl start` on a loopback port (its socket in that folder too), as the `postgres` user
/// when the tests run as root. The ``shared()`` one is started once per test process, on first
/// use, and each test takes a database of its own on it (``createDatabase()``); a test that
/// stops its server makes a cluster of its own (``init()``). Each is stopped when the process
/// ends, however it ends (a watchdog). Without PostgreSQL it throws, naming `make test-deps`:
/// these tests never skip.
public final class PostgresCluster: Sendable {
    /// The cluster of this test process.
    public static func shared() throws -> PostgresCluster {
        try started.get()
    }

    private static let started = Result(catching: { try PostgresCluster() })

    public let port: Int
    /// The folder of the cluster's files, its socket and its log.
    public let directory: String
    private let binaries: String
    private let asPostgres: Bool
    /// Variables set for the server (as `NAME=VALUE`), such as libfaketime's.
    private let environment: [String]

    /// Starts a cluster of its own, with `environment`'s variables set for its server (a
    /// clock of its own, with libfaketime).
    public init(environment: [String: String] = [:]) throws {
        guard let binaries = Self.binaries() else { throw Missing() }
        self.binaries = binaries
        asPostgres = geteuid() == 0
        self.environment = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asPostgres {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory)
        }
        try Self.run(asPostgres, "\(binaries)/initdb", ["-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        var lastError: Error = Missing()
        for _ in 0..<5 {
            let port = Int.random(in: Self.ports)
            do {
                try Self.start(asPostgres, binaries, directory, port, environment: self.environment)
                self.port = port
                Self.watch(directory: directory, binaries: binaries, asPostgres: asPostgres)
                return
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// A new, empty database; its name.
    public func createDatabase() throws -> String {
        let name = "t" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql(database: "postgres", "CREATE DATABASE \(name)")
        return name
    }

    /// The URL `smrun --store` takes for `database`.
    public func url(_ database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Runs `sql` on `database` with psql; what it printed, unaligned and without headers.
    @discardableResult
    public func psql(database: String, _ sql: String) throws -> String {
        try Self.run(
            false, "\(binaries)/psql",
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-c", sql])
    }

    /// Stops the server (`pg_ctl stop -m fast`: open connections are ended).
    public func stop() throws {
        try Self.run(asPostgres, "\(binaries)/pg_ctl", ["-D", "\(directory)/data", "-w", "-m", "fast", "stop"])
    }

    /// Starts the server again, on the same port and files.
    public func start() throws {
        try Self.start(asPostgres, binaries, directory, port, environment: environment)
    }

    /// The ports a cluster listens on: below the kernel's range of ephemeral ports, which the
    /// tests' many client connections take their local ports from. A cluster that stops and
    /// starts again must find its port free; in that range, a client connection of another
    /// test may hold it meanwhile (`could not bind ... Address already in use`).
    private static let ports: ClosedRange<Int> = {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let first = range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        return 10_000...max(10_001, min(first, 32_768) - 1)
    }()

    /// Starts the server; when it does not start, the error ends with its log's last lines.
    private static func start(_ asPostgres: Bool, _ binaries: String, _ directory: String, _ port: Int, environment: [String]) throws {
        do {
            try run(
                asPostgres, "\(binaries)/pg_ctl", environment: environment,
                [
                    "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "60", "-o",
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400", "start",
                ])
        } catch var failed as Failed {
            let log = (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? ""
            failed.message += log.split(separator: "\n").suffix(5).joined(separator: "\n")
            throw failed
        }
    }

    /// The newest installed PostgreSQL's programs (Debian's layout).
    private static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    /// A shell that waits for this process to end, then stops the server and removes its files.
    private static func watch(directory: String, binaries: String, asPostgres: Bool) {
        let stop = (asPostgres ? "runuser -u postgres -- " : "") + "\(binaries)/pg_ctl -D \(directory)/data -m immediate stop"
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done; \(stop); rm -rf \(directory)"
        _ = try? spawn(["/bin/sh", "-c", script], output: "/dev/null", errors: "/dev/null")
    }

    /// Runs a program to its end (as `postgres` when asked, in the temporary folder); its
    /// standard output. Its standard streams are files, so that a server it starts holds no
    /// pipe of ours open.
    @discardableResult
    private static func run(_ asPostgres: Bool, _ program: String, environment: [String] = [], _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-output-\(UUID().uuidString)").path
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("pg-errors-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: errors)
        }
        let command = (asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + (environment.isEmpty ? [] : ["/usr/bin/env"] + environment) + [program] + arguments
        let pid = try spawn(["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", FileManager.default.temporaryDirectory.path] + command, output: output, errors: errors)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw Failed(command: command.joined(separator: " "), message: message)
        }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Starts `argv` with standard input from /dev/null and its output and errors in files
    /// (posix_spawn: Foundation's Process did not always notice its children end).
    private static func spawn(_ argv: [String], output: String, errors: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, nil, arguments, environ)
        guard status == 0 else { throw Failed(command: argv.joined(separator: " "), message: String(cString: strerror(status))) }
        return pid
    }

    /// No PostgreSQL on this machine.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "PostgreSQL is needed for these tests and was not found under /usr/lib/postgresql: run `make test-deps` (Debian: postgresql)"
        }
    }

    /// A PostgreSQL program failed.
    public struct Failed: Error, CustomStringConvertible {
        var command: String
        var message: String
        public var description: String { "\(command) failed: \(message)" }
    }
}
