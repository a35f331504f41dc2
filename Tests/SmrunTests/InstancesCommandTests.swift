import Foundation
import Testing

/// `smrun instances list|show|history|delete|migrate` on the store `smrun serve` keeps.
@Suite(.servedEndToEnd) struct InstancesCommandTests {
    /// A store with three orders: two awaiting payment, one paid.
    static func orders(in files: TemporaryFiles) throws -> String {
        let store = files.path("orders.sqlite")
        let server = try ServerProcess(["docs/examples/order.yaml"], store: store)
        for key in ["A-1", "A-2", "A-3"] { _ = try server.send("order", key, "place", arg: "100", create: true) }
        _ = try server.send("order", "A-2", "paymentSucceeded")
        _ = server.stop()
        return store
    }

    /// `--store` names a file, whatever it looks like: `file:orders.sqlite` is a file of that
    /// name for `run --by-key` and `instances` alike (SQLite would have taken it for a URI, and
    /// `serve` did), and an empty name is refused by name.
    @Test func aStoreNamedLikeASQLiteURIIsAFileForEveryCommand() throws {
        let files = try TemporaryFiles()
        func smrun(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, errors: String) {
            let process = Process()
            process.executableURL = try Paths.smrun()
            process.arguments = arguments
            process.currentDirectoryURL = files.directory
            let standardInput = Pipe()
            let output = Pipe()
            let errors = Pipe()
            (process.standardInput, process.standardOutput, process.standardError) = (standardInput, output, errors)
            try process.run()
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaints = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complaints, as: UTF8.self))
        }
        let tally = Paths.packageRoot.appendingPathComponent(ServedMachines.tally).path
        let ran = try smrun(["run", tally, "--by-key", "--store", "file:orders.sqlite"], input: "k add 1\n")
        #expect(ran.status == 0, "\(ran.errors)")
        #expect(FileManager.default.fileExists(atPath: files.path("file:orders.sqlite")))
        let listed = try smrun(["instances", "list", "--store", "file:orders.sqlite", "tally", "--format", "json"])
        #expect(listed.status == 0 && listed.output.contains(#""key":"k""#), "\(listed.output) \(listed.errors)")

        let unnamed = try Smrun.run(["serve", ServedMachines.tally, "--store", ""])
        #expect(unnamed.exited(2) && unnamed.errorText.contains("a store needs a file name"), "\(unnamed.errorText)")
    }

    @Test func listShowAndHistoryPrintWhatTheAPIAnswers() throws {
        let files = try TemporaryFiles()
        let store = try Self.orders(in: files)
        let list = try Smrun.run(["instances", "list", "--store", store, "order", "--state", "awaitingPayment"])
        #expect(list.exited(0))
        #expect(list.lines.map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == ["A-1 awaitingPayment running", "A-3 awaitingPayment running"])
        let json = try Smrun.run(["instances", "list", "--store", store, "order", "--status", "running", "--limit", "2", "--format", "json"])
        let page = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((page["instances"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["A-1", "A-2"])
        #expect(page["next"] is String)
        let show = try Smrun.run(["instances", "show", "--store", store, "order", "A-2", "--format", "json"])
        let instance = try #require(try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any])
        #expect(instance["state"] as? String == "paid" && instance["version"] as? Int == 3)
        let history = try Smrun.run(["instances", "history", "--store", store, "order", "A-2"])
        #expect(history.lines.map { $0.split(separator: " ").dropFirst(2).joined(separator: " ") } == ["start -", "input place ok", "input paymentSucceeded ok"])
    }

    @Test func aMissingInstanceOrStoreIsSaidSo() throws {
        let files = try TemporaryFiles()
        let store = try Self.orders(in: files)
        let missing = try Smrun.run(["instances", "show", "--store", store, "order", "Z-9"])
        #expect(missing.exited(1) && missing.errorText.contains("no instance 'Z-9' of 'order'"))
        let unknown = try Smrun.run(["instances", "list", "--store", store, "invoice"])
        #expect(unknown.exited(1) && unknown.errorText.contains("no machine 'invoice'"))
        let noStore = try Smrun.run(["instances", "list", "--store", files.path("none.sqlite"), "order"])
        #expect(noStore.exited(2) && noStore.errorText.contains("no such store"))
        #expect(!FileManager.default.fileExists(atPath: files.path("none.sqlite")))
    }

    @Test func deleteTakesTheInstance() throws {
        let files = try TemporaryFiles()
        let store = try Self.orders(in: files)
        #expect(try Smrun.run(["instances", "delete", "--store", store, "order", "A-1"]).exited(0))
        #expect(try Smrun.run(["instances", "show", "--store", store, "order", "A-1"]).exited(1))
        #expect(try Smrun.run(["instances", "delete", "--store", store, "order", "A-1"]).exited(1))
    }

    /// The most common edit, `after: 30m` to `after: 45m`: the pending timers are kept, due 45
    /// minutes after their state was entered, and the instances run on the new definition.
    /// `migrate` of a machine the store has never held is a missing machine (exit status 1),
    /// as for the other subcommands, and stores nothing for it.
    @Test func migrateOfAMachineNotInTheStoreIsMissing() throws {
        let files = try TemporaryFiles()
        let store = files.path("cars.sqlite")
        #expect(try Smrun.run(["machines/self-driving-car.yaml", "--by-key", "--store", store], input: .bytes(Data("a startEngine\n".utf8))).exited(0))
        let migrated = try Smrun.run(["instances", "migrate", "--store", store, "machines/media-player.yaml"])
        #expect(migrated.exited(1))
        #expect(migrated.errorText.contains("no machine 'media-player' in \(store)"), "\(migrated.errorText)")
        let listed = try Smrun.run(["instances", "list", "--store", store, "media-player"])
        #expect(listed.exited(1), "\(listed.text)")
    }

    @Test func migrateKeepsTimeoutsAndMovesEveryInstance() throws {
        let files = try TemporaryFiles()
        let store = try Self.orders(in: files)
        let source = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/examples/order.yaml"), encoding: .utf8)
        let edited = files.path("order.yaml")
        try source.replacingOccurrences(of: "after: 30m", with: "after: 45m").write(toFile: edited, atomically: true, encoding: .utf8)
        let before = try Smrun.run(["instances", "show", "--store", store, "order", "A-1", "--format", "json"])
        let oldTimer = try #require(((try JSONSerialization.jsonObject(with: before.stdout) as? [String: Any])?["timers"] as? [[String: Any]])?.first)
        let migrated = try Smrun.run(["instances", "migrate", "--store", store, edited])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.lines.count == 3)
        #expect(migrated.lines.first { $0.hasPrefix("A-1: ") }?.contains("kept timer after 30m of awaitingPayment as after 45m") == true)
        let after = try Smrun.run(["instances", "show", "--store", store, "order", "A-1", "--format", "json"])
        let instance = try #require(try JSONSerialization.jsonObject(with: after.stdout) as? [String: Any])
        let timer = try #require((instance["timers"] as? [[String: Any]])?.first)
        #expect(timer["after"] as? String == "45m")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let oldDue = try #require(formatter.date(from: oldTimer["due"] as? String ?? ""))
        let newDue = try #require(formatter.date(from: timer["due"] as? String ?? ""))
        #expect(abs(newDue.timeIntervalSince(oldDue) - 15 * 60) < 0.01)
        // Again: every instance runs on the file's definition already.
        let again = try Smrun.run(["instances", "migrate", "--store", store, edited])
        #expect(again.exited(0) && again.lines.isEmpty)
    }

    /// `migrate` and `delete` beside a running server, which keeps the instances it wrote last
    /// in memory: its next inputs find what they left, the migrated instance on its new
    /// definition and the deleted one gone.
    @Test func migrateAndDeleteBesideARunningServerAreWhatItsNextInputsFind() throws {
        let files = try TemporaryFiles()
        let store = files.path("orders.sqlite")
        let source = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/examples/order.yaml"), encoding: .utf8)
        let edited = files.path("order.yaml")
        try source.replacingOccurrences(of: "after: 30m", with: "after: 45m").write(toFile: edited, atomically: true, encoding: .utf8)
        let server = try ServerProcess(["docs/examples/order.yaml"], store: store)
        defer { _ = server.stop() }
        let placed = try server.send("order", "A-1", "place", arg: "100", create: true)
        _ = try server.send("order", "A-2", "place", arg: "100", create: true)

        #expect(try Smrun.run(["instances", "migrate", "--store", store, edited]).exited(0))
        #expect(try Smrun.run(["instances", "delete", "--store", store, "order", "A-2"]).exited(0))
        let shown = try Smrun.run(["instances", "show", "--store", store, "order", "A-1", "--format", "json"])
        let migrated = try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        #expect(migrated["fingerprint"] as? String != (placed["instance"] as? [String: Any])?["fingerprint"] as? String)

        let paid = try #require(try server.send("order", "A-1", "paymentSucceeded")["instance"] as? [String: Any])
        #expect(paid["state"] as? String == "paid")
        #expect(paid["fingerprint"] as? String == migrated["fingerprint"] as? String)
        #expect(paid["version"] as? Int == (migrated["version"] as? Int).map { $0 + 1 })
        #expect(try server.post("/machines/order/instances/A-2/inputs", #"{"input":"paymentSucceeded"}"#).status == 404)
    }

    /// A machine without timers saves no clock in its snapshots. Migrated to a definition with
    /// an `after`, an instance of a real-clock server stays on the real clock: the entry of the
    /// timer it starts later says when it was due in RFC 3339, as every real-clock entry does
    /// (read as on the virtual clock, it said a number of milliseconds).
    @Test func aMigrationFromAMachineWithoutTimersKeepsTheStoresClock() throws {
        let files = try TemporaryFiles()
        let door = """
            machine: door
            initial: closed
            inputs:
              open:
              close:
            states: [closed, opened]
            transitions:
              - open | closed => opened
              - close | opened => closed

            """
        let timed = door + """
              - after: 200ms
                from: opened
                to: closed

            """
        let plain = files.path("door.yaml")
        let edited = files.path("door-timed.yaml")
        try door.write(toFile: plain, atomically: true, encoding: .utf8)
        try timed.write(toFile: edited, atomically: true, encoding: .utf8)
        let store = files.path("doors.sqlite")
        let first = try ServerProcess([plain], store: store)
        try first.create("door", key: "d1")
        _ = first.stop()

        let migrated = try Smrun.run(["instances", "migrate", "--store", store, edited])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        let server = try ServerProcess([edited], store: store)
        let sent = Date()
        _ = try server.send("door", "d1", "open")
        let deadline = Date().addingTimeInterval(10)
        var history = try server.history("door", "d1")
        while history.count < 3 && Date() < deadline {
            usleep(50_000)
            history = try server.history("door", "d1")
        }
        _ = server.stop()
        let fired = try #require(history.last?["timer"] as? [String: Any], "\(history)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let due = try #require((fired["due"] as? String).flatMap(formatter.date(from:)), "the timer's due time: \(fired["due"] ?? "none")")
        #expect(abs(due.timeIntervalSince(sent) - 0.2) < 5, "due \(due), sent \(sent)")
    }
}
