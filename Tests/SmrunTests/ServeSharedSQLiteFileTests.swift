import Foundation
import Testing

/// Two `smrun serve` processes on one SQLite file (docs/serving.md, "The store"): nothing
/// refuses the second, and SQLite's lock takes their writes in turn. Each must still apply every
/// input once, in the order answered, and fire each timer once, whichever server armed it: each
/// writer forgets the instances it keeps when the other has committed.
@Suite(.servedEndToEnd) struct ServeSharedSQLiteFileTests {
    @Test func twoServersOnOneFileApplyEachInputOnceAndFireEachTimerOnce() throws {
        let files = try TemporaryFiles()
        let servers = try ServerGroup(count: 2, machines: [ServedMachines.tally, ServedMachines.alarm], store: files.path("shared.sqlite"))

        // Each input through the other server than the one before.
        try servers[0].create("tally", key: "t")
        for n in 1...40 { try servers[n % 2].send("tally", "t", "add", arg: "\(n)") }
        let tally = try servers[0].instance("tally", "t")
        #expect(tally["version"] as? Int == 41)
        #expect(JSONValue.int((tally["context"] as? [String: Any])?["total"]) == 820)
        #expect(try servers[1].history("tally", "t").compactMap { JSONValue.int($0["arg"]) } == Array(1...40))

        // Made through one server and armed through the other: both servers' timers run.
        let alarms = (0..<12).map { "a\($0)" }
        for (index, key) in alarms.enumerated() {
            try servers[index % 2].create("alarm", key: key)
            try servers[(index + 1) % 2].send("alarm", key, "arm")
        }
        let deadline = ContinuousClock.now + .seconds(20)
        var rung: [String: Int] = [:]
        repeat {
            Thread.sleep(forTimeInterval: 0.2)
            for key in alarms { rung[key] = JSONValue.int((try servers[0].instance("alarm", key)["context"] as? [String: Any])?["rings"]) }
        } while rung.values.contains(0) && ContinuousClock.now < deadline
        // A second more, in which a timer fired twice would show.
        Thread.sleep(forTimeInterval: 1)
        for key in alarms {
            let history = try servers[1].history("alarm", key)
            let fired = history.filter { $0["timer"] is [String: Any] }.count
            #expect(fired == 1, "\(key)'s timer fired \(fired) times")
            #expect(JSONValue.int((try servers[0].instance("alarm", key)["context"] as? [String: Any])?["rings"]) == 1, "\(key)")
        }
    }
}
