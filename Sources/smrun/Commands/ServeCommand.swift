import ArgumentParser
import Foundation
import Statecraft
import StatecraftPostgres
import StatecraftServer
import StatecraftStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun serve MACHINE...`: runs durable, keyed instances of the machines over HTTP
/// (docs/serving.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        _superCommandName: Smrun.name,
        abstract: "Serve durable, keyed instances of machines over HTTP, on an embedded SQLite store or a shared PostgreSQL database.",
        discussion: """
            Each machine is served under its name: POST /machines/NAME/instances creates an instance, \
            POST /machines/NAME/instances/KEY/inputs sends it an input, and its timers fire on the real \
            clock, or with --clock virtual on each instance's own clock, which POST \
            /machines/NAME/instances/KEY/clock moves (docs/serving.md; the API is at /openapi.json). Every answer that changed an instance \
            goes out after the change is on disk. SIGTERM or SIGINT stops the server, finishing the \
            requests in flight. Several servers may share one PostgreSQL database (--store \
            postgres://USER@HOST:PORT/DATABASE): an instance's inputs still apply one at a time, and each \
            timer fires once. Exit status: 0 after a stop, 2 for an invalid machine or a usage error.

            Examples:
              smrun serve machines/checkout.yaml
              smrun serve machines/*.yaml --store orders.sqlite --listen 127.0.0.1:9000
              smrun serve order.yaml --listen 0.0.0.0:8080 --token-file /etc/smrun/token
              smrun serve order.yaml --store postgres://smrun@db.internal:5432/orders?sslmode=require
              smrun serve order.yaml --clock virtual --store simulation.sqlite
            """
    )

    @Argument(help: "The machine files (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machines: [String]

    @Option(help: ArgumentHelp("The SQLite file, or the postgres://USER@HOST:PORT/DATABASE URL, that keeps the instances.", valueName: "store"))
    var store = "statecraft.sqlite"

    @Option(help: ArgumentHelp("The address and port to listen on (port 0 picks a free one).", valueName: "address:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("A file holding the bearer token that requests must carry; needed to listen beyond loopback.", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("The largest request body, in bytes.", valueName: "bytes"))
    var maxBodyBytes = 1 << 20

    @Option(help: ArgumentHelp("How long an Idempotency-Key's answer is kept (a duration: 24h, 90m).", valueName: "duration"))
    var idempotencyTtl = "24h"

    @Option(
        help: ArgumentHelp(
            "The clock the instances run on: real (timers fire when they fall due) or virtual (each instance's clock stands still until POST .../clock moves it); a store keeps the clock it was first served on."))
    var clock: ClockOption = .real

    @OptionGroup var limits: MachineOptions

    func validate() throws {
        if machines.isEmpty { throw ValidationError("give at least one machine file to serve") }
        if maxBodyBytes < 1 { throw ValidationError("--max-body-bytes must be at least 1, not \(maxBodyBytes)") }
        _ = try address()
        _ = try ttl()
        if PostgresLocation.isURL(store) {
            do {
                _ = try PostgresLocation(url: store)
            } catch {
                throw ValidationError("--store: \(error)")
            }
        }
    }

    func run() throws {
        var configuration = InstanceServer.Configuration()
        (configuration.host, configuration.port) = try address()
        configuration.maximumBodyBytes = maxBodyBytes
        configuration.idempotencyTTL = .milliseconds(try ttl())
        configuration.token = try token()
        configuration.clock = clock == .virtual ? .virtual : .real
        if !configuration.listensOnLoopback && configuration.token == nil {
            throw ValidationError("listening on \(configuration.host), beyond loopback, needs --token-file FILE")
        }
        let served = try loadMachines()
        let storePath = store
        let settings = configuration
        do {
            try BlockingTask.run {
                @Sendable func serve(_ store: any InstanceStore) async throws {
                    let server = try await InstanceServer(machines: served, store: store, configuration: settings)
                    try await server.run { port in
                        FileHandleOutput.standardError(
                            // An IPv6 address is bracketed in a URL (RFC 3986).
                            "smrun serve: listening on http://\(settings.host.contains(":") ? "[\(settings.host)]" : settings.host):\(port) "
                                + "(store \(StoreOpener.name(storePath)))\n")
                    }
                }
                if PostgresLocation.isURL(storePath) {
                    try await PostgresStore.with(try PostgresLocation(url: storePath), serve)
                } else {
                    // A port it cannot listen on leaves no store behind that this start made.
                    let existed = FileManager.default.fileExists(atPath: storePath)
                    do {
                        try await serve(try SQLiteStore(path: storePath))
                    } catch let error as InstanceServer.ListenError where !existed {
                        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
                        throw error
                    }
                }
            }
        } catch StoreError.otherClock(let stored, _) {
            FileHandleOutput.standardError(
                "smrun serve: the store \(StoreOpener.name(storePath)) keeps instances on the \(stored) clock: serve it with --clock \(stored)\n")
            throw ExitCode(Smrun.Status.invalid)
        } catch {
            FileHandleOutput.standardError("smrun serve: \(error)\n")
            throw ExitCode(Smrun.Status.invalid)
        }
    }

    /// Loads every machine file, reporting each one's diagnostics; exit 2 if any has errors or
    /// two share a name.
    private func loadMachines() throws -> [InstanceServer.Machine] {
        var served: [InstanceServer.Machine] = []
        var failed = false
        for path in machines {
            let loaded = limits.load(path)
            DiagnosticPrinter.printToStandardError(loaded.diagnostics.filter { $0.severity == .error }, file: path)
            guard loaded.machine != nil, case .success(let source) = FileReader.contents(of: path, maximumBytes: limits.limits.maximumBytes) else {
                failed = true
                continue
            }
            let name = FileReader.baseName(of: path, extensions: [".yaml", ".yml", ".scxml"])
            guard let machine = InstanceServer.Machine.load(source: source, isSCXML: limits.format(of: path) == .scxml, defaultName: name).0 else {
                failed = true
                continue
            }
            if served.contains(where: { $0.name == machine.name }) {
                FileHandleOutput.standardError("smrun serve: \(path): a machine named '\(machine.name)' is served already\n")
                failed = true
            }
            served.append(machine)
        }
        if failed { throw ExitCode(Smrun.Status.invalid) }
        return served
    }

    private func address() throws -> (String, Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be ADDRESS:PORT, such as 127.0.0.1:8080, not '\(listen)'")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen must name an address before the port, not '\(listen)'") }
        return (host, port)
    }

    private func ttl() throws -> Int {
        do {
            let milliseconds = try Delay.milliseconds(Array(idempotencyTtl.utf8))
            guard milliseconds > 0 else { throw ValidationError("--idempotency-ttl must be longer than 0") }
            return milliseconds
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--idempotency-ttl must be a duration such as 24h or 90m, not '\(idempotencyTtl)'")
        }
    }

    private func token() throws -> String? {
        guard let tokenFile else { return nil }
        guard case .success(let bytes) = FileReader.contents(of: tokenFile, maximumBytes: 1 << 16) else {
            throw ValidationError("--token-file \(tokenFile): cannot read it (or it is larger than 64 KiB)")
        }
        let token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ValidationError("--token-file \(tokenFile) is empty: a token is needed") }
        return token
    }
}
