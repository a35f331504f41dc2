import Foundation
import Synchronization
import TestSupport
import Testing

/// Several `smrun serve` processes on one PostgreSQL database (docs/serving.md, "Scale-out on
/// PostgreSQL"), on a throwaway cluster of the tests' own.
@Suite(.serialized, .servedEndToEnd) struct ScaleOutTests {
    static let machine = Paths.fixture("ledger.yaml")

    /// Three servers, 16 clients sending to 40 instances through servers picked at random:
    /// every answered input is applied exactly once, each client's inputs to an instance in
    /// the order they were answered, each instance's context is what its history makes, a
    /// per-machine feed on one server sees every entry of every server exactly once, and
    /// timers armed through any server fire once.
    @Test func serversOnOneDatabaseShareInstancesTimersAndFeeds() async throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(try cluster.createDatabase())
        var servers: [ServeProcess] = []
        for _ in 0..<3 { servers.append(try await ServeProcess([Self.machine, "--store", url])) }
        let feed = try EventsClient(port: servers[0].port, path: "/machines/ledger/events")
        defer { feed.close() }

        let keys = (0..<40).map { "k\($0)" }
        let timed = (0..<10).map { "t\($0)" }
        for (index, key) in (keys + timed).enumerated() {
            let (status, _, _) = try await servers[index % 3].request("POST", "/machines/ledger/instances", body: ["key": key])
            #expect(status == 201)
        }
        for (index, key) in timed.enumerated() {
            let (status, _, _) = try await servers[(index + 1) % 3].request("POST", "/machines/ledger/instances/\(key)/inputs", body: ["input": "arm"])
            #expect(status == 200)
        }

        // Each client sends one input at a time, each to a random instance through a random
        // server, again with the same Idempotency-Key if the outcome is unknown.
        let answered = AnsweredInputs()
        let servers_ = servers
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    for n in 0..<20 {
                        let key = keys.randomElement(using: &random)!
                        let argument = client * 100 + n
                        var status = 0
                        for _ in 0..<10 where status != 200 {
                            let server = servers_.randomElement(using: &random)!
                            status = (try? await server.request(
                                "POST", "/machines/ledger/instances/\(key)/inputs", body: ["input": "push", "arg": argument],
                                headers: ["Idempotency-Key": "c\(client)-\(n)"]))?.0 ?? 0
                        }
                        #expect(status == 200, "push \(argument) to \(key)")
                        answered.inputs.withLock { $0[key, default: []].append(argument) }
                    }
                }
            }
            try await group.waitForAll()
        }

        var entries = 0
        for key in keys {
            let (status, body, _) = try await servers.randomElement()!.request("GET", "/machines/ledger/instances/\(key)/history?limit=1000")
            #expect(status == 200)
            let history = ((body as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
            entries += history.count
            #expect(history.map { $0["seq"] as? Int } == (0..<history.count).map { Optional($0 + 1) })
            let pushed = history.filter { $0["input"] as? String == "push" }.compactMap { $0["arg"] as? Int }
            let sent = answered.inputs.withLock { $0[key] ?? [] }
            // Exactly once: what was answered is what history holds.
            #expect(pushed.sorted() == sent.sorted(), "\(key)")
            // In order: each client's inputs (argument client*100 + n) apply by n.
            for client in 0..<16 {
                let ns = pushed.filter { $0 / 100 == client }
                #expect(ns == ns.sorted(), "\(key): client \(client)'s inputs out of order: \(ns)")
            }
            // The state is what replaying the history makes.
            let (_, instance, _) = try await servers.randomElement()!.request("GET", "/machines/ledger/instances/\(key)")
            let context = ((instance as? [String: Any])?["context"] as? [String: Any]) ?? [:]
            #expect(context["sum"] as? Int == pushed.reduce(0, +))
            #expect(context["pushes"] as? Int == pushed.count)
            #expect(context["last"] as? Int == (pushed.last ?? 0))
        }

        // Every timer fired once, on whichever server claimed it.
        for key in timed {
            var rings: Int?
            var history: [[String: Any]] = []
            for _ in 0..<200 {
                let (_, instance, _) = try await servers.randomElement()!.request("GET", "/machines/ledger/instances/\(key)")
                rings = ((instance as? [String: Any])?["context"] as? [String: Any])?["rings"] as? Int
                let (_, body, _) = try await servers.randomElement()!.request("GET", "/machines/ledger/instances/\(key)/history")
                history = ((body as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
                if rings == 1 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(rings == 1, "\(key)")
            #expect(history.filter { !($0["timer"] is NSNull) && $0["timer"] != nil }.count == 1, "\(key): \(history)")
            entries += history.count
        }
        try await Task.sleep(for: .milliseconds(1_500))
        for key in timed {
            let (_, body, _) = try await servers[0].request("GET", "/machines/ledger/instances/\(key)/history")
            #expect((((body as? [String: Any])?["entries"] as? [[String: Any]]) ?? []).count == 3, "\(key) fired again")
        }

        // Every answered input is in history: 40 starts, 16 * 20 pushes, and 10 * (start, arm, timer).
        #expect(entries == 40 + 16 * 20 + 10 * 3)

        // The feed on server 0 saw every entry, through whichever server, exactly once.
        for _ in 0..<200 where feed.received.count < entries { try await Task.sleep(for: .milliseconds(100)) }
        let seen = feed.received.map { "\($0["key"] ?? "")#\($0["seq"] ?? "")" }
        #expect(seen.count == entries)
        #expect(Set(seen).count == seen.count)

        for server in servers {
            let stopped = try server.stop()
            #expect(stopped.exited(0), "\(stopped.errorText)")
        }
    }
}

/// The arguments of the inputs answered 200, by instance key, in the order they were answered.
private final class AnsweredInputs: Sendable {
    let inputs = Mutex<[String: [Int]]>([:])
}
