import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun run MACHINE --by-key --store FILE`: a keyed run's instances kept in the store that
/// `smrun serve` keeps (docs/cli.md): the real binary on a real SQLite file.
struct KeyedStoreTests {
    static let car = "machines/self-driving-car.yaml"

    /// The car's script without comments: what each key of a log follows.
    static func carInputs() throws -> [String] {
        let script = try String(contentsOf: Paths.packageRoot.appendingPathComponent("machines/self-driving-car.script"), encoding: .utf8)
        return script.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    }

    /// What `smrun instances history --format json` prints for an instance: its entries.
    static func history(_ store: String, _ machine: String, _ key: String) throws -> [[String: Any]] {
        let output = try Smrun.run(["instances", "history", "--store", store, "--format", "json", machine, key])
        try #require(output.exited(0), "\(output.errorText)")
        let page = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        return page["entries"] as? [[String: Any]] ?? []
    }

    static func instance(_ store: String, _ machine: String, _ key: String) throws -> [String: Any] {
        let output = try Smrun.run(["instances", "show", "--store", store, "--format", "json", machine, key])
        try #require(output.exited(0), "\(output.errorText)")
        return try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
    }

    /// A key that starts with `@` is an instance in the store as on the server, under its key.
    @Test func aKeyStartingWithAnAtIsKeptUnderItsKey() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        let output = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("@car:1 startEngine\n@car:1 driveAround\n".utf8)))
        #expect(output.exited(0), "\(output.errorText)")
        let instance = try Self.instance(store, "self-driving-car", "@car:1")
        #expect(instance["key"] as? String == "@car:1")
        #expect(instance["state"] as? String == "drivingAround")
        #expect(try Self.history(store, "self-driving-car", "@car:1").map { $0["input"] as? String } == [nil, "startEngine", "driveAround"])
    }

    /// A second log goes on with the instances the first one left in the store: their state,
    /// their history (entry 1 the creation, then one entry per input) and the log's clock.
    @Test func aSecondLogContinuesTheInstancesOfTheFirst() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        let first = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("a startEngine\nb startEngine\n".utf8)))
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.lines == ["a: startEngine: unstarted -> parked", "b: startEngine: unstarted -> parked"])
        #expect(first.errorLines == ["smrun: committed through line 2 to \(store)"])

        let second = try Smrun.run(
            [Self.car, "--by-key", "--store", store, "--format", "json"], input: .bytes(Data("a driveAround\nc startEngine\nb park\n".utf8)))
        #expect(second.exited(1), "\(second.errorText)")
        let results = try second.jsonLines()
        #expect(results.map { $0["key"] as? String } == ["a", "c", "b"])
        #expect(results[0]["from"] as? String == "parked" && results[0]["to"] as? String == "drivingAround")
        #expect(results[2]["error"] as? String == "no-transition")

        let a = try Self.history(store, "self-driving-car", "a")
        #expect(a.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(a.map { $0["start"] as? Bool } == [true, false, false])
        #expect(a.map { $0["input"] as? String } == [nil, "startEngine", "driveAround"])
        #expect(try Self.instance(store, "self-driving-car", "a")["state"] as? String == "drivingAround")
        // A rejection is an entry, as on the server.
        let b = try Self.history(store, "self-driving-car", "b")
        #expect(b.count == 3)
        #expect(((b.last?["results"] as? [[String: Any]])?.first?["error"]) as? String == "no-transition")
        #expect(try Self.instance(store, "self-driving-car", "c")["version"] as? Int == 2)
    }

    /// Timers fire in the store as on standard output, and a second log's clock goes on from
    /// the first's.
    @Test func timersFireInTheStoreAndTheClockGoesOn() throws {
        let files = try TemporaryFiles()
        let store = files.path("lights.sqlite")
        let light = "machines/timed-traffic-light.yaml"
        let first = try Smrun.run([light, "--by-key", "--store", store], input: .bytes(Data("l1 button\n@wait 30s\n".utf8)))
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.lines == ["l1: start: -> red / stop", "l1: button: red -> red", "l1: after 30s: red -> green / go"])
        let entries = try Self.history(store, "timed-traffic-light", "l1")
        #expect(entries.map { $0["timer"] == nil || $0["timer"] is NSNull } == [true, true, false])
        #expect(entries.last?["at"] as? String == "1970-01-01T00:00:30.000Z")

        // The green light's 25 s run on from 30 s: due at 55 s.
        let second = try Smrun.run([light, "--by-key", "--store", store], input: .bytes(Data("@wait 25s\n".utf8)))
        #expect(second.lines == ["l1: after 25s: green -> yellow / endCrossing, slow"], "\(second.errorText)")
        #expect(try Self.history(store, "timed-traffic-light", "l1").last?["at"] as? String == "1970-01-01T00:00:55.000Z")
    }

    /// A log whose last lines move the clock and fire nothing still leaves it there: the next
    /// log goes on from it, as one log of both would (the store keeps where each machine's logs
    /// left the clock, not only its instances' times).
    @Test func aWaitAtTheEndOfALogMovesTheNextLogsClock() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        let first = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("x startEngine\n@wait 1m\n".utf8)))
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.errorLines.last == "smrun: committed through line 2 to \(store)", "\(first.errorText)")
        #expect(try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("y startEngine\n".utf8))).exited(0))
        #expect(try Self.instance(store, "self-driving-car", "y")["created"] as? String == "1970-01-01T00:01:00.000Z")
        #expect(try Self.instance(store, "self-driving-car", "x")["created"] as? String == "1970-01-01T00:00:00.000Z")
        // Nothing moved: nothing to commit or say.
        let idle = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("# nothing\n".utf8)))
        #expect(idle.exited(0) && idle.errorLines.isEmpty, "\(idle.errorText)")
    }

    /// A statechart's active-state rows (what `list --state` reads) are its configuration and
    /// every ancestor after each input, whether each line is a log of its own or one log holds
    /// them all (its writes of one instance then go to the store as one): the store changes only
    /// the rows that differ.
    @Test func aStatechartsActiveStateRowsFollowItsConfiguration() throws {
        let files = try TemporaryFiles()
        let store = files.path("players.sqlite")
        let player = "machines/media-player.yaml"
        let parents = ["sound": "audio", "muted": "audio", "hd": "video", "sd": "video", "audio": "playing", "video": "playing",
            "playing": "active", "paused": "active"]
        func expectRowsFollow(_ key: String, after line: String) throws {
            let configuration = try #require(try Self.instance(store, "media-player", key)["configuration"] as? [String])
            var expected = Set<String>()
            for state in configuration {
                var next: String? = state
                while let current = next { expected.insert(current); next = parents[current] }
            }
            let rows = try Self.sqlite(store, "SELECT state FROM active_states WHERE key = '\(key)'").split(separator: "\n").map(String.init)
            #expect(Set(rows) == expected && rows.count == expected.count, "\(key) after \(line): \(rows)")
        }
        let script = try String(contentsOf: Paths.packageRoot.appendingPathComponent("machines/media-player.script"), encoding: .utf8)
        let lines = script.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        for line in lines {
            _ = try Smrun.run([player, "--by-key", "--store", store], input: .bytes(Data("one \(line)\n".utf8)))
            try expectRowsFollow("one", after: String(line))
        }
        _ = try Smrun.run([player, "--by-key", "--store", store], input: .bytes(Data(lines.map { "all \($0)\n" }.joined().utf8)))
        try expectRowsFollow("all", after: "the whole script")
        #expect(try Self.instance(store, "media-player", "all")["configuration"] as? [String] == Self.instance(store, "media-player", "one")["configuration"] as? [String])
    }

    /// `smrun instances migrate` on a keyed run's store leaves the instances' times on the
    /// log's clock (a migration is no entry): the next log's clock goes on from the first's,
    /// not from the wall clock's time of the migration.
    @Test func aMigrationLeavesTheLogsClock() throws {
        let files = try TemporaryFiles()
        let store = files.path("lights.sqlite")
        let light = "machines/timed-traffic-light.yaml"
        #expect(try Smrun.run([light, "--by-key", "--store", store], input: .bytes(Data("l1 button\n@wait 30s\n".utf8))).exited(0))
        var edited = try String(contentsOf: Paths.packageRoot.appendingPathComponent(light), encoding: .utf8)
        edited = edited.replacingOccurrences(of: "  button:\n", with: "  button:\n  honk:\n")
        let file = try files.file("timed-traffic-light.yaml", edited)
        let migrated = try Smrun.run(["instances", "migrate", "--store", store, file])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.lines.count == 1 && migrated.lines[0].hasPrefix("l1: "), "\(migrated.lines)")
        #expect(try Self.instance(store, "timed-traffic-light", "l1")["updated"] as? String == "1970-01-01T00:00:30.000Z")
        let second = try Smrun.run([file, "--by-key", "--store", store], input: .bytes(Data("@wait 25s\n".utf8)))
        #expect(second.lines == ["l1: after 25s: green -> yellow / endCrossing, slow"], "\(second.errorText)")
        #expect(try Self.history(store, "timed-traffic-light", "l1").last?["at"] as? String == "1970-01-01T00:00:55.000Z")
    }

    /// Results go out only once their lines are committed: killed with SIGKILL while it runs,
    /// smrun leaves a prefix of the log in the store, its last `committed through line N`
    /// names that prefix, and no result of a later line was printed.
    @Test func aKilledRunLeavesAPrefixNamedOnStandardError() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        let inputs = try Self.carInputs()
        let keys = 1_000
        let lineCount = 600_000
        var log = ""
        log.reserveCapacity(lineCount * 28)
        for line in 0..<lineCount { log += "k\(line % keys) \(inputs[(line / keys) % inputs.count])\n" }
        let run = try SmrunProcess([Self.car, "--by-key", "--store", store, "--format", "json"], input: nil)
        run.feed(Data(log.utf8))
        // The first result is out once the first commit is.
        let first = try #require(try run.readLine(timeout: .seconds(120)))
        kill(run.pid, SIGKILL)
        var printed = [first]
        while let line = try run.readLine(timeout: .seconds(30)) { printed.append(line) }
        let output = try run.finish(output: nil, timeout: .seconds(30))
        #expect(output.signalled && output.status == SIGKILL)

        let committed = output.errorLines.compactMap { line in
            line.hasPrefix("smrun: committed through line ") ? Int(line.dropFirst("smrun: committed through line ".count).prefix { $0.isNumber }) : nil
        }
        let last = try #require(committed.last, "\(output.errorText)")
        #expect(last < lineCount, "the run ended before it was killed")
        // Every line of the log is an input of the car: one entry each, after its key's creation.
        let stored = try Self.sqlite(store, "SELECT count(*) FROM history WHERE kind = 'input'")
        #expect(stored == "\(last)")
        let created = try Self.sqlite(store, "SELECT count(*) FROM history WHERE kind = 'start'")
        #expect(created == "\(min(keys, last))")
        let lines = try printed.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["line"] as? Int ?? 0 }
        #expect(lines.max() ?? 0 <= last)
    }

    static func sqlite(_ store: String, _ query: String) throws -> String {
        let sqlite = Process()
        let output = Pipe()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", store, query]
        sqlite.standardOutput = output
        try sqlite.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        sqlite.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aStoreThatCannotBeOpenedIsAnErrorNamingIt() throws {
        let files = try TemporaryFiles()
        let notADatabase = try files.file("notes.txt", "these are notes, not a store\n")
        for store in [files.path("no-such-directory/cars.sqlite"), files.directory.path, notADatabase] {
            let output = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("a startEngine\n".utf8)))
            #expect(output.exited(2), "\(store): \(output.errorText)")
            #expect(output.errorText.contains("--store \(store)"), "\(output.errorText)")
            #expect(output.stdout.isEmpty)
        }
        #expect(try String(contentsOfFile: notADatabase, encoding: .utf8) == "these are notes, not a store\n")
    }

    @Test func storeNeedsByKeyAndTheServersLimits() throws {
        for options in [["--store", "s.sqlite"], ["--by-key", "--store", "s.sqlite", "--max-steps", "5"]] {
            let output = try Smrun.run([Self.car] + options)
            #expect(output.exited(2), "\(options)")
            #expect(output.errorText.contains("--store"), "\(options): \(output.errorText)")
        }
    }

    /// A key that no instance may have is named, its line skipped, and the run goes on.
    @Test func aKeyTheStoreCannotKeepIsSkippedByName() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        let output = try Smrun.run(
            [Self.car, "--by-key", "--store", store], input: .bytes(Data("a/b startEngine\n.hidden startEngine\nok startEngine\n".utf8)))
        #expect(output.exited(1))
        #expect(output.lines == ["ok: startEngine: unstarted -> parked"])
        #expect(output.errorLines.contains { $0.hasPrefix("smrun: line 1: skipped: key 'a/b' is no instance key") }, "\(output.errorText)")
        #expect(output.errorLines.contains { $0.hasPrefix("smrun: line 2: skipped: key '.hidden' is no instance key") }, "\(output.errorText)")
    }

    /// An instance created on another definition of the machine is refused by name, line by
    /// line; the others run.
    @Test func anInstanceOfAnotherDefinitionIsRefusedByName() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        _ = try Smrun.run([Self.car, "--by-key", "--store", store], input: .bytes(Data("old startEngine\n".utf8)))
        var edited = try String(contentsOf: Paths.packageRoot.appendingPathComponent(Self.car), encoding: .utf8)
        edited += "  - noMapInput | parked\n"
        let file = try files.file("self-driving-car.yaml", edited)
        let output = try Smrun.run([file, "--by-key", "--store", store], input: .bytes(Data("old park\nnew startEngine\n".utf8)))
        #expect(output.exited(1))
        #expect(output.lines == ["new: startEngine: unstarted -> parked"])
        #expect(
            output.errorLines.contains { $0.hasPrefix("smrun: line 1: skipped: instance 'old' runs on definition sha256:") && $0.contains("smrun instances migrate") },
            "\(output.errorText)")
        #expect(try Self.history(store, "self-driving-car", "old").count == 2)
    }
}

/// `--by-key --store` and `smrun serve` agree: the same inputs give the same instances and
/// histories, times aside; and a server's store, on the real clock, is refused.
@Suite(.servedEndToEnd) struct KeyedStoreServerTests {
    /// Drops what differs between the virtual clock and the real one: the times.
    static func timeless(_ object: [String: Any]) -> NSDictionary {
        var object = object
        // The server runs on the real clock, the offline run on a virtual one: their times differ.
        for time in ["created", "updated", "at", "clock", "now"] { object[time] = nil }
        return NSDictionary(dictionary: object)
    }

    @Test func aLogReplayedOfflineAndTheSameInputsSentToAServerAgree() throws {
        let files = try TemporaryFiles()
        let inputs = try KeyedStoreTests.carInputs()
        var lines: [(key: String, input: String)] = []
        for (index, input) in inputs.enumerated() {
            lines.append(("x", input))
            if index % 2 == 0 { lines.append(("y", input)) }
        }
        let player = ["play", "mute", "lowBandwidth", "pause", "play", "stop", "resume", "unmute"]
        lines += player.map { ("p", $0) }
        let offline = files.path("offline.sqlite")
        let carLog = lines.filter { $0.key != "p" }.map { "\($0.key) \($0.input)\n" }.joined()
        let playerLog = lines.filter { $0.key == "p" }.map { "\($0.key) \($0.input)\n" }.joined()
        _ = try Smrun.run([ServedMachines.car, "--by-key", "--store", offline], input: .bytes(Data(carLog.utf8)))
        let played = try Smrun.run([ServedMachines.player, "--by-key", "--store", offline], input: .bytes(Data(playerLog.utf8)))
        #expect(played.exited(0), "\(played.errorText)")

        let server = try ServerProcess.start(files, machines: [ServedMachines.car, ServedMachines.player])
        for (key, line) in lines {
            let machine = key == "p" ? "media-player" : "self-driving-car"
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            // A script's string argument is JSON-quoted here or written bare.
            let arg = parts.count > 1 ? (parts[1].hasPrefix("\"") || Int(parts[1]) != nil ? parts[1] : "\"\(parts[1])\"") : nil
            try server.send(machine, key, parts[0], arg: arg, create: true)
        }
        for (machine, key) in [("self-driving-car", "x"), ("self-driving-car", "y"), ("media-player", "p")] {
            #expect(Self.timeless(try server.instance(machine, key)) == Self.timeless(try KeyedStoreTests.instance(offline, machine, key)), "\(key)")
            let served = try server.history(machine, key).map(Self.timeless)
            let replayed = try KeyedStoreTests.history(offline, machine, key).map(Self.timeless)
            #expect(served == replayed, "\(key)")
            #expect(replayed.count > 2)
        }
    }

    @Test func aStoreOnTheRealClockIsRefused() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: [ServedMachines.car])
        try server.send("self-driving-car", "a", "startEngine", create: true)
        _ = server.stop()
        let output = try Smrun.run(
            [ServedMachines.car, "--by-key", "--store", server.store], input: .bytes(Data("a driveAround\n".utf8)))
        #expect(output.exited(2))
        #expect(output.errorText.contains("the store's instances run on the real clock, and this run uses the virtual clock"), "\(output.errorText)")
        #expect(output.stdout.isEmpty)
    }
}
