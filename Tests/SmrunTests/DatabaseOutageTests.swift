import Foundation
import TestSupport
import Testing

/// `smrun serve` on a PostgreSQL server that stops and starts again (on a cluster of the test's
/// own, so that no other test loses its database).
@Suite(.servedEndToEnd) struct DatabaseOutageTests {
    /// While the database is away, the server answers 503 with a problem and `Retry-After`,
    /// `/healthz` too; when it is back, the server serves again by itself, and the input that got
    /// a 503, sent again with its Idempotency-Key, is applied once. Nothing answered 200 is lost.
    @Test func aServerAnswers503WhileItsDatabaseIsAwayAndRecovers() async throws {
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let server = try await ServeProcess([Paths.fixture("ledger.yaml"), "--store", cluster.url(try cluster.createDatabase())])
        #expect(try await server.request("POST", "/machines/ledger/instances", body: ["key": "k"]).0 == 201)
        func push(_ n: Int) async throws -> (Int, Any?, [String: String]) {
            try await server.request(
                "POST", "/machines/ledger/instances/k/inputs", body: ["input": "push", "arg": n], headers: ["Idempotency-Key": "push-\(n)"])
        }
        for n in 1...5 { #expect(try await push(n).0 == 200) }

        try cluster.stop()
        let (health, problem, headers) = try await server.request("GET", "/healthz")
        #expect(health == 503)
        #expect(headers["retry-after"] == "1")
        #expect(headers["content-type"]?.hasPrefix("application/problem+json") == true)
        #expect(((problem as? [String: Any])?["detail"] as? String)?.contains("unavailable") == true)
        let (refused, refusal, _) = try await push(6)
        #expect(refused == 503)
        #expect(((refusal as? [String: Any])?["detail"] as? String)?.contains("Idempotency-Key") == true)

        try cluster.start()
        var status = 0
        for _ in 0..<600 where status != 200 {
            status = (try? await server.request("GET", "/healthz"))?.0 ?? 0
            if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == 200, "the server did not serve again after the database's return")
        for n in 6...8 { #expect(try await push(n).0 == 200) }
        #expect(try await push(6).0 == 200)

        let (_, body, _) = try await server.request("GET", "/machines/ledger/instances/k/history")
        let pushed = (((body as? [String: Any])?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["arg"] as? Int }
        #expect(pushed == Array(1...8))
        let stopped = try server.stop()
        #expect(stopped.exited(0), "\(stopped.errorText)")
    }
}
