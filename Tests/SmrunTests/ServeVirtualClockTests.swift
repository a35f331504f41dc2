import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun serve --clock virtual` end to end (docs/serving.md, "Simulating with a virtual
/// clock"): each instance runs on a clock of its own that stands still until
/// `POST .../clock` moves it; its timers fire then, and only then, each once, each a history
/// entry. The real binary on a real SQLite file (and, once, on a real PostgreSQL).
@Suite(.servedEndToEnd) struct ServeVirtualClockTests {
    static let reminder = Paths.fixture("serve/reminder.yaml")
    static let machines = [ServedMachines.alarm, ServedMachines.tally, reminder]

    static func virtualServer(_ files: TemporaryFiles) throws -> ServerProcess {
        try ServerProcess.start(files, machines: machines, arguments: ["--clock", "virtual"])
    }

    /// `POST .../clock` with `body`; the answer, whatever its status.
    static func move(_ server: ServerProcess, _ machine: String, _ key: String, _ body: String, headers: [(String, String)] = []) throws
        -> HTTPAnswer
    {
        try server.post("/machines/\(machine)/instances/\(key)/clock", body, headers: headers)
    }

    /// A move that must succeed: its answer's object.
    static func moved(_ server: ServerProcess, _ machine: String, _ key: String, _ body: String) throws -> [String: Any] {
        let answer = try move(server, machine, key, body)
        guard answer.status == 200 else { throw UnexpectedAnswer(expected: "200 to move the clock of \(machine)/\(key) with \(body)", answer: answer) }
        return try answer.object()
    }

    static func now(_ instance: [String: Any]?) -> Int? { JSONValue.int(instance?["now"]) }

    @Test func anAfterTimerFiresOnlyWhenTheClockPassesItsDueAndExactlyOnce() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        let created = try server.create("alarm", key: "a")
        #expect(created["clock"] as? String == "virtual" && Self.now(created) == 0, "\(created)")
        let armed = try server.send("alarm", "a", "arm")
        let timers = try #require((armed["instance"] as? [String: Any])?["timers"] as? [[String: Any]])
        // Due at 1000 ms on the instance's own clock.
        #expect(timers.count == 1 && JSONValue.int(timers.first?["due"]) == 1000, "\(timers)")

        // The real second passes: nothing fires by itself.
        Thread.sleep(forTimeInterval: 1.5)
        let waited = try server.instance("alarm", "a")
        #expect(waited["state"] as? String == "armed" && JSONValue.int(waited["version"]) == 2 && Self.now(waited) == 0, "\(waited)")

        // Short of the due time: nothing fires, no entry, the version stays, the clock moved.
        let short = try Self.move(server, "alarm", "a", #"{"advance":"999ms"}"#)
        #expect(short.status == 200 && short.header("ETag") == #""2""#, "\(short.text)")
        let shortObject = try short.object()
        #expect((shortObject["results"] as? [Any])?.isEmpty == true)
        #expect(Self.now(shortObject["instance"] as? [String: Any]) == 999)
        #expect(try server.history("alarm", "a").count == 2)

        // Past it: the timer fires, once, as its own entry.
        let rang = try Self.moved(server, "alarm", "a", #"{"advance":"1ms"}"#)
        let instance = try #require(rang["instance"] as? [String: Any])
        #expect(instance["state"] as? String == "ringing" && Self.now(instance) == 1000, "\(instance)")
        #expect(JSONValue.int((instance["context"] as? [String: Any])?["rings"]) == 1)
        let results = try #require(rang["results"] as? [[String: Any]])
        #expect(results.first?["after"] as? String == "1s" && results.first?["to"] as? String == "ringing", "\(results)")
        let history = try server.history("alarm", "a")
        #expect(history.count == 3)
        let entry = try #require(history.last)
        #expect(entry["start"] as? Bool == false && entry["input"] is NSNull, "\(entry)")
        #expect(JSONValue.int((entry["timer"] as? [String: Any])?["due"]) == 1000, "\(entry)")
        // An entry's `at` is when it was committed, on the wall clock.
        #expect(isTimestamp(entry["at"]), "\(entry)")

        let later = try Self.moved(server, "alarm", "a", #"{"advance":"1h"}"#)
        #expect((later["results"] as? [Any])?.isEmpty == true)
        #expect(Self.now(later["instance"] as? [String: Any]) == 3_601_000)
        #expect(try server.history("alarm", "a").count == 3)
    }

    @Test func nextTimerJumpsToTheEarliestAndADelayedSendFiresOnTheVirtualClock() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        try server.create("reminder", key: "r")
        let started = try server.send("reminder", "r", "start")
        let dues = ((started["instance"] as? [String: Any])?["timers"] as? [[String: Any]])?.compactMap { JSONValue.int($0["due"]) }
        #expect(dues == [90_000, 300_000], "\(started)")

        // The earliest: the delayed send, 90 s on.
        let nudged = try Self.moved(server, "reminder", "r", #"{"to":"next-timer"}"#)
        let first = try #require(nudged["instance"] as? [String: Any])
        #expect(Self.now(first) == 90_000 && JSONValue.int((first["context"] as? [String: Any])?["nudges"]) == 1, "\(first)")
        #expect((nudged["results"] as? [[String: Any]])?.map { $0["input"] as? String } == ["nudge"], "\(nudged)")
        // Then the `after` timer, 5 minutes after the start.
        let late = try Self.moved(server, "reminder", "r", #"{"to":"next-timer"}"#)
        let second = try #require(late["instance"] as? [String: Any])
        #expect(Self.now(second) == 300_000 && second["state"] as? String == "late" && second["status"] as? String == "final", "\(second)")
        #expect((late["results"] as? [[String: Any]])?.map { $0["after"] as? String } == ["5m"], "\(late)")

        let none = try Self.move(server, "reminder", "r", #"{"to":"next-timer"}"#)
        #expect(none.isProblem(409, naming: ["no timer is pending"]), "\(none.text)")
        #expect(try server.history("reminder", "r").count == 4)
    }

    @Test func oneMoveFiresEveryTimerDueByThenInDueOrderEachItsOwnEntry() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        try server.create("reminder", key: "r")
        try server.send("reminder", "r", "start")
        // Inputs do not move a virtual clock.
        #expect(Self.now(try server.instance("reminder", "r")) == 0)
        let quiet = try Self.moved(server, "reminder", "r", #"{"advance":"1m"}"#)
        #expect((quiet["results"] as? [Any])?.isEmpty == true)
        let both = try Self.moved(server, "reminder", "r", #"{"advance":"4m"}"#)
        let results = try #require(both["results"] as? [[String: Any]])
        #expect(results.count == 2 && results[0]["input"] as? String == "nudge" && results[1]["after"] as? String == "5m", "\(results)")
        #expect(Self.now(both["instance"] as? [String: Any]) == 300_000)
        let timers = try server.history("reminder", "r").dropFirst(2).map { JSONValue.int(($0["timer"] as? [String: Any])?["due"]) }
        #expect(timers == [90_000, 300_000])
    }

    @Test func badMovesAre400NamingTheMemberAndChangeNothing() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        try server.create("alarm", key: "a")
        try server.send("alarm", "a", "arm")
        let refused: [(body: String, words: [String])] = [
            ("", ["not valid JSON"]),
            ("{", ["not valid JSON"]),
            (#"["advance"]"#, ["JSON object"]),
            (#"{"advance":"1m","by":"me"}"#, ["unknown member 'by'"]),
            (#"{"advance":60000}"#, ["'advance'", "a number"]),
            (#"{"advance":"1 parsec"}"#, ["'advance'", "not a duration"]),
            (#"{"advance":"-1m"}"#, ["'advance'", "negative"]),
            (#"{"advance":"99999999999d"}"#, ["'advance'", "not a duration"]),
            (#"{"advance":"99999999999h"}"#, ["'advance'", "100 years"]),
            (#"{"advance":""}"#, ["'advance'", "empty"]),
            (#"{"advance":"1m","to":"next-timer"}"#, ["'advance'", "'to'", "not both"]),
            ("{}", ["'advance'", "'to'"]),
            (#"{"to":"tomorrow"}"#, ["'to'", "next-timer", "tomorrow"]),
            (#"{"to":null}"#, ["'to'", "next-timer", "null"]),
        ]
        for (body, words) in refused {
            let answer = try Self.move(server, "alarm", "a", body)
            #expect(answer.isProblem(400, naming: words), "\(body): \(answer.text)")
        }
        let hostile = String(repeating: "9", count: 100_000) + "s"
        let long = try Self.move(server, "alarm", "a", #"{"advance":"\#(hostile)"}"#)
        #expect(long.isProblem(400, naming: ["'advance'", "100 years"]) && long.body.count < 1_000, "\(long.text.prefix(300))")

        let instance = try server.instance("alarm", "a")
        #expect(Self.now(instance) == 0 && JSONValue.int(instance["version"]) == 2 && instance["state"] as? String == "armed", "\(instance)")

        // Unknown names are 404; a machine without timers has no clock to move.
        #expect(try Self.move(server, "alarm", "nobody", #"{"advance":"1s"}"#).isProblem(404, naming: ["'nobody'"]))
        #expect(try Self.move(server, "nothing", "a", #"{"advance":"1s"}"#).isProblem(404, naming: ["'nothing'"]))
        try server.create("tally", key: "t")
        #expect(try Self.move(server, "tally", "t", #"{"advance":"1s"}"#).isProblem(409, naming: ["'tally'", "no timers"]))
    }

    /// A virtual clock ends at 1000 years (ten moves of the longest duration, 100 years): a move
    /// past it is refused, and nothing overflows.
    @Test func aClockGoesNoFurtherThanItsEnd() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        try server.create("alarm", key: "a")
        for _ in 0..<10 { _ = try Self.moved(server, "alarm", "a", #"{"advance":"876600h"}"#) }
        let end = 10 * 876_600 * 3_600_000
        #expect(Self.now(try server.instance("alarm", "a")) == end)
        let past = try Self.move(server, "alarm", "a", #"{"advance":"1ms"}"#)
        #expect(past.isProblem(400, naming: ["'advance'", "1000 years"]), "\(past.text)")
        // A timer started at the end is due past it: the clock does not follow.
        try server.send("alarm", "a", "arm")
        let beyond = try Self.move(server, "alarm", "a", #"{"to":"next-timer"}"#)
        #expect(beyond.isProblem(409, naming: ["1000 years"]), "\(beyond.text)")
        let instance = try server.instance("alarm", "a")
        #expect(Self.now(instance) == end && instance["state"] as? String == "armed", "\(instance)")
    }

    @Test func ifMatchAndIdempotencyKeyWorkAsOnASend() throws {
        let files = try TemporaryFiles()
        let server = try Self.virtualServer(files)
        try server.create("alarm", key: "a")
        try server.send("alarm", "a", "arm")
        let stale = try Self.move(server, "alarm", "a", #"{"advance":"2s"}"#, headers: [("If-Match", #""1""#)])
        #expect(stale.isProblem(412, naming: ["version 2"]), "\(stale.text)")
        #expect(try Self.move(server, "alarm", "b", #"{"advance":"2s"}"#, headers: [("If-Match", "*")]).isProblem(412))

        let key = ("Idempotency-Key", "move-1")
        let first = try Self.move(server, "alarm", "a", #"{"advance":"2s"}"#, headers: [("If-Match", #""2""#), key])
        #expect(first.status == 200 && first.header("ETag") == #""3""#, "\(first.text)")
        // The repeat gets the first answer, and the clock moves once.
        let again = try Self.move(server, "alarm", "a", #"{ "advance" : "2s" }"#, headers: [key])
        #expect(again.status == 200 && again.body == first.body && again.header("ETag") == #""3""#, "\(again.text)")
        #expect(Self.now(try server.instance("alarm", "a")) == 2000)
        let other = try Self.move(server, "alarm", "a", #"{"advance":"3s"}"#, headers: [key])
        #expect(other.isProblem(422), "\(other.text)")
        #expect(try server.history("alarm", "a").count == 3)
    }

    @Test func aRealClockServerRefusesToMoveAClockAndShowsItsInstancesOnTheRealClock() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let created = try server.create("alarm", key: "a")
        #expect(created["clock"] as? String == "real" && created["now"] == nil, "\(created)")
        let refused = try Self.move(server, "alarm", "a", #"{"advance":"1s"}"#)
        #expect(refused.isProblem(409, naming: ["real clock"]), "\(refused.text)")
    }

    @Test func aRestartKeepsEachInstancesVirtualTime() throws {
        let files = try TemporaryFiles()
        var server = try Self.virtualServer(files)
        try server.create("reminder", key: "r")
        try server.send("reminder", "r", "start")
        _ = try Self.moved(server, "reminder", "r", #"{"advance":"1m"}"#)
        #expect(server.stop()?.status == 0)
        server = try server.restarted()
        let instance = try server.instance("reminder", "r")
        #expect(Self.now(instance) == 60_000 && (instance["timers"] as? [Any])?.count == 2, "\(instance)")
        let nudged = try Self.moved(server, "reminder", "r", #"{"advance":"30s"}"#)
        #expect((nudged["results"] as? [[String: Any]])?.count == 1 && Self.now(nudged["instance"] as? [String: Any]) == 90_000, "\(nudged)")
    }

    @Test func aStoreIsServedOnlyOnTheClockItWasFirstServedOn() throws {
        let files = try TemporaryFiles()
        let real = files.path("real.sqlite")
        let virtual = files.path("virtual.sqlite")
        for (store, clock) in [(real, "real"), (virtual, "virtual")] {
            let server = try ServerProcess([ServedMachines.alarm], store: store, arguments: ["--clock", clock])
            try server.create("alarm", key: "a")
            #expect(server.stop()?.status == 0)
        }
        for (store, clock, other) in [(real, "real", "virtual"), (virtual, "virtual", "real")] {
            let refused = try Smrun.run(["serve", ServedMachines.alarm, "--store", store, "--listen", "127.0.0.1:0", "--clock", other])
            #expect(
                refused.exited(2) && refused.errorText.contains(store) && refused.errorText.contains("\(clock) clock")
                    && refused.errorText.contains("--clock \(clock)"), "\(refused.errorText)")
            // `smrun instances` reads either store, on its clock.
            let shown = try Smrun.run(["instances", "show", "--store", store, "--format", "json", "alarm", "a"])
            let instance = try JSONSerialization.jsonObject(with: Data(shown.text.utf8)) as? [String: Any]
            #expect(shown.exited(0) && instance?["clock"] as? String == clock, "\(shown.text)\(shown.errorText)")
            #expect((instance?["now"] != nil) == (clock == "virtual"), "\(shown.text)")
        }
        let bad = try Smrun.run(["serve", ServedMachines.alarm, "--store", files.path("new.sqlite"), "--clock", "sundial"])
        #expect(bad.exited(2) && bad.errorText.contains("--clock"), "\(bad.errorText)")
    }

    @Test func onPostgreSQLTooAMoveFiresDueTimersOnceAndTheDatabaseKeepsItsClock() throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(try cluster.createDatabase())
        let server = try ServerProcess(Self.machines, store: url, arguments: ["--clock", "virtual"])
        try server.create("reminder", key: "r")
        try server.send("reminder", "r", "start")
        let key = ("Idempotency-Key", "pg-move")
        let first = try Self.move(server, "reminder", "r", #"{"advance":"5m"}"#, headers: [key])
        #expect(first.status == 200, "\(first.text)")
        #expect((try first.object()["results"] as? [Any])?.count == 2, "\(first.text)")
        let again = try Self.move(server, "reminder", "r", #"{"advance":"5m"}"#, headers: [key])
        #expect(again.body == first.body)
        #expect(Self.now(try server.instance("reminder", "r")) == 300_000)
        #expect(server.stop()?.status == 0)
        let refused = try Smrun.run(["serve", Self.reminder, "--store", url, "--listen", "127.0.0.1:0"])
        #expect(refused.exited(2) && refused.errorText.contains("virtual clock"), "\(refused.errorText)")
    }
}
