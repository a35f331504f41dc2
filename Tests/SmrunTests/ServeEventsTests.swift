import Foundation
import Testing

/// `smrun serve`'s events feeds and its timers on the real clock (issue 32): Server-Sent Events,
/// one per history entry, per instance and per machine; `Last-Event-ID` replays what a client
/// missed; a deleted instance's feed ends; an `after: 1s` timer fires with no request, once,
/// recorded in history.
@Suite(.servedEndToEnd) struct ServeEventsTests {
    static let timeout: Duration = .seconds(30)

    @Test func anInstanceFeedStartsAfterTheRequestAndEndsWhenTheInstanceIsDeleted() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        try server.send("tally", "t", "add", arg: "1")
        let feed = try server.events("/machines/tally/instances/t/events")
        #expect(feed.head.status == 200, "\(feed.head.text)")
        #expect(feed.head.header("Content-Type") == "text/event-stream")
        try server.send("tally", "t", "add", arg: "2")
        try server.send("tally", "t", "close")

        // Entries 1 and 2 came before the request: the feed starts with entry 3.
        let third = try #require(try feed.next(timeout: Self.timeout))
        #expect(third.id == "3")
        let entry = try third.object()
        #expect(entry["machine"] as? String == "tally" && entry["key"] as? String == "t")
        #expect(JSONValue.int(entry["seq"]) == 3 && entry["input"] as? String == "add" && JSONValue.int(entry["arg"]) == 2)
        #expect(JSONValue.bool(entry["start"]) == false && entry["timer"] is NSNull && isTimestamp(entry["at"]))
        #expect((entry["results"] as? [[String: Any]])?.first?["to"] as? String == "open")
        // The data is the entry as the history shows it, plus machine and key.
        var shown = try server.history("tally", "t")[2]
        shown["machine"] = "tally"
        shown["key"] = "t"
        let sorted: ([String: Any]) throws -> Data = { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        #expect(try sorted(shown) == sorted(entry))
        let fourth = try #require(try feed.next(timeout: Self.timeout))
        #expect(try fourth.id == "4" && fourth.object()["input"] as? String == "close")

        #expect(try server.delete("/machines/tally/instances/t").status == 204)
        var after: [EventStream.Event] = []
        #expect(feed.ends(within: .seconds(10), events: &after), "the feed of a deleted instance stays open")
        #expect(after.isEmpty, "\(after.map(\.data))")

        let missing = try server.events("/machines/tally/instances/t/events")
        #expect(missing.head.isProblem(404, naming: ["'t'"]), "\(missing.head.status) \(missing.head.text)")
    }

    /// `smrun instances delete` beside the server is another process's commit: the server
    /// hears of it within a second and ends the deleted instance's feed (it used to wait for
    /// the feed's 15 s keep-alive).
    @Test func anInstanceDeletedByAnotherProcessEndsItsFeedWithinASecondOrSo() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        let feed = try server.events("/machines/tally/instances/t/events")
        #expect(feed.head.status == 200, "\(feed.head.text)")
        let deleted = try Smrun.run(["instances", "delete", "--store", server.store, "tally", "t"])
        #expect(deleted.exited(0), "\(deleted.errorText)")
        var after: [EventStream.Event] = []
        #expect(feed.ends(within: .seconds(5), events: &after), "the feed of an instance deleted by smrun instances stays open")
        #expect(after.isEmpty, "\(after.map(\.data))")
    }

    /// An instance deleted and made again under its key is another instance: the first one's
    /// feed ends and carries none of the new one's entries (it used to go on with them when it
    /// woke after both, from the old seq on, so the new instance's first entries were skipped).
    /// A client that reconnects with an id of the old instance, beyond the new one's version,
    /// gets the new one's history from its start.
    @Test func aKeyDeletedAndMadeAgainIsAnotherInstancesFeed() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        for n in 1...3 { try server.send("tally", "t", "add", arg: "\(n)") }
        let feed = try server.events("/machines/tally/instances/t/events")
        #expect(feed.head.status == 200)
        #expect(try server.delete("/machines/tally/instances/t").status == 204)
        try server.create("tally", key: "t")
        for n in 1...5 { try server.send("tally", "t", "add", arg: "\(n)") }
        var after: [EventStream.Event] = []
        #expect(feed.ends(within: .seconds(10), events: &after), "the feed of a deleted instance stays open")
        #expect(after.isEmpty, "\(after.map(\.data))")

        // Version 6 now; id 4 was the old instance's last entry. The new one's first seqs are
        // below it, the rest beyond: neither may be skipped, so it starts from 1.
        #expect(try server.delete("/machines/tally/instances/t").status == 204)
        try server.create("tally", key: "t")
        try server.send("tally", "t", "add", arg: "7")
        let resumed = try server.events("/machines/tally/instances/t/events", lastEventID: "4")
        var seqs: [Int?] = []
        for _ in 0..<2 { seqs.append(JSONValue.int(try resumed.next(timeout: Self.timeout)?.object()["seq"])) }
        #expect(seqs == [1, 2])
    }

    /// A feed with no entry of its own gets its comment every 15 s even while other
    /// instances commit every second (each commit once restarted its wait, so a busy server
    /// sent none, and a proxy would close the idle-looking feed).
    @Test func aFeedKeepsItsCommentWhileOtherInstancesCommit() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "quiet")
        try server.create("tally", key: "busy")
        let feed = try server.events("/machines/tally/instances/quiet/events")
        #expect(feed.head.status == 200)
        let start = ContinuousClock.now
        while !feed.comments.contains("keep-alive"), ContinuousClock.now - start < .seconds(22) {
            try server.send("tally", "busy", "add", arg: "1")
            do {
                let event = try feed.next(timeout: .seconds(1))
                Issue.record("the quiet instance's feed carried \(String(describing: event?.data))")
            } catch HTTPFailure.timedOut {}
        }
        #expect(feed.comments.contains("keep-alive"), "\(feed.comments) after \(ContinuousClock.now - start)")
        #expect(ContinuousClock.now - start > .seconds(14))
    }

    @Test func lastEventIDReplaysTheEntriesAClientMissedThenFollows() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        for n in 1...3 { try server.send("tally", "t", "add", arg: "\(n)") }
        // A worker saw entry 2, then lost its connection: it resumes from there.
        let feed = try server.events("/machines/tally/instances/t/events", lastEventID: "2")
        #expect(feed.head.status == 200)
        var ids: [String?] = []
        for _ in 0..<2 { ids.append(try feed.next(timeout: Self.timeout)?.id) }
        #expect(ids == ["3", "4"])
        try server.send("tally", "t", "add", arg: "4")
        let live = try #require(try feed.next(timeout: Self.timeout))
        #expect(try live.id == "5" && JSONValue.int(live.object()["arg"]) == 4)

        // From 0: the whole history, the start first.
        let whole = try server.events("/machines/tally/instances/t/events", lastEventID: "0")
        var all: [Int?] = []
        for _ in 0..<5 { all.append(JSONValue.int(try whole.next(timeout: Self.timeout)?.object()["seq"])) }
        #expect(all == [1, 2, 3, 4, 5])
    }

    @Test func aMachineFeedCarriesEveryInstanceInCommitOrderAndResumesFromItsCursor() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "before")
        let feed = try server.events("/machines/tally/events")
        #expect(feed.head.status == 200 && feed.head.header("Content-Type") == "text/event-stream", "\(feed.head.text)")
        try server.create("tally", key: "a")
        try server.send("tally", "a", "add", arg: "1")
        try server.create("alarm", key: "elsewhere")  // another machine's: not in this feed
        try server.send("tally", "before", "add", arg: "2")

        var seen: [(id: String, key: String, seq: Int)] = []
        for _ in 0..<3 {
            let event = try #require(try feed.next(timeout: Self.timeout))
            let entry = try event.object()
            #expect(entry["machine"] as? String == "tally")
            seen.append((event.id ?? "", entry["key"] as? String ?? "", JSONValue.int(entry["seq"]) ?? 0))
        }
        #expect(seen.map(\.key) == ["a", "a", "before"])
        #expect(seen.map(\.seq) == [1, 2, 2])
        #expect(Set(seen.map(\.id)).count == 3 && !seen.contains { $0.id.isEmpty })

        // A worker that saw the first event reconnects: the two after it, then what comes next.
        let resumed = try server.events("/machines/tally/events", lastEventID: seen[0].id)
        var replayed: [String?] = []
        for _ in 0..<2 { replayed.append(try resumed.next(timeout: Self.timeout)?.id) }
        #expect(replayed == [seen[1].id, seen[2].id])
        try server.send("tally", "a", "close")
        let next = try #require(try resumed.next(timeout: Self.timeout))
        #expect(try next.object()["input"] as? String == "close")
        #expect(try feed.next(timeout: Self.timeout)?.id == next.id, "both feeds give the entry the same id")
    }

    /// An armed alarm rings 1 s later with nobody sending anything: one timer entry, with the
    /// hook `ring` among its results, then no more.
    @Test func aTimerFiresOnTheRealClockWithoutARequestOnceAndIsRecorded() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("alarm", key: "wake")
        try server.create("alarm", key: "cancelled")
        let feed = try server.events("/machines/alarm/instances/wake/events")
        let armed = try server.send("alarm", "wake", "arm")
        let pending = try #require(((armed["instance"] as? [String: Any])?["timers"] as? [[String: Any]])?.first)
        #expect(pending["after"] as? String == "1s" && isTimestamp(pending["due"]), "\(pending)")
        try server.send("alarm", "cancelled", "arm")
        try server.send("alarm", "cancelled", "disarm")

        #expect(try feed.next(timeout: Self.timeout)?.id == "2")
        let fired = try #require(try feed.next(timeout: Self.timeout), "the timer did not fire")
        #expect(fired.id == "3")
        let entry = try fired.object()
        #expect(entry["input"] is NSNull && entry["arg"] is NSNull && JSONValue.bool(entry["start"]) == false)
        let timer = try #require(entry["timer"] as? [String: Any], "\(entry)")
        #expect(timer["after"] as? String == "1s" && timer["due"] as? String == pending["due"] as? String)
        let results = try #require(entry["results"] as? [[String: Any]])
        #expect(results.first?["to"] as? String == "ringing")
        #expect(results.first?["effects"] as? [String] == ["count", "ring"], "the hook `ring` reaches the outside through the results")
        #expect(results.contains { $0["input"] as? String == "rang" }, "what the timer's effects send is in its entry")
        // It fired when due, not before.
        let due = try #require(apiTime(pending["due"]))
        let at = try #require(apiTime(entry["at"]))
        #expect(at >= due)

        let wake = try server.instance("alarm", "wake")
        #expect(wake["state"] as? String == "ringing" && (wake["timers"] as? [Any])?.isEmpty == true)
        #expect(JSONValue.int((wake["context"] as? [String: Any])?["rings"]) == 1 && JSONValue.int(wake["version"]) == 3)
        // A disarmed alarm's timer went with its state: it never fires.
        #expect(try server.history("alarm", "cancelled").map { $0["timer"] is NSNull } == [true, true, true])
        #expect(try server.instance("alarm", "cancelled")["state"] as? String == "idle")
        // And the timer fired once: nothing more comes.
        #expect(throws: HTTPFailure.self) { try feed.next(timeout: .seconds(2)) }
        #expect(try server.history("alarm", "wake").count == 3)
    }

    /// A timer that an input starts wakes the timers at once: with no other timer pending they
    /// would look again only a second later, but a 100 ms timer fires within 600 ms of its
    /// input's answer, five times in a row.
    @Test func aShortTimerThatAnInputStartsFiresSoonAfterItsDue() throws {
        let files = try TemporaryFiles()
        let kettle = try files.file(
            "kettle.yaml",
            """
            machine: kettle
            initial: cold
            inputs: { boil: }
            states: [cold, heating, boiled]
            transitions:
              - boil | cold => heating
              - after: 100ms
                from: heating
                to: boiled
            """)
        let server = try ServerProcess.start(files, machines: [kettle])
        for n in 1...5 {
            try server.create("kettle", key: "k\(n)")
            let feed = try server.events("/machines/kettle/instances/k\(n)/events")
            try server.send("kettle", "k\(n)", "boil")
            let sent = ContinuousClock.now
            #expect(try feed.next(timeout: Self.timeout)?.id == "2")
            let fired = try #require(try feed.next(timeout: Self.timeout), "the timer did not fire")
            let waited = ContinuousClock.now - sent
            #expect(fired.id == "3" && waited < .milliseconds(600), "fired \(waited) after the input's answer")
        }
    }

    /// Timers an input starts that are due at once fire after it, each as its own entry whose
    /// `timer` is listed as the snapshot lists a pending one: an `after` with its `state`, a
    /// delayed send with its `arg` and the effect that sent it (`sent_by`). The answer's
    /// results are the input's only.
    @Test func timersDueAtOnceAreEntriesListedAsTheSnapshotListsThem() throws {
        let files = try TemporaryFiles()
        let blink = try files.file(
            "blink.yaml",
            """
            machine: blink
            initial: dark
            inputs: { flash: null, beep: int }
            states: [dark, lit, beeped]
            effects:
              ping: { send: { input: beep, arg: 3, delay: 0s } }
            transitions:
              - flash | dark => lit
              - after: 0s
                from: lit
                to: dark
                effects: [ping]
              - beep | dark => beeped
            """)
        let server = try ServerProcess.start(files, machines: [blink])
        let answer = try server.send("blink", "b", "flash", create: true)
        #expect((answer["results"] as? [[String: Any]])?.map { $0["input"] as? String } == ["flash"], "\(answer)")
        let history = try server.history("blink", "b")
        #expect(history.count == 4, "\(history)")
        let after = try #require(history[2]["timer"] as? [String: Any], "\(history)")
        #expect(after["after"] as? String == "0s" && after["state"] as? String == "lit" && isTimestamp(after["due"]), "\(after)")
        let sent = try #require(history[3]["timer"] as? [String: Any], "\(history)")
        #expect(sent["input"] as? String == "beep" && JSONValue.int(sent["arg"]) == 3 && sent["sent_by"] as? String == "ping", "\(sent)")
        #expect(try server.instance("blink", "b")["state"] as? String == "beeped")
    }

    /// A timer due before an input arrives fires first, as its own entry; the answer's results
    /// are the input's only.
    @Test func aTimerDueBeforeAnInputFiresFirstAsItsOwnEntry() throws {
        let files = try TemporaryFiles()
        // Whether the timer service fired it meanwhile or the send fires it first, the timer
        // is an entry of its own, before the input's.
        let server = try ServerProcess.start(files)
        try server.create("alarm", key: "a")
        try server.send("alarm", "a", "arm")
        Thread.sleep(forTimeInterval: 1.1)
        let answer = try server.send("alarm", "a", "setLabel", arg: #""late""#)
        let results = try #require(answer["results"] as? [[String: Any]])
        #expect(results.count == 1 && results.first?["input"] as? String == "setLabel", "\(results)")
        let history = try server.history("alarm", "a")
        #expect(history.map { $0["timer"] is NSNull } == [true, true, false, true], "\(history)")
        #expect(history.last?["input"] as? String == "setLabel")
        #expect(JSONValue.int((try server.instance("alarm", "a")["context"] as? [String: Any])?["rings"]) == 1)
    }
}

/// A time the API wrote (RFC 3339 with milliseconds).
func apiTime(_ value: Any?) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return (value as? String).flatMap(formatter.date(from:))
}
