import Foundation
import Testing

/// `smrun serve`'s instances API end to end (issue 32, docs/serving.md): the real binary on a
/// real SQLite file, over HTTP/1.1 on loopback. Creating, reading, sending, listing by state,
/// history, deleting, `If-Match`, `Idempotency-Key` and `"create": true`, as a client relies on
/// them.
@Suite(.servedEndToEnd) struct ServeAPITests {
    // MARK: - Create

    @Test func aCreateAnswers201WithLocationETagAndTheInstanceWithOrWithoutAKey() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let named = try server.post("/machines/tally/instances", #"{"key":"order-1"}"#)
        #expect(named.status == 201, "\(named.text)")
        #expect(named.header("Location") == "/machines/tally/instances/order-1")
        #expect(named.header("ETag") == #""1""#)
        #expect(named.header("Content-Type") == "application/json")
        let instance = try named.object()
        #expect(instance["machine"] as? String == "tally")
        #expect(instance["key"] as? String == "order-1")
        #expect(instance["kind"] as? String == "flat")
        #expect(instance["state"] as? String == "open")
        #expect(JSONValue.int((instance["context"] as? [String: Any])?["total"]) == 0)
        #expect(JSONValue.int(instance["version"]) == 1)
        #expect(instance["status"] as? String == "running")
        #expect((instance["fingerprint"] as? String)?.hasPrefix("sha256:") == true)
        #expect(isTimestamp(instance["created"]) && isTimestamp(instance["updated"]), "\(instance)")
        #expect((instance["timers"] as? [Any])?.isEmpty == true)

        // Without a key (an empty body, or an object without one) the server makes a lowercase UUID.
        for body in ["", "{}", #"{"context":{"total":5}}"#] {
            let answer = try server.post("/machines/tally/instances", body)
            #expect(answer.status == 201, "\(answer.text)")
            let key = try #require(try answer.object()["key"] as? String)
            #expect(key.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/) != nil, "\(key)")
            #expect(answer.header("Location") == "/machines/tally/instances/\(key)")
            // What the create answered is what a read finds.
            let read = try server.get("/machines/tally/instances/\(key)")
            #expect(read.status == 200 && read.body == answer.body, "\(read.text)")
            #expect(read.header("ETag") == #""1""#)
        }
        #expect(try server.instances("tally").count == 4)
    }

    @Test func anExistingKeyIs409WithTheExistingInstanceAndChangesNothing() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "k")
        try server.send("tally", "k", "add", arg: "7")
        let again = try server.post("/machines/tally/instances", #"{"key":"k","context":{"total":100}}"#)
        #expect(again.isProblem(409, naming: ["'k'"]), "\(again.text)")
        let existing = try #require(try again.object()["instance"] as? [String: Any])
        #expect(existing["key"] as? String == "k")
        #expect(JSONValue.int(existing["version"]) == 2)
        #expect(JSONValue.int((existing["context"] as? [String: Any])?["total"]) == 7)
        let read = try server.instance("tally", "k")
        #expect(JSONValue.int(read["version"]) == 2 && JSONValue.int((read["context"] as? [String: Any])?["total"]) == 7)
        #expect(try server.history("tally", "k").count == 2)
    }

    @Test func aContextMayNameOnlyDeclaredVariablesEachOfItsType() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        // Every declared type, and an int where a double is declared.
        let made = try server.create("alarm", key: "typed", context: #"{"rings":3,"label":"wake up","volume":1,"loud":true}"#)
        let context = try #require(made["context"] as? [String: Any])
        #expect(JSONValue.int(context["rings"]) == 3)
        #expect(context["label"] as? String == "wake up")
        #expect(JSONValue.double(context["volume"]) == 1.0)
        #expect(JSONValue.bool(context["loud"]) == true)
        // The variables not given keep their initial values.
        let partial = try server.create("alarm", key: "partial", context: #"{"label":"x"}"#)
        #expect(JSONValue.double((partial["context"] as? [String: Any])?["volume"]) == 0.5)

        let refused: [(body: String, words: [String])] = [
            (#"{"key":"a","context":{"snooze":1}}"#, ["'snooze'", "not declared"]),
            (#"{"key":"b","context":{"rings":"three"}}"#, ["'rings'", "int"]),
            (#"{"key":"c","context":{"rings":1.5}}"#, ["'rings'", "int"]),
            (#"{"key":"d","context":{"loud":1}}"#, ["'loud'", "bool"]),
            (#"{"key":"e","context":{"label":null}}"#, ["'label'"]),
            (#"{"key":"f","context":[1]}"#, ["'context'", "object"]),
            (#"{"key":"g","colour":"red"}"#, ["'colour'"]),
            (#"{"key":7}"#, ["'key'", "string"]),
        ]
        for (body, words) in refused {
            let answer = try server.post("/machines/alarm/instances", body)
            #expect(answer.isProblem(400, naming: words), "\(body): \(answer.status) \(answer.text)")
        }
        let null = try server.post("/machines/alarm/instances", #"{"key":"e","context":{"label":null}}"#)
        #expect(null.detail == "context variable 'label' is string, got null", "\(null.text)")
        #expect(try server.instances("alarm").map { $0["key"] as? String } == ["partial", "typed"])
    }

    /// Keys may hold `. _ ~ : @ -`; a client that percent-encodes them in a path (as many
    /// HTTP libraries do with `:` and `@`) names the same instance.
    @Test func aKeyWithPunctuationIsTheSameInstanceWhetherItsPathIsPercentEncodedOrNot() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let created = try server.post("/machines/tally/instances", #"{"key":"user@example.com:order~7_a-b"}"#)
        #expect(created.status == 201 && created.header("Location") == "/machines/tally/instances/user@example.com:order~7_a-b", "\(created.text)")
        for path in ["user@example.com:order~7_a-b", "user%40example.com%3Aorder%7E7_a-b", "%75ser@example.com:order~7_a-b"] {
            let read = try server.get("/machines/tally/instances/\(path)")
            #expect(read.status == 200 && read.body == created.body, "\(path): \(read.status) \(read.text)")
        }
        let sent = try server.post("/machines/tally/instances/user%40example.com%3Aorder~7_a-b/inputs", #"{"input":"add","arg":2}"#)
        #expect(sent.status == 200, "\(sent.text)")
        #expect(try server.history("tally", "user%40example.com%3Aorder~7_a-b").count == 2)
        #expect(try server.delete("/machines/tally/instances/user%40example.com%3Aorder~7_a-b").status == 204)
        #expect(try server.instances("tally").isEmpty)
    }

    /// Inputs skip the router when their path is written plainly; written with the slashes the
    /// router also takes (doubled, or one at the end), they reach the same instance through it.
    @Test func anInputReachesItsInstanceWhicheverWayTheRouterTakesItsPath() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "k")
        let paths = ["/machines/tally/instances/k/inputs", "/machines/tally/instances/k/inputs/", "//machines/tally//instances/k/inputs"]
        for (index, path) in paths.enumerated() {
            let sent = try server.post(path, #"{"input":"add","arg":1}"#)
            #expect(sent.status == 200 && sent.header("ETag") == "\"\(index + 2)\"", "\(path): \(sent.status) \(sent.text)")
        }
        #expect(try server.history("tally", "k").count == 4)
        let noKey = try server.post("/machines/tally/instances//inputs", #"{"input":"add","arg":1}"#)
        #expect(noKey.status == 405, "an empty key is no instance's: \(noKey.status) \(noKey.text)")
    }

    // MARK: - Read

    @Test func anInstanceShowsItsStateOrItsConfigurationAndHistoryStates() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("media-player", key: "p")
        for input in ["play", "mute", "pause"] { try server.send("media-player", "p", input) }
        let read = try server.get("/machines/media-player/instances/p")
        #expect(read.status == 200 && read.header("ETag") == #""4""#, "\(read.text)")
        let player = try read.object()
        #expect(player["kind"] as? String == "statechart")
        #expect(player["state"] == nil)
        #expect(player["configuration"] as? [String] == ["paused"])
        #expect((player["history_states"] as? [String: [String]])?["lastPlayback"] == ["muted", "hd"])
        // Playing again brings the muted sound back, through the deep history.
        let resumed = try server.send("media-player", "p", "play")
        #expect((resumed["instance"] as? [String: Any])?["configuration"] as? [String] == ["muted", "hd"])

        try server.create("self-driving-car", key: "car")
        let car = try server.instance("self-driving-car", "car")
        #expect(car["state"] as? String == "unstarted" && car["configuration"] == nil && car["history_states"] == nil)

        let missing = try server.get("/machines/media-player/instances/nobody")
        #expect(missing.isProblem(404, naming: ["'nobody'"]), "\(missing.text)")
        let unknown = try server.get("/machines/jukebox/instances/p")
        #expect(unknown.isProblem(404, naming: ["'jukebox'"]), "\(unknown.text)")
    }

    @Test func machinesListsEachServedMachineWithItsKindAndTheInputsAClientSends() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let answer = try server.get("/machines")
        #expect(answer.status == 200)
        let machines = try #require(try answer.object()["machines"] as? [[String: Any]])
        #expect(machines.map { $0["name"] as? String } == ["self-driving-car", "media-player", "tally", "alarm"])
        #expect(machines.map { $0["kind"] as? String } == ["flat", "statechart", "flat", "flat"])
        let car = try #require(machines.first)
        let inputs = try #require(car["inputs"] as? [[String: Any]])
        #expect(inputs.first { $0["name"] as? String == "passengersHaveEntered" }?["arg"] as? String == "int")
        #expect(inputs.first { $0["name"] as? String == "startEngine" }?["arg"] is NSNull)
        // The media player's done events are its own to raise (it takes none of them), and the
        // alarm's `after` timer its own to fire: neither is an input a client sends.
        let player = try #require(machines[1]["inputs"] as? [[String: Any]])
        #expect(
            player.map { $0["name"] as? String } == ["play", "pause", "stop", "resume", "mute", "unmute", "lowBandwidth", "bandwidthRestored"],
            "\(player)")
        let alarm = try #require(machines.last?["inputs"] as? [[String: Any]])
        #expect(alarm.map { $0["name"] as? String } == ["arm", "disarm", "setLabel"])
        // Each instance is pinned to the definition it was created on: the fingerprint it shows.
        let made = try server.create("tally", key: "t")
        #expect(made["fingerprint"] as? String == machines[2]["fingerprint"] as? String)
    }

    // MARK: - Send

    @Test func aSendAnswersTheInstanceAndItsResultsAndARejectionIsA200RecordedInHistory() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("self-driving-car", key: "car")
        let started = try server.post("/machines/self-driving-car/instances/car/inputs", #"{"input":"startEngine"}"#)
        #expect(started.status == 200 && started.header("ETag") == #""2""#, "\(started.text)")
        let answer = try started.object()
        #expect((answer["instance"] as? [String: Any])?["state"] as? String == "parked")
        let results = try #require(answer["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["input"] as? String == "startEngine" && results.first?["to"] as? String == "parked")
        #expect(results.first?["line"] == nil, "results are smrun's JSON objects without `line`")

        // `"arg": null` is no argument, as a history entry shows one and as smrun's JSON Lines
        // take it: a client may send an entry's input and arg back as they are.
        let echoed = try server.post("/machines/self-driving-car/instances/car/inputs", #"{"input":"noMapInput","arg":null}"#)
        #expect(echoed.status == 200, "\(echoed.text)")
        let rejection = try #require((try echoed.object()["results"] as? [[String: Any]])?.first)
        #expect(JSONValue.bool(rejection["ok"]) == false && rejection["error"] as? String == "no-transition", "\(rejection)")
        let passengers = try server.send("self-driving-car", "car", "pickUpPassengers")
        #expect(JSONValue.int((passengers["instance"] as? [String: Any])?["version"]) == 4)
        try server.send("self-driving-car", "car", "passengersHaveEntered", arg: "4")
        try server.send("self-driving-car", "car", "driveToLocation", arg: #""The Witches Brew""#)
        let car = try server.instance("self-driving-car", "car")
        #expect(car["state"] as? String == "drivingToLocation")
        #expect((car["context"] as? [String: Any])?["location"] as? String == "The Witches Brew")
        #expect(JSONValue.int((car["context"] as? [String: Any])?["passengers"]) == 4)
        let inputs = try server.history("self-driving-car", "car").map { $0["input"] as? String }
        #expect(inputs == [nil, "startEngine", "noMapInput", "pickUpPassengers", "passengersHaveEntered", "driveToLocation"])
    }

    @Test func createTrueCreatesAMissingInstanceInTheSameTransactionAndWithoutItAMissingInstanceIs404() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let missing = try server.post("/machines/tally/instances/new/inputs", #"{"input":"add","arg":2}"#)
        #expect(missing.isProblem(404, naming: ["'new'"]), "\(missing.text)")
        #expect(try server.instances("tally").isEmpty)

        let created = try server.post("/machines/tally/instances/new/inputs", #"{"input":"add","arg":2,"create":true}"#)
        #expect(created.status == 200 && created.header("ETag") == #""2""#, "\(created.text)")
        let history = try server.history("tally", "new")
        #expect(history.map { JSONValue.bool($0["start"]) } == [true, false])
        #expect(history.last?["input"] as? String == "add" && JSONValue.int(history.last?["arg"]) == 2)
        // On an existing instance, `create` changes nothing but the input.
        let again = try server.post("/machines/tally/instances/new/inputs", #"{"input":"add","arg":3,"create":true}"#)
        #expect(JSONValue.int(((try again.object()["instance"] as? [String: Any])?["context"] as? [String: Any])?["total"]) == 5)
        #expect(try server.history("tally", "new").count == 3)
        // A refused input creates nothing either.
        let refused = try server.post("/machines/tally/instances/other/inputs", #"{"input":"subtract","create":true}"#)
        #expect(refused.isProblem(400, naming: ["'subtract'"]), "\(refused.text)")
        let badFlag = try server.post("/machines/tally/instances/other/inputs", #"{"input":"close","create":"yes"}"#)
        #expect(badFlag.isProblem(400, naming: ["'create'"]), "\(badFlag.text)")
        #expect(try server.instances("tally").map { $0["key"] as? String } == ["new"])
    }

    /// Every rejection is a 200 recorded in history: a finished instance's `finished`, a
    /// livelock's `step-limit`, an effect's `expression-error`.
    @Test func everyRejectionIsA200RecordedInHistory() throws {
        let files = try TemporaryFiles()
        let machines = [Paths.fixture("final-state.yaml"), Paths.fixture("livelock.yaml"), Paths.fixture("division-by-zero.yaml")]
        let server = try ServerProcess.start(files, machines: machines)
        let finished = try server.send("final-state", "f", "finish", arg: nil, create: true)
        #expect((finished["instance"] as? [String: Any])?["status"] as? String == "final")
        let restarted = try server.send("final-state", "f", "restart")
        #expect((restarted["results"] as? [[String: Any]])?.first?["error"] as? String == "finished")
        #expect(try server.instances("final-state", query: "status=final").count == 1)
        #expect(try server.instances("final-state", query: "status=running").isEmpty)

        let livelock = try server.send("livelock", "l", "tick", arg: nil, create: true)
        #expect((livelock["results"] as? [[String: Any]])?.last?["error"] as? String == "step-limit")
        let division = try server.send("division-by-zero", "d", "split", arg: "0", create: true)
        #expect((division["results"] as? [[String: Any]])?.first?["error"] as? String == "expression-error")
        for (machine, key) in [("final-state", "f"), ("livelock", "l"), ("division-by-zero", "d")] {
            let last = try server.history(machine, key).last
            #expect(((last?["results"] as? [[String: Any]])?.last?["error"] as? String) != nil, "\(machine): \(String(describing: last).prefix(300))")
        }
    }

    // MARK: - If-Match

    @Test func ifMatchOnASendOrADeleteIs412OnceTheInstanceMovedOn() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        let first = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":1}"#, headers: [("If-Match", #""1""#)])
        #expect(first.status == 200 && first.header("ETag") == #""2""#, "\(first.text)")
        // A second client that read version 1 is refused, and nothing is stored.
        let stale = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":10}"#, headers: [("If-Match", #""1""#)])
        #expect(stale.isProblem(412, naming: ["version 2"]), "\(stale.text)")
        #expect(JSONValue.int((try server.instance("tally", "t")["context"] as? [String: Any])?["total"]) == 1)
        // A list of versions, a weak tag and `*` match as RFC 9110 says.
        let listed = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":1}"#, headers: [("If-Match", #""1", W/"2""#)])
        #expect(listed.status == 200, "\(listed.text)")
        let any = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":1}"#, headers: [("If-Match", "*")])
        #expect(any.status == 200 && any.header("ETag") == #""4""#, "\(any.text)")
        let malformed = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":1}"#, headers: [("If-Match", "4")])
        #expect(malformed.isProblem(400, naming: ["If-Match"]), "\(malformed.text)")

        let staleDelete = try server.delete("/machines/tally/instances/t", headers: [("If-Match", #""3""#)])
        #expect(staleDelete.isProblem(412, naming: ["version 4"]), "\(staleDelete.text)")
        #expect(try server.get("/machines/tally/instances/t").status == 200)
        let deleted = try server.delete("/machines/tally/instances/t", headers: [("If-Match", #""4""#)])
        #expect(deleted.status == 204 && deleted.body.isEmpty, "\(deleted.text)")
    }

    @Test func anyIfMatchOnAMissingInstanceIs412EvenWithCreateTrue() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        for tag in [#""1""#, "*"] {
            for body in [#"{"input":"add","arg":1}"#, #"{"input":"add","arg":1,"create":true}"#] {
                let answer = try server.post("/machines/tally/instances/ghost/inputs", body, headers: [("If-Match", tag)])
                #expect(answer.isProblem(412, naming: ["'ghost'"]), "If-Match \(tag), \(body): \(answer.text)")
            }
            let delete = try server.delete("/machines/tally/instances/ghost", headers: [("If-Match", tag)])
            #expect(delete.isProblem(412, naming: ["'ghost'"]), "DELETE with If-Match \(tag): \(delete.text)")
        }
        #expect(try server.delete("/machines/tally/instances/ghost").isProblem(404, naming: ["'ghost'"]))
        #expect(try server.instances("tally").isEmpty)
    }

    // MARK: - Idempotency-Key

    @Test func aRepeatedSendWithTheSameIdempotencyKeyGetsTheFirstAnswerAndIsAppliedOnce() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        let key = ("Idempotency-Key", "pay-42")
        let first = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":5}"#, headers: [key])
        #expect(first.status == 200 && first.header("ETag") == #""2""#, "\(first.text)")
        try server.send("tally", "t", "add", arg: "100")
        // An equal JSON body (spelled differently), after the instance moved on and with an
        // If-Match that no longer holds: the first answer, byte for byte, checked before If-Match.
        let repeated = try server.post(
            "/machines/tally/instances/t/inputs", "{ \"input\" : \"add\", \"arg\" : 5 }", headers: [key, ("If-Match", #""1""#)])
        #expect(repeated.status == 200, "\(repeated.text)")
        #expect(repeated.header("ETag") == #""2""#)
        #expect(repeated.body == first.body)
        let instance = try server.instance("tally", "t")
        #expect(JSONValue.int((instance["context"] as? [String: Any])?["total"]) == 105)
        #expect(JSONValue.int(instance["version"]) == 3)

        let different = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":6}"#, headers: [key])
        #expect(different.isProblem(422, naming: ["Idempotency-Key"]), "\(different.text)")
        // The key's scope is the instance: another instance may use it.
        try server.create("tally", key: "u")
        let elsewhere = try server.post("/machines/tally/instances/u/inputs", #"{"input":"add","arg":6}"#, headers: [key])
        #expect(elsewhere.status == 200, "\(elsewhere.text)")
        // A 4xx answer is not recorded: the key stays free for a corrected request.
        let wrong = try server.post("/machines/tally/instances/t/inputs", #"{"input":"ad","arg":1}"#, headers: [("Idempotency-Key", "fix")])
        #expect(wrong.status == 400)
        let fixed = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":1}"#, headers: [("Idempotency-Key", "fix")])
        #expect(fixed.status == 200, "\(fixed.text)")
        #expect(JSONValue.int(try server.instance("tally", "t")["version"]) == 4)
    }

    /// A record is kept for `--idempotency-ttl` and no longer: a repeat after it is a new
    /// request (it was answered from the record until the timers' round deleted it, up to a
    /// minute later), and its key takes another body.
    @Test func anIdempotencyKeyIsForgottenWhenItsTimeIsUp() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, arguments: ["--idempotency-ttl", "1s"])
        try server.create("tally", key: "t")
        let key = ("Idempotency-Key", "pay-1")
        let first = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":5}"#, headers: [key])
        let repeated = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":5}"#, headers: [key])
        #expect(first.header("ETag") == #""2""# && repeated.header("ETag") == #""2""#, "\(repeated.text)")
        Thread.sleep(forTimeInterval: 1.5)
        let late = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":5}"#, headers: [key])
        #expect(late.status == 200 && late.header("ETag") == #""3""#, "\(late.status) \(late.text)")
        Thread.sleep(forTimeInterval: 1.5)
        let other = try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":6}"#, headers: [key])
        #expect(other.status == 200 && other.header("ETag") == #""4""#, "\(other.status) \(other.text)")
        #expect(JSONValue.int((try server.instance("tally", "t")["context"] as? [String: Any])?["total"]) == 16)
    }

    @Test func aRepeatedCreateWithTheSameIdempotencyKeyGets201AgainAndCreatesOnce() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let key = ("Idempotency-Key", "signup-7")
        let first = try server.post("/machines/tally/instances", #"{"context":{"total":3}}"#, headers: [key])
        #expect(first.status == 201, "\(first.text)")
        let location = try #require(first.header("Location"))
        let repeated = try server.post("/machines/tally/instances", #"{"context":{"total":3}}"#, headers: [key])
        #expect(repeated.status == 201 && repeated.header("Location") == location && repeated.header("ETag") == #""1""#)
        #expect(repeated.body == first.body)
        #expect(try server.instances("tally").count == 1)
        let different = try server.post("/machines/tally/instances", #"{"context":{"total":4}}"#, headers: [key])
        #expect(different.isProblem(422, naming: ["Idempotency-Key"]), "\(different.text)")
        // The scope of a create's key is the machine: the same key on another machine is new.
        let other = try server.post("/machines/alarm/instances", #"{"context":{"total":3}}"#, headers: [key])
        #expect(other.isProblem(400, naming: ["'total'"]), "\(other.text)")
        #expect(try server.post("/machines/alarm/instances", "{}", headers: [key]).status == 201)
    }

    /// The same request sent at once by many clients: with one Idempotency-Key, the repeats
    /// wait for the first and get its answer, and it is applied once; creates of one key
    /// without one make one instance, and the others are 409.
    @Test func concurrentRepeatsOfOneRequestAreAppliedOnce() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        let group = DispatchGroup()
        let sent = CollectedAnswers()
        let created = CollectedAnswers()
        for index in 0..<16 {
            group.enter()
            Thread {
                defer { group.leave() }
                if index % 2 == 0 {
                    let answer = try? server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":7}"#, headers: [("Idempotency-Key", "once")])
                    sent.append(answer)
                } else {
                    let answer = try? server.post("/machines/tally/instances", #"{"key":"raced"}"#)
                    created.append(answer)
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        let (sends, creates) = (sent.all, created.all)
        #expect(sends.count == 8 && sends.allSatisfy { $0.status == 200 && $0.body == sends[0].body && $0.header("ETag") == #""2""# })
        let instance = try server.instance("tally", "t")
        #expect(JSONValue.int(instance["version"]) == 2 && JSONValue.int((instance["context"] as? [String: Any])?["total"]) == 7)
        #expect(creates.map(\.status).sorted() == [201, 409, 409, 409, 409, 409, 409, 409], "\(creates.map(\.status))")
        #expect(try server.history("tally", "raced").count == 1)
    }

    // MARK: - Lists and history

    @Test func listingByStateMatchesAParentStateAndPagesByKey() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        for key in ["p0", "p1", "p2", "p3", "p4"] { try server.create("media-player", key: key) }
        for key in ["p0", "p1", "p2"] { try server.send("media-player", key, "play") }
        try server.send("media-player", "p2", "pause")
        try server.send("media-player", "p1", "mute")

        func keys(_ query: String) throws -> [String] { try server.instances("media-player", query: query).compactMap { $0["key"] as? String } }
        // `active` is a parent: its children's instances match, playing or paused.
        #expect(try keys("state=active") == ["p0", "p1", "p2"])
        #expect(try keys("state=playing") == ["p0", "p1"])
        #expect(try keys("state=audio") == ["p0", "p1"])
        #expect(try keys("state=muted") == ["p1"])
        #expect(try keys("state=paused") == ["p2"])
        #expect(try keys("state=stopped") == ["p3", "p4"])
        #expect(try keys("state=active&status=running") == ["p0", "p1", "p2"])
        #expect(try keys("status=final").isEmpty)

        // Pages of 2, oldest... smallest key first, with an opaque `next` until the last.
        let page1 = try server.get("/machines/media-player/instances?state=active&limit=2").object()
        #expect((page1["instances"] as? [[String: Any]])?.map { $0["key"] as? String } == ["p0", "p1"])
        let next = try #require(page1["next"] as? String)
        let page2 = try server.get("/machines/media-player/instances?state=active&limit=2&cursor=\(next)").object()
        #expect((page2["instances"] as? [[String: Any]])?.map { $0["key"] as? String } == ["p2"])
        #expect(page2["next"] is NSNull)
        let all = try server.get("/machines/media-player/instances?limit=3").object()
        #expect((all["instances"] as? [[String: Any]])?.count == 3 && all["next"] is String)
        #expect(try keys("") == ["p0", "p1", "p2", "p3", "p4"])

        let unknownState = try server.get("/machines/media-player/instances?state=rewinding")
        #expect(unknownState.isProblem(400, naming: ["'rewinding'"]), "\(unknownState.text)")
        let badStatus = try server.get("/machines/media-player/instances?status=paused")
        #expect(badStatus.isProblem(400, naming: ["status"]), "\(badStatus.text)")
        let badCursor = try server.get("/machines/media-player/instances?cursor=!!!")
        #expect(badCursor.isProblem(400, naming: ["cursor"]), "\(badCursor.text)")
        for limit in ["0", "1001", "-1", "ten"] {
            let answer = try server.get("/machines/media-player/instances?limit=\(limit)")
            #expect(answer.isProblem(400, naming: ["limit"]), "limit=\(limit): \(answer.text)")
        }
        #expect(try server.get("/machines/media-player/instances?limit=1000").status == 200)
        #expect(try server.get("/machines/jukebox/instances").isProblem(404, naming: ["'jukebox'"]))
    }

    @Test func historyListsEveryEntryOldestFirstInPages() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        try server.create("tally", key: "t")
        for n in 1...4 { try server.send("tally", "t", "add", arg: "\(n)") }
        try server.send("tally", "t", "close")
        try server.send("tally", "t", "add", arg: "9")  // rejected: recorded all the same

        let page1 = try server.get("/machines/tally/instances/t/history?limit=3").object()
        let entries1 = try #require(page1["entries"] as? [[String: Any]])
        #expect(entries1.map { JSONValue.int($0["seq"]) } == [1, 2, 3])
        #expect(page1["next"] as? String != nil)
        let start = entries1[0]
        #expect(JSONValue.bool(start["start"]) == true)
        #expect(start["input"] is NSNull && start["arg"] is NSNull && start["timer"] is NSNull)
        #expect((start["results"] as? [Any])?.isEmpty == true)
        #expect(isTimestamp(start["at"]))
        let add = entries1[1]
        #expect(JSONValue.bool(add["start"]) == false && add["input"] as? String == "add" && JSONValue.int(add["arg"]) == 1)
        #expect(add["timer"] is NSNull)
        #expect((add["results"] as? [[String: Any]])?.first?["to"] as? String == "open")

        let page2 = try server.get("/machines/tally/instances/t/history?limit=3&after=\(page1["next"] as? String ?? "")").object()
        let entries2 = try #require(page2["entries"] as? [[String: Any]])
        #expect(entries2.map { JSONValue.int($0["seq"]) } == [4, 5, 6])
        let page3 = try server.get("/machines/tally/instances/t/history?limit=3&after=\(page2["next"] as? String ?? "")").object()
        let entries3 = try #require(page3["entries"] as? [[String: Any]])
        #expect(entries3.map { JSONValue.int($0["seq"]) } == [7])
        #expect(page3["next"] is NSNull)
        let rejected = try #require((entries3.first?["results"] as? [[String: Any]])?.first)
        #expect(rejected["error"] as? String == "no-transition")
        // The instance's version is the seq of its last entry.
        #expect(JSONValue.int(try server.instance("tally", "t")["version"]) == 7)

        for query in ["limit=0", "limit=1001", "after=-1", "after=x"] {
            let answer = try server.get("/machines/tally/instances/t/history?\(query)")
            #expect(answer.status == 400 && answer.header("Content-Type") == "application/problem+json", "\(query): \(answer.text)")
        }
        #expect(try server.get("/machines/tally/instances/nobody/history").isProblem(404, naming: ["'nobody'"]))
    }

    // MARK: - Delete

    @Test func deleteRemovesTheInstanceItsHistoryAndItsIdempotencyRecords() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let created = try server.post("/machines/tally/instances", #"{"key":"d"}"#, headers: [("Idempotency-Key", "make-d")])
        #expect(created.status == 201)
        let sent = try server.post("/machines/tally/instances/d/inputs", #"{"input":"add","arg":1}"#, headers: [("Idempotency-Key", "add-d")])
        #expect(sent.status == 200)
        try server.create("tally", key: "kept")

        let deleted = try server.delete("/machines/tally/instances/d")
        #expect(deleted.status == 204 && deleted.body.isEmpty, "\(deleted.text)")
        #expect(try server.get("/machines/tally/instances/d").isProblem(404))
        #expect(try server.get("/machines/tally/instances/d/history").isProblem(404))
        #expect(try server.post("/machines/tally/instances/d/inputs", #"{"input":"add","arg":1}"#).isProblem(404))
        #expect(try server.delete("/machines/tally/instances/d").isProblem(404))
        #expect(try server.instances("tally").map { $0["key"] as? String } == ["kept"])

        // Its keys' records went with it: a different body under them is no longer a 422.
        let recreated = try server.post("/machines/tally/instances", #"{"key":"d","context":{"total":50}}"#, headers: [("Idempotency-Key", "make-d")])
        #expect(recreated.status == 201, "\(recreated.text)")
        #expect(JSONValue.int((try recreated.object()["context"] as? [String: Any])?["total"]) == 50)
        let resent = try server.post("/machines/tally/instances/d/inputs", #"{"input":"add","arg":2}"#, headers: [("Idempotency-Key", "add-d")])
        #expect(resent.status == 200, "\(resent.text)")
        // A new instance under the old key starts a new history.
        #expect(try server.history("tally", "d").map { JSONValue.int($0["seq"]) } == [1, 2])
    }

    // MARK: - The server's own pages

    /// An input's outcome is its answer's own first result's: not a list or a record of the
    /// instance's context that happens to be named `results` or `error`. An answer given again
    /// for a repeated `Idempotency-Key` is read from its bytes alone, and counts the same.
    @Test func theMetricsCountEachInputByItsOwnOutcome() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: [Paths.fixture("serve/quiz.yaml")])
        try server.create("quiz", key: "q")
        try server.send("quiz", "q", "answer")
        let first = try server.post("/machines/quiz/instances/q/inputs", #"{"input":"answer"}"#, headers: [("Idempotency-Key", "a2")])
        let again = try server.post("/machines/quiz/instances/q/inputs", #"{"input":"answer"}"#, headers: [("Idempotency-Key", "a2")])
        #expect(first.status == 200 && again.status == 200 && again.text == first.text, "\(again.text)")
        let metrics = try server.get("/metrics")
        #expect(metrics.text.contains(#"statecraft_inputs_total{outcome="accepted"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"statecraft_inputs_total{outcome="finished"} 2"#), "\(metrics.text)")
        #expect(!metrics.text.contains(#"outcome="none""#), "\(metrics.text)")
    }

    /// A timer that fires in an input's transaction (here one the input starts, due at once)
    /// is timed like those the timers' rounds fire: `statecraft_timer_lateness_seconds` counts
    /// it.
    @Test func aTimerFiredByAnInputCountsInTheLatenessMetric() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "prompt.yaml",
            """
            machine: prompt
            initial: idle
            inputs:
              go:
            states: [idle, waiting, finished]
            transitions:
              - go | idle => waiting
              - after: 0s
                from: waiting
                to: finished
            """)
        let server = try ServerProcess.start(files, machines: [machine])
        try server.create("prompt", key: "p")
        let sent = try server.send("prompt", "p", "go")
        #expect(JSONValue.int((sent["instance"] as? [String: Any])?["version"]) == 3, "\(sent)")
        let metrics = try server.get("/metrics")
        #expect(metrics.text.contains("statecraft_timer_lateness_seconds_count 1"), "\(metrics.text)")
    }

    @Test func healthzMetricsTheHomePageAndTheOpenAPIDocumentAnswer() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let health = try server.get("/healthz")
        #expect(health.status == 200 && health.header("Content-Type") == "application/json")
        try server.create("tally", key: "t")
        try server.send("tally", "t", "add", arg: "1")
        try server.send("tally", "t", "close")
        try server.send("tally", "t", "add", arg: "1")
        #expect(try server.post("/machines/tally/instances/t/inputs", #"{"input":"add","arg":"one"}"#).status == 400)
        let metrics = try server.get("/metrics")
        #expect(metrics.status == 200 && metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"statecraft_inputs_total{outcome="accepted"} 2"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"statecraft_inputs_total{outcome="no-transition"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"statecraft_inputs_total{outcome="http-400"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains("statecraft_input_seconds_bucket"))
        for gauge in ["statecraft_instances", "statecraft_pending_timers"] {
            #expect(metrics.text.contains(gauge), "\(gauge) missing: \(metrics.text)")
        }
        let home = try server.get("/")
        #expect(home.status == 200 && home.header("Content-Type")?.hasPrefix("text/html") == true && home.text.contains("/openapi.json"))
        let document = try server.get("/openapi.json")
        #expect(document.status == 200 && document.header("Content-Type") == "application/json")
        #expect((try document.object()["openapi"] as? String)?.hasPrefix("3.1") == true)
        let committed = try Data(contentsOf: Paths.packageRoot.appendingPathComponent("Sources/StatecraftServer/openapi.json"))
        #expect(Data(document.body) == committed, "the server serves the committed document")
        let noRoute = try server.get("/machines/tally/nothing")
        #expect(noRoute.isProblem(404, naming: ["/machines/tally/nothing"]), "\(noRoute.text)")
    }
}
