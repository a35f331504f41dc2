import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Several `smrun serve` processes on one PostgreSQL database (docs/serving.md, "Scale-out on
/// PostgreSQL"), each test on a database of its own in the tests' throwaway cluster: the sizes
/// the scale-out issue asks for (three servers, 64 clients, 1,000 instances, 10,000 timers).
@Suite(.serialized, .servedEndToEnd) struct ScaleOutTests {
    static let machine = Paths.fixture("ledger.yaml")
    static let clients = 64
    static let inputsPerClient = 40
    static let keys = (0..<1_000).map { "k\($0)" }
    /// Instances whose one-second timer is armed mid-load.
    static let timed = (0..<12).map { "t\($0)" }

    /// Three servers, 64 clients sending to 1,000 instances through servers picked at random:
    /// every answered input is applied exactly once, each client's inputs to an instance in the
    /// order they were answered, each instance is what `smrun run` makes of its history, a
    /// machine's feed on one server shows every entry of every server exactly once, and timers
    /// armed through one server fire once.
    @Test func threeServersApplyEveryAnsweredInputOnceInOrder() throws {
        try Self.underLoad(killing: nil)
    }

    /// The same, with one server killed (SIGKILL) mid-load, just after timers were armed through
    /// it, and started again 1.5 s later: the clients' inputs cut off by the kill are sent again
    /// through the others with their Idempotency-Keys, and the timers fire once, on the others or
    /// on it when it is back.
    @Test func aServerKilledMidLoadLosesNothingAndItsTimersFireOnce() throws {
        try Self.underLoad(killing: 2)
    }

    private static func underLoad(killing victim: Int?) throws {
        let cluster = try PostgresCluster.shared()
        let servers = try ServerGroup(count: 3, machines: [machine], store: cluster.url(try cluster.createDatabase()))
        let feed = try FeedRecorder(servers, 0, path: "/machines/ledger/events")
        let all = keys + timed
        let created = concurrently(all.count, threads: 16) { try servers.random().create("ledger", key: all[$0]) }
        #expect(created.isEmpty, "\(created.prefix(5))")

        let load = InputLoad(clients: clients, inputsPerClient: inputsPerClient, keys: keys, servers: servers)
        let total = clients * inputsPerClient
        let start = ContinuousClock.now
        while load.answered < total / 3 && ContinuousClock.now - start < .seconds(120) { usleep(5_000) }
        let armedThrough = victim ?? 1
        for key in timed { try servers[armedThrough].send("ledger", key, "arm") }
        if let victim {
            servers[victim].kill9()
            // Down for longer than the timers' second.
            Thread.sleep(forTimeInterval: 1.5)
            try servers.restart(victim)
        }
        #expect(load.wait(timeout: .seconds(180)), "the clients did not finish")
        #expect(load.failures.isEmpty, "\(load.failures.prefix(10))")
        #expect(load.answered == total)
        if victim != nil {
            #expect(load.unanswered > 0, "no client saw the kill")
        }

        // Every timer fires, on whichever server claims it.
        let deadline = ContinuousClock.now + .seconds(30)
        var rung = false
        while !rung && ContinuousClock.now < deadline {
            let listed = try servers.instances("ledger").filter { timed.contains($0.key) }
            rung = listed.count == timed.count && listed.values.allSatisfy { JSONValue.int(($0["context"] as? [String: Any])?["rings"]) == 1 }
            if !rung { usleep(100_000) }
        }
        #expect(rung, "the timers did not all fire within 30 s")

        let histories = try servers.histories("ledger", all)
        load.expectAppliedExactlyOnceInOrder(histories)
        for key in timed {
            let fired = histories[key]?.filter { $0["timer"] is [String: Any] }.count
            #expect(fired == 1, "\(key)'s timer fired \(fired ?? 0) times")
        }
        try HistoryReplay.expectServedStatesMatch(machine: machine, histories: histories, served: try servers.instances("ledger"))

        let entries = histories.values.reduce(0) { $0 + $1.count }
        #expect(feed.waitFor(entries, timeout: .seconds(30)), "the feed showed \(feed.count) of \(entries) entries")
        // A moment more: nothing fires again, nothing shows twice.
        Thread.sleep(forTimeInterval: 1.5)
        feed.stop()
        feed.expectEachEntryOnce(of: histories)
        #expect(try servers.histories("ledger", timed).values.map(\.count) == timed.map { _ in 3 }, "a timer fired again")
        #expect(servers.stopAll().isEmpty)
    }

    /// 10,000 timers due within the same second, on three servers: they fire exactly 10,000
    /// times, each once. 1,000 instances are created first, which says how long 1,000 requests
    /// take here; then each is sent `burst`, which sends it `ring` ten times at a moment they all
    /// share, twice that time ahead: the delay is that moment less the time the input is sent.
    /// (10,000 instances of one timer each, as first planned, took over 5 minutes in a debug
    /// build on two cores. An instance's due timers fire in one transaction, one history entry
    /// each, so ten timers an instance take a tenth of the transactions.)
    @Test func tenThousandTimersDueInOneSecondFireExactlyOnceEach() throws {
        let cluster = try PostgresCluster.shared()
        let servers = try ServerGroup(count: 3, machines: [Self.machine], store: cluster.url(try cluster.createDatabase()))
        let feed = try FeedRecorder(servers, 0, path: "/machines/ledger/events")
        let count = 1_000
        let timersEach = 10
        let creating = ContinuousClock.now
        let created = concurrently(count, threads: Self.clients) { try servers.random().create("ledger", key: "r\($0)") }
        #expect(created.isEmpty, "\(created.count) not created: \(created.prefix(5))")
        let creation = ContinuousClock.now - creating
        let due = Date().addingTimeInterval(max(2 * (Double(creation.components.seconds) + 1), 5))
        let armed = concurrently(count, threads: Self.clients) { index in
            let delay = Int(due.timeIntervalSinceNow * 1000)
            guard delay > 0 else { throw ArmedTooLate(index: index) }
            try servers.random().send("ledger", "r\(index)", "burst", arg: "\(delay)")
        }
        #expect(armed.isEmpty, "\(armed.count) not armed: \(armed.prefix(5))")

        // Each instance's history: its start, `burst`, and the ten timers' `ring`s.
        let entries = count * (2 + timersEach)
        #expect(feed.waitFor(entries, timeout: .seconds(180)), "the feed showed \(feed.count) of \(entries) entries")
        Thread.sleep(forTimeInterval: 1.5)
        feed.stop()
        let rings = feed.entries.filter { $0["timer"] is [String: Any] }
        #expect(rings.count == count * timersEach)
        #expect(Set(rings.compactMap { entry in (entry["key"] as? String).map { "\($0) \(JSONValue.int(entry["seq"]) ?? -1)" } }).count == count * timersEach)
        let instances = try servers.instances("ledger")
        #expect(instances.count == count)
        let counted = instances.values.compactMap { JSONValue.int(($0["context"] as? [String: Any])?["rings"]) }
        #expect(
            counted.count == count && counted.allSatisfy { $0 == timersEach }, "rings: \(Dictionary(grouping: counted) { $0 }.mapValues(\.count))")
        #expect(servers.stopAll().isEmpty)
    }

    /// Timers are due by the database's clock, which every transaction reads: with the
    /// database's clock 20 s ahead of the server's (libfaketime, in the database's processes), a
    /// 1 s alarm rings about a second after it is armed, not 21 s after (the server looked for
    /// timers due by its own clock), and its lateness is counted by the database's clock too.
    @Test func timersFireByTheDatabasesClockWhenTheServersDiffers() throws {
        let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        guard FileManager.default.fileExists(atPath: library) else { throw ToolNotFound(name: library, install: "make test (or: apt-get install faketime)") }
        let cluster = try PostgresCluster(environment: ["LD_PRELOAD": library, "FAKETIME": "+20s", "FAKETIME_DONT_FAKE_MONOTONIC": "1"])
        defer { try? cluster.stop() }
        let ahead = Int(try cluster.psql(database: "postgres", "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
            .trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 - Int(Date().timeIntervalSince1970 * 1000) }
        #expect(ahead.map { $0 > 15_000 } == true, "the database's clock is \(String(describing: ahead)) ms ahead")
        let server = try ServerProcess([ServedMachines.alarm], store: cluster.url(try cluster.createDatabase()))
        try server.create("alarm", key: "a")
        let armed = ContinuousClock.now
        try server.send("alarm", "a", "arm")
        var state: String?
        while ContinuousClock.now - armed < .seconds(30) {
            state = try server.instance("alarm", "a")["state"] as? String
            if state == "ringing" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let rang = ContinuousClock.now - armed
        #expect(state == "ringing" && rang < .seconds(5), "\(String(describing: state)) after \(rang)")
        let metrics = try server.get("/metrics").text
        let sum = metrics.split(separator: "\n").first { $0.hasPrefix("statecraft_timer_lateness_seconds_sum") }
        #expect(sum.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 < 5 } == true, "\(metrics)")
        #expect(server.stop()?.status == 0)
    }

    struct ArmedTooLate: Error, CustomStringConvertible {
        var index: Int
        var description: String { "r\(index) was sent `burst` after the timers' due time: twice the creates' time was too short" }
    }
}
