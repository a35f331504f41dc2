import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SmrunCore
import Statecraft
import StatecraftStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves durable, keyed instances of machines over HTTP (docs/serving.md): the instances
/// API, its events feeds, timers that fire on the real clock (or on each instance's virtual
/// clock, when a request moves it), the inspector page at `/` (docs/inspector.md), `/healthz`,
/// `/metrics` and `/openapi.json`, on Hummingbird, until SIGTERM or SIGINT.
public final class InstanceServer: Sendable {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// The address ``InstanceServer/run(onListening:)`` listens on; anything but loopback
        /// needs a ``token``.
        public var host = "127.0.0.1"
        /// The port ``InstanceServer/run(onListening:)`` listens on (0 picks a free one).
        public var port = 8080
        /// The bearer token every request must carry, if any, but `/healthz`, the inspector's
        /// files (`/` and `/inspector/...`) and `/openapi.json`; the routes of
        /// ``InstanceServer/addRoutes(to:)`` ask for it too.
        public var token: String?
        /// The largest request body, in bytes (413 beyond).
        public var maximumBodyBytes = 1 << 20
        /// How long an idempotency key's answer is kept.
        public var idempotencyTTL: Duration = .seconds(24 * 3600)
        /// How long a request may take to arrive whole, under ``InstanceServer/run(onListening:)``.
        public var requestDeadline: Duration = .seconds(10)
        /// How long an idle connection stays open, under ``InstanceServer/run(onListening:)``.
        public var idleTimeout: Duration = .seconds(60)
        /// The clock the instances run on; the store must have been served on the same one.
        public var clock: Clock = .real

        public init() {}

        /// Whether ``host`` is a loopback address: `localhost`, an IPv4 address in 127.0.0.0/8
        /// or `::1`, written as an address. Any other name may resolve anywhere (a name that
        /// merely starts with `127.` included), so it is not taken for loopback.
        public var listensOnLoopback: Bool {
            if host == "localhost" { return true }
            var ipv4 = in_addr()
            if inet_pton(AF_INET, host, &ipv4) == 1 { return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127 }
            var ipv6 = in6_addr()
            if inet_pton(AF_INET6, host, &ipv6) == 1 { return withUnsafeBytes(of: &ipv6) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) } }
            return false
        }
    }

    /// The clock a server's instances run on.
    public enum Clock: String, Sendable {
        /// The wall clock: timers fire by themselves when they fall due.
        case real
        /// A clock of each instance's own, in milliseconds since it started, which stands still
        /// until a request moves it (`POST .../clock`); its timers fire only then.
        case virtual
    }

    /// A machine to serve: its source and format.
    public struct Machine: Sendable {
        package let runtime: MachineRuntime

        /// The machine in `source`, a YAML machine file or an SCXML document; `nil` with the
        /// load's diagnostics when it does not compile.
        public static func load(source: [UInt8], isSCXML: Bool, defaultName: String) -> (Machine?, LoadResult) {
            let (runtime, loaded) = DefinitionCatalog.runtime(source: source, format: isSCXML ? .scxml : .yaml, defaultName: defaultName)
            return (runtime.map(Machine.init), loaded)
        }

        /// The machine's name, which its routes use.
        public var name: String { runtime.machine.name }
    }

    let service: InstanceService
    let configuration: Configuration
    let metrics = ServerMetrics()
    let feedConnections = FeedConnections()
    let logger: Logger

    /// Why a server was not made.
    public enum ConfigurationError: Error, Equatable {
        /// It would listen beyond loopback without a token.
        case tokenNeeded(host: String)
    }

    /// The server could not listen on its address: the port is taken, or not the user's to
    /// open, or the address is not this machine's.
    public struct ListenError: Error, CustomStringConvertible {
        /// The address it was to listen on.
        public let host: String
        /// The port it was to listen on.
        public let port: Int
        /// What the system said.
        public let reason: String

        public var description: String {
            // An IPv6 address is bracketed before a port (RFC 3986).
            "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port): \(reason)"
        }
    }

    /// A server of `machines` (names must differ) on an embedded SQLite store. Listening beyond
    /// loopback needs a token (``ConfigurationError/tokenNeeded(host:)``); a store whose
    /// instances run on the other clock than ``Configuration/clock`` is refused.
    public convenience init(machines: [Machine], store: SQLiteStore, configuration: Configuration) async throws {
        try await self.init(machines: machines, store: store as any InstanceStore, configuration: configuration)
    }

    /// A server of `machines` (names must differ) on any store: SQLite, or PostgreSQL
    /// (`StatecraftPostgres`), whose connection pool must run while the server does.
    package init(machines: [Machine], store: any InstanceStore, configuration: Configuration) async throws {
        guard configuration.listensOnLoopback || configuration.token.map({ !$0.isEmpty }) == true else {
            throw ConfigurationError.tokenNeeded(host: configuration.host)
        }
        _ = try await store.clock(recording: configuration.clock.rawValue)
        let catalog = try await DefinitionCatalog(store: store, current: machines.map(\.runtime))
        let ttl = configuration.idempotencyTTL.components
        service = InstanceService(
            catalog: catalog, idempotencyTTL: Int(ttl.seconds) * 1000 + Int(ttl.attoseconds / 1_000_000_000_000_000),
            clock: configuration.clock == .virtual ? .virtual : .real)
        self.configuration = configuration
        var logger = Logger(label: "smrun.serve", factory: ServerLogHandler.init)
        logger.logLevel = .notice
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT: then stops accepting, ends the events feeds at once,
    /// finishes the requests in flight (at most 10 seconds), and returns. `onListening` is
    /// called with the port once the server listens (the one given, or the one picked for 0).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        Self.raiseOpenFilesLimit()
        let listening = Mutex(false)
        let router = Router()
        router.add(middleware: ProblemMiddleware())
        if let token = configuration.token {
            router.add(middleware: BearerTokenMiddleware(token: Array(token.utf8), openPaths: Set(InspectorFiles.files.keys).union(["/healthz", "/openapi.json"])))
        }
        // The instances' routes first: Hummingbird's router tries a path's first component
        // against the first level's names in the order they were added. The router checks the
        // token already. Inputs, most requests, do not go through the router at all.
        let routes = instanceRoutes()
        addInstanceRoutes(routes, to: router, checkingToken: false)
        addServerRoutes(to: router)
        let responder = InputsFirstResponder(
            router: router.buildResponder(),
            inputs: router.middlewares.constructResponder(finalResponder: CallbackResponder { try await routes.send($0, context: $1) }))
        let deadline = TimeAmount(configuration.requestDeadline)
        let idle = TimeAmount(configuration.idleTimeout)
        let app = Application(
            responder: responder,
            server: HTTPServerBuilder { responder in DeadlineHTTP1Channel(responder: responder, idleTimeout: idle, limit: deadline) },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "smrun"),
            onServerRunning: { channel in
                listening.withLock { $0 = true }
                await onListening(channel.localAddress?.port ?? 0)
            },
            logger: logger)
        // Shut down in reverse order: the feeds end first, so that the server's graceful
        // shutdown does not wait for them; then the timers stop and the server drains.
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: app)] + backgroundServices.map { .init(service: $0, successTerminationBehavior: .ignore) },
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(10)
        let group = ServiceGroup(configuration: groupConfiguration)
        do {
            try await group.run()
        } catch let error as IOError where !listening.withLock({ $0 }) {
            try? await service.store.close()
            throw ListenError(host: configuration.host, port: configuration.port, reason: String(cString: strerror(error.errnoCode)))
        }
        try await service.store.close()
    }

    /// Adds the instances API's routes (docs/serving.md) to a router of your own Hummingbird
    /// application, answering problems as `application/problem+json`, and asking for
    /// ``Configuration/token`` when it is set; run ``backgroundServices`` in its service group,
    /// after the application (docs/serving.md, "Embedding the store and the routes").
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        addInstanceRoutes(instanceRoutes(), to: router, checkingToken: true)
    }

    private func instanceRoutes() -> InstanceRoutes {
        InstanceRoutes(
            service: service,
            feed: EventsFeed(
                store: service.store, commits: service.commits, connections: feedConnections,
                recheckInterval: service.store.isShared ? .seconds(5) : nil),
            maximumBodyBytes: configuration.maximumBodyBytes, metrics: metrics)
    }

    private func addInstanceRoutes<Context: RequestContext>(
        _ instanceRoutes: InstanceRoutes, to router: some RouterMethods<Context>, checkingToken: Bool
    ) {
        var group = router.group().add(middleware: ProblemMiddleware())
        if checkingToken, let token = configuration.token {
            group = group.add(middleware: BearerTokenMiddleware(token: Array(token.utf8), openPaths: []))
        }
        let routes = MethodListingRoutes(group)
        instanceRoutes.add(to: routes)
        routes.answerOtherMethods()
    }

    /// What runs beside the routes: the timers, the wake-ups from other servers on a shared
    /// store, and the end of the events feeds when the service group shuts down (list them
    /// after the application).
    public var backgroundServices: [any Service] {
        [
            TimerService(service: service, metrics: metrics, logger: logger),
            CommitListener(store: service.store, signals: [service.commits, service.timerWakes]),
            FeedCloser(commits: service.commits, connections: feedConnections),
        ]
    }

    private func addServerRoutes(to router: Router<BasicRequestContext>) {
        let metrics = metrics
        let router = MethodListingRoutes(router)
        defer { router.answerOtherMethods() }
        router.get("/") { request, _ in try InspectorFiles.response(path: request.uri.path, request: request) }
        router.get("/inspector/:file") { request, _ in try InspectorFiles.response(path: request.uri.path, request: request) }
        let store = service.store
        router.get("/healthz") { _, _ in
            do {
                try await store.checkHealth()
            } catch StoreError.unavailable(let reason) {
                var response = APIAnswer.problem(503, "Service Unavailable", "the store is unavailable: \(reason)").response
                response.headers[.retryAfter] = "1"
                return response
            }
            return APIAnswer(status: 200, body: Array(#"{"status":"ok"}"#.utf8)).response
        }
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
        router.get("/openapi.json") { _, _ in
            APIAnswer(status: 200, body: PackageResources.openapi_json).response
        }
    }

    /// Raises the open-files limit to the hard limit: every connection is a file.
    private static func raiseOpenFilesLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Ends every events feed when the server begins to stop, and after a second closes the
/// connections of those that have not ended (their clients stopped reading).
private struct FeedCloser: Service {
    let commits: CommitSignal
    let connections: FeedConnections

    func run() async throws {
        try? await gracefulShutdown()
        commits.close()
        await connections.closeRemaining(after: .seconds(1))
    }
}
