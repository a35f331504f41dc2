import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// How `smrun serve` starts, guards and stops (issue 32): loopback unless a token file is
/// given, the bearer token on every path but `/healthz` and `/`, and SIGTERM or SIGINT ending
/// it with exit status 0 even while events feeds are open.
@Suite(.servedEndToEnd) struct ServeLifecycleTests {
    @Test func listeningBeyondLoopbackWithoutATokenFileIsRefusedWithExitStatus2() throws {
        let files = try TemporaryFiles()
        let store = files.path("store.sqlite")
        let refused = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--listen", "0.0.0.0:0"])
        #expect(refused.exited(2), "\(refused.status) \(refused.errorText)")
        #expect(refused.errorText.contains("--token-file"), "\(refused.errorText)")
        #expect(!FileManager.default.fileExists(atPath: store), "a refused server creates no store")
        // A name is not loopback because it starts like a loopback address: it may resolve
        // anywhere. Nor is an address outside 127.0.0.0/8 or ::1.
        for listen in ["127.attacker.example:0", "127.0.0.1.nip.io:0", "[::2]:0", "128.0.0.1:0"] {
            let named = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--listen", listen])
            #expect(named.exited(2) && named.errorText.contains("--token-file"), "--listen \(listen): \(named.status) \(named.errorText)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))

        let empty = try files.file("empty-token", " \n\t\n")
        let blank = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--listen", "0.0.0.0:0", "--token-file", empty])
        #expect(blank.exited(2), "\(blank.status) \(blank.errorText)")
        #expect(blank.errorText.contains("empty"), "\(blank.errorText)")
        let absent = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--listen", "0.0.0.0:0", "--token-file", files.path("nothing")])
        #expect(absent.exited(2) && absent.errorText.contains("nothing"), "\(absent.errorText)")

        for listen in ["8080", "127.0.0.1:99999", ":8080", "127.0.0.1:x"] {
            let bad = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--listen", listen])
            #expect(bad.exited(2) && bad.errorText.contains("--listen"), "--listen \(listen): \(bad.errorText)")
        }
        let badTTL = try Smrun.run(["serve", ServedMachines.tally, "--store", store, "--idempotency-ttl", "forever"])
        #expect(badTTL.exited(2) && badTTL.errorText.contains("--idempotency-ttl"), "\(badTTL.errorText)")
        let invalid = try Smrun.run(["serve", Paths.fixture("invalid-undefined-state.yaml"), "--store", store])
        #expect(invalid.exited(2), "\(invalid.errorText)")
        let twice = try Smrun.run(["serve", ServedMachines.tally, ServedMachines.tally, "--store", store])
        #expect(twice.exited(2) && twice.errorText.contains("'tally'"), "\(twice.errorText)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// A port another server holds: exit 2, naming the address, the port and why. A store that
    /// start made is gone again; one that was there is left as it was.
    @Test func aPortInUseIsRefusedNamingTheAddress() throws {
        let files = try TemporaryFiles()
        let first = try ServerProcess.start(files)
        let second = try Smrun.run(["serve", ServedMachines.tally, "--store", files.path("second.sqlite"), "--listen", "127.0.0.1:\(first.port)"])
        #expect(second.exited(2), "\(second.status) \(second.errorText)")
        #expect(second.errorText == "smrun serve: cannot listen on 127.0.0.1:\(first.port): Address already in use\n", "\(second.errorText)")
        #expect(try first.get("/healthz").status == 200)
        let left = try FileManager.default.contentsOfDirectory(atPath: files.directory.path).filter { $0.hasPrefix("second.sqlite") }
        #expect(left.isEmpty, "\(left)")

        let kept = files.path("kept.sqlite")
        let made = try Smrun.run([ServedMachines.tally, "--by-key", "--store", kept], input: .bytes(Data("a add 1\n".utf8)))
        try #require(made.exited(0), "\(made.errorText)")
        let third = try Smrun.run(["serve", ServedMachines.tally, "--store", kept, "--listen", "127.0.0.1:\(first.port)"])
        #expect(third.exited(2), "\(third.errorText)")
        let instance = try Smrun.run(["instances", "show", "--store", kept, "--format", "json", "tally", "a"])
        #expect(instance.exited(0), "\(instance.errorText)")
    }

    /// On IPv6 loopback, the address the server prints is a URL: the address in brackets.
    @Test func anIPv6AddressIsPrintedBracketed() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, listen: "[::1]:0")
        #expect(server.stop()?.status == 0)
        #expect(server.errorText.contains("listening on http://[::1]:\(server.port) "), "\(server.errorText)")
    }

    /// With a token, every path but `/healthz`, the inspector's files and the API's description
    /// (which the inspector links; it holds no data) needs it.
    @Test func withATokenEveryPathButHealthzTheHomePageAndTheAPIsDescriptionNeedsItAsABearerToken() throws {
        let files = try TemporaryFiles()
        let token = try files.file("token", "  s3cret-token \n")
        let server = try ServerProcess.start(files, listen: "0.0.0.0:0", arguments: ["--token-file", token])
        let good = [("Authorization", "Bearer s3cret-token")]
        #expect(try server.get("/healthz").status == 200)
        #expect(try server.get("/").status == 200)
        let description = try server.get("/openapi.json")
        #expect(description.status == 200)
        #expect((try description.object()["openapi"] as? String)?.hasPrefix("3.1") == true)

        let refusals: [(method: String, path: String, headers: [(String, String)])] = [
            ("GET", "/machines", []),
            ("GET", "/metrics", []),
            ("POST", "/machines/tally/instances", []),
            ("GET", "/machines/tally/instances", [("Authorization", "Bearer wrong")]),
            ("GET", "/machines/tally/instances", [("Authorization", "Bearer s3cret-tokeN")]),
            ("GET", "/machines/tally/instances", [("Authorization", "Bearer s3cret-token-and-more")]),
            ("GET", "/machines/tally/instances", [("Authorization", "Basic czNjcmV0LXRva2Vu")]),
            ("GET", "/machines/tally/instances", [("Authorization", "s3cret-token")]),
            ("GET", "/machines/tally/instances", [("Authorization", "Bearers3cret-token")]),
            ("GET", "/machines/tally/instances", [("Authorization", "Bearer\ts3cret-token")]),
            // Never from a query string or a cookie.
            ("GET", "/machines/tally/instances?access_token=s3cret-token", []),
            ("GET", "/machines/tally/instances", [("Cookie", "token=s3cret-token")]),
            ("GET", "/machines/tally/events", []),
            ("POST", "/machines/tally/instances/mine/inputs", []),
            ("POST", "/machines/tally/instances/mine/inputs", [("Authorization", "Bearer wrong")]),
        ]
        for (method, path, headers) in refusals {
            let answer = try server.request(method, path, body: method == "POST" ? Array(#"{"key":"sneaky"}"#.utf8) : nil, headers: headers)
            #expect(answer.isProblem(401, naming: ["Bearer"]), "\(method) \(path) \(headers): \(answer.status) \(answer.text)")
            #expect(answer.header("WWW-Authenticate") == "Bearer", "\(method) \(path)")
        }
        #expect(try server.get("/machines", headers: good).status == 200)
        // The scheme's name is case-insensitive (RFC 9110, section 11.1); the token is not.
        for scheme in ["bearer", "BEARER", "bEaReR"] {
            #expect(try server.get("/machines", headers: [("Authorization", "\(scheme) s3cret-token")]).status == 200, "\(scheme)")
        }
        #expect(try server.post("/machines/tally/instances", #"{"key":"mine"}"#, headers: good).status == 201)
        #expect(try server.post("/machines/tally/instances/mine/inputs", #"{"input":"add","arg":1}"#, headers: good).status == 200)
        let mine = try server.get("/machines/tally/instances/mine", headers: good)
        #expect(mine.header("ETag") == "\"2\"", "one input stored, none without the token: \(mine.text)")
        let list = try server.get("/machines/tally/instances", headers: good)
        #expect(list.status == 200)
        #expect((try list.object()["instances"] as? [[String: Any]])?.map { $0["key"] as? String } == ["mine"], "nothing stored without the token")
    }

    /// An instance keeps running on the definition it was created on after its file changes,
    /// across a restart; new instances run on the file as it is. Idempotency records outlive
    /// the restart too.
    @Test func anInstanceKeepsItsDefinitionWhenTheFileChangesAndRecordsOutliveARestart() throws {
        let files = try TemporaryFiles()
        let original = try String(contentsOf: Paths.packageRoot.appendingPathComponent(ServedMachines.tally), encoding: .utf8)
        let machine = try files.file("tally.yaml", original)
        let first = try ServerProcess([machine], store: files.path("store.sqlite"))
        try first.create("tally", key: "old")
        let sent = try first.post("/machines/tally/instances/old/inputs", #"{"input":"add","arg":5}"#, headers: [("Idempotency-Key", "k")])
        #expect(sent.status == 200)
        let oldFingerprint = try first.instance("tally", "old")["fingerprint"] as? String
        #expect(first.stop(SIGTERM)?.status == 0)

        // The new definition doubles what it adds.
        _ = try files.file("tally.yaml", original.replacingOccurrences(of: "total: total + arg", with: "total: total + 2 * arg"))
        let second = try first.restarted()
        let repeated = try second.post("/machines/tally/instances/old/inputs", #"{"input":"add","arg":5}"#, headers: [("Idempotency-Key", "k")])
        #expect(repeated.status == 200 && repeated.body == sent.body, "the record outlived the restart: \(repeated.text)")
        try second.send("tally", "old", "add", arg: "1")
        let old = try second.instance("tally", "old")
        #expect(old["fingerprint"] as? String == oldFingerprint)
        #expect(JSONValue.int((old["context"] as? [String: Any])?["total"]) == 6, "runs on the definition it was created on")
        let new = try second.create("tally", key: "new")
        #expect(new["fingerprint"] as? String != oldFingerprint)
        try second.send("tally", "new", "add", arg: "1")
        #expect(JSONValue.int((try second.instance("tally", "new")["context"] as? [String: Any])?["total"]) == 2)
        let machines = try second.get("/machines").object()["machines"] as? [[String: Any]]
        #expect(machines?.first?["fingerprint"] as? String == new["fingerprint"] as? String)
    }

    /// SIGTERM while events feeds are open: the feeds end at once, the server exits 0, and
    /// what it answered is on disk for the next start.
    @Test(.timeBound) func sigtermEndsTheServerWithStatus0WhileEventsFeedsAreOpen() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        let instanceFeed = try server.events("/machines/tally/instances/t/events")
        let machineFeed = try server.events("/machines/tally/events")
        #expect(instanceFeed.head.status == 200 && machineFeed.head.status == 200)
        try server.send("tally", "t", "add", arg: "3")
        #expect(try instanceFeed.next(timeout: .seconds(30))?.id == "2")

        let started = ContinuousClock.now
        let end = try #require(server.stop(SIGTERM, timeout: .seconds(30)), "still running 30 s after SIGTERM")
        let took = ContinuousClock.now - started
        #expect(!end.signalled && end.status == 0, "\(end) \(server.errorText)")
        #expect(took < .seconds(5), "took \(took) to stop with feeds open")
        var events: [EventStream.Event] = []
        #expect(instanceFeed.ends(within: .seconds(5), events: &events))
        #expect(machineFeed.ends(within: .seconds(5), events: &events))

        let again = try server.restarted()
        #expect(JSONValue.int((try again.instance("tally", "t")["context"] as? [String: Any])?["total"]) == 3)
        let interrupted = try #require(again.stop(SIGINT, timeout: .seconds(30)))
        #expect(!interrupted.signalled && interrupted.status == 0, "\(interrupted) \(again.errorText)")
    }

    /// A feed whose client stopped reading waits in a write that the end of the feeds does not
    /// reach: SIGTERM closes its connection a second later (it held the stop for the whole 10 s
    /// grace period), and the server exits 0.
    @Test(.timeBound) func sigtermClosesTheConnectionOfAFeedWhoseClientStoppedReading() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("alarm", key: "a")
        let stalled = try server.events("/machines/alarm/instances/a/events")
        #expect(stalled.head.status == 200)
        // Some 24 MB of entries (each holds its label twice), never read: more than the loopback
        // connection's buffers take, so that the feed's write waits for the client.
        let label = "\"" + String(repeating: "x", count: 500_000) + "\""
        for _ in 0..<24 { try server.send("alarm", "a", "setLabel", arg: label) }

        let started = ContinuousClock.now
        let end = try #require(server.stop(SIGTERM, timeout: .seconds(30)), "still running 30 s after SIGTERM")
        let took = ContinuousClock.now - started
        #expect(!end.signalled && end.status == 0, "\(end) \(server.errorText)")
        #expect(took < .seconds(5), "took \(took) to stop with a stalled feed open")
    }
}
