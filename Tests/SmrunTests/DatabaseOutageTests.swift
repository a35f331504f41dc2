import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun serve` on a PostgreSQL server that stops and starts again (on a cluster of each test's
/// own, so that no other test loses its database).
@Suite(.servedEndToEnd) struct DatabaseOutageTests {
    static let machine = Paths.fixture("ledger.yaml")

    /// A store that cannot be opened is named with what stands in the way: the database's own
    /// message at once when it refuses (no such database, no such user), the connection's error
    /// after ten seconds of trying when nothing answers. Each said only "gave no connection
    /// within 10 s", after ten seconds.
    @Test func aDatabaseThatCannotBeOpenedIsNamedWithItsReason() throws {
        let cluster = try PostgresCluster.shared()
        let noDatabase = "postgres://postgres@127.0.0.1:\(cluster.port)/no_such_database?sslmode=disable"
        let noUser = "postgres://nobody_here@127.0.0.1:\(cluster.port)/postgres?sslmode=disable"
        for (url, reason) in [(noDatabase, #""no_such_database" does not exist"#), (noUser, #""nobody_here" does not exist"#)] {
            let started = ContinuousClock.now
            let refused = try Smrun.run(["serve", Self.machine, "--store", url, "--listen", "127.0.0.1:0"])
            #expect(refused.exited(2) && refused.errorText.contains(reason), "\(refused.errorText)")
            #expect(ContinuousClock.now - started < .seconds(5), "\(ContinuousClock.now - started)")
        }
        // A port nothing listens on (taken from the kernel, then freed).
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Int in
                _ = bind(socket, address, length)
                _ = getsockname(socket, address, &length)
                return Int(UInt16(bigEndian: pointer.pointee.sin_port))
            }
        }
        close(socket)
        let closed = try Smrun.run(["instances", "list", "--store", "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable", "ledger"])
        #expect(closed.exited(2) && closed.errorText.contains("cannot reach") && closed.errorText.lowercased().contains("refused"), "\(closed.errorText)")
    }

    /// While the database is away, the server answers 503 with a problem and `Retry-After`,
    /// `/healthz` too; when it is back, the server serves again by itself, and the input that got
    /// a 503, sent again with its Idempotency-Key, is applied once. Nothing answered 200 is lost.
    @Test func aServerAnswers503WhileItsDatabaseIsAwayAndRecovers() throws {
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let server = try ServerProcess([Self.machine], store: cluster.url(try cluster.createDatabase()))
        try server.create("ledger", key: "k")
        func push(_ n: Int) throws -> HTTPAnswer {
            try server.post("/machines/ledger/instances/k/inputs", #"{"input":"push","arg":\#(n)}"#, headers: [("Idempotency-Key", "push-\(n)")])
        }
        for n in 1...5 { #expect(try push(n).status == 200) }

        try cluster.stop()
        let health = try server.get("/healthz")
        #expect(health.isProblem(503, naming: ["unavailable"]), "\(health.status) \(health.text)")
        #expect(health.header("Retry-After") == "1")
        let refused = try push(6)
        #expect(refused.isProblem(503, naming: ["Idempotency-Key"]), "\(refused.status) \(refused.text)")
        #expect(refused.header("Retry-After") != nil)

        try cluster.start()
        #expect(Self.serves(server), "the server did not serve again after the database's return")
        for n in 6...8 { #expect(try push(n).status == 200) }
        #expect(try push(6).status == 200)

        let pushed = try server.history("ledger", "k").compactMap { JSONValue.int($0["arg"]) }
        #expect(pushed == Array(1...8))
        let stopped = server.stop()
        #expect(stopped.map { !$0.signalled && $0.status == 0 } == true, "\(server.errorText)")
        // Each 503 was logged, with the request's id and path.
        let logged = server.errorText.split(separator: "\n").filter { $0.contains("store unavailable") }
        #expect(!logged.isEmpty && logged.allSatisfy { $0.contains("error smrun.serve: hb.request.id=") }, "\(server.errorText)")
        #expect(logged.contains { $0.contains("path=/machines/ledger/instances/k/inputs") }, "\(server.errorText)")
    }

    /// Three servers under the load of 64 clients (as in ``ScaleOutTests``) while the database
    /// stops and starts again (`pg_ctl stop`, then `start` once every server was seen answering
    /// 503: a `pg_ctl restart` is over before the servers notice): every server answers 503 while
    /// it is down, `/healthz` too, and serves again by itself; every input answered 200 is there
    /// once, in order, and the feed, which reconnects like an `EventSource`, misses nothing.
    @Test func threeServersUnderLoadAnswer503WhileTheDatabaseRestartsAndLoseNothing() throws {
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let servers = try ServerGroup(count: 3, machines: [Self.machine], store: cluster.url(try cluster.createDatabase()))
        let feed = try FeedRecorder(servers, 0, path: "/machines/ledger/events")
        let keys = ScaleOutTests.keys
        let created = concurrently(keys.count, threads: 16) { try servers.random().create("ledger", key: keys[$0]) }
        #expect(created.isEmpty, "\(created.prefix(5))")

        let load = InputLoad(clients: ScaleOutTests.clients, inputsPerClient: ScaleOutTests.inputsPerClient, keys: keys, servers: servers)
        let total = ScaleOutTests.clients * ScaleOutTests.inputsPerClient
        let start = ContinuousClock.now
        while load.answered < total / 3 && ContinuousClock.now - start < .seconds(120) { usleep(5_000) }
        try cluster.stop()
        for index in 0..<servers.count {
            let health = try servers[index].get("/healthz")
            #expect(health.isProblem(503, naming: ["unavailable"]) && health.header("Retry-After") != nil, "server \(index): \(health.status) \(health.text)")
        }
        let down = ContinuousClock.now
        while load.unavailable == 0 && ContinuousClock.now - down < .seconds(30) { usleep(20_000) }
        #expect(load.unavailable > 0, "no input was answered 503 while the database was down")
        let answeredWhileDown = load.answered
        try cluster.start()
        for index in 0..<servers.count {
            #expect(Self.serves(servers[index]), "server \(index) did not serve again after the database's return")
        }

        #expect(load.wait(timeout: .seconds(180)), "the clients did not finish")
        #expect(load.failures.isEmpty, "\(load.failures.prefix(10))")
        #expect(load.answered == total)
        #expect(answeredWhileDown < total, "the load was over before the database came back")

        let histories = try servers.histories("ledger", keys)
        load.expectAppliedExactlyOnceInOrder(histories)
        try HistoryReplay.expectServedStatesMatch(machine: Self.machine, histories: histories, served: try servers.instances("ledger"))
        let entries = histories.values.reduce(0) { $0 + $1.count }
        #expect(feed.waitFor(entries, timeout: .seconds(30)), "the feed showed \(feed.count) of \(entries) entries")
        feed.stop()
        feed.expectEachEntryOnce(of: histories)
        let stopped = servers.stopAll()
        #expect(stopped.isEmpty, "\(stopped)")
    }

    /// Whether `server`'s `/healthz` answers 200 within a minute.
    private static func serves(_ server: ServerProcess) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? server.get("/healthz"))?.status == 200 { return true }
            usleep(100_000)
        }
        return false
    }
}
