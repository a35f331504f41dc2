import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// "Durable means durable" (issue 32): `smrun serve` is killed with SIGKILL while 32 clients
/// send inputs, each retrying with the same `Idempotency-Key` after its connection fails, and
/// started again on the same store. Every input answered is in its instance's history and state,
/// none is applied twice, each instance's state is what `smrun run` makes of its history's
/// inputs, and the timers that fell due while the server was down fire once after the restart.
@Suite(.servedEndToEnd) struct ServeDurabilityTests {
    /// One input a sender sends until it is answered.
    struct Planned: Sendable {
        var sender: Int
        var number: Int
        var key: String
        var input: String
        /// JSON text.
        var arg: String?
        var idempotencyKey: String { "sender\(sender)-\(number)" }
        var body: String { arg.map { #"{"input":"\#(input)","arg":\#($0)}"# } ?? #"{"input":"\#(input)"}"# }
    }

    /// What the senders share with the test: where the server listens, and what they got.
    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var _port: Int
        private var _killed = false
        private(set) var answers: [(planned: Planned, answer: HTTPAnswer, beforeKill: Bool)] = []
        private(set) var connectionFailures = 0
        private(set) var failures: [String] = []

        init(port: Int) { _port = port }

        var port: Int { lock.withLock { _port } }
        var answered: Int { lock.withLock { answers.count } }
        func restarted(on port: Int) { lock.withLock { _port = port } }
        func killed() { lock.withLock { _killed = true } }
        func connectionFailed() { lock.withLock { connectionFailures += 1 } }
        func fail(_ message: String) { lock.withLock { failures.append(message) } }
        func record(_ planned: Planned, _ answer: HTTPAnswer) {
            lock.withLock { answers.append((planned, answer, !_killed)) }
        }
    }

    static let senders = 32
    static let inputsPerSender = 24
    static let instances = 8

    /// Sender `sender`'s inputs: adds with an argument no other input has, and now and then a
    /// `close` or a `reopen` (so that some adds are rejections, recorded all the same).
    static func plan(sender: Int) -> [Planned] {
        (0..<inputsPerSender).map { number in
            let key = "tally\(sender % instances)"
            if number % 8 == 7 {
                return Planned(sender: sender, number: number, key: key, input: (number / 8) % 2 == 0 ? "close" : "reopen", arg: nil)
            }
            return Planned(sender: sender, number: number, key: key, input: "add", arg: "\(sender * 1000 + number + 1)")
        }
    }

    /// Sends `planned` until a whole answer comes (a new connection each time, to wherever the
    /// server listens now), the same Idempotency-Key every time.
    static func sendUntilAnswered(_ planned: Planned, _ shared: Shared) {
        let deadline = ContinuousClock.now + .seconds(90)
        let request = HTTPConnection.request(
            "POST", "/machines/tally/instances/\(planned.key)/inputs", body: Array(planned.body.utf8),
            headers: [("Idempotency-Key", planned.idempotencyKey)])
        while ContinuousClock.now < deadline {
            do {
                let connection = try HTTPConnection(port: shared.port)
                try connection.send(request)
                let answer = try connection.readAnswer(timeout: .seconds(30))
                if answer.status == 503 && answer.header("Retry-After") != nil {
                    // The server is stopping: try again, as Retry-After says.
                    shared.connectionFailed()
                    usleep(20_000)
                    continue
                }
                if answer.status == 200 {
                    shared.record(planned, answer)
                } else {
                    shared.fail("\(planned.idempotencyKey): \(answer.status) \(answer.text.prefix(300))")
                }
                return
            } catch {
                shared.connectionFailed()
                usleep(20_000)
            }
        }
        shared.fail("\(planned.idempotencyKey) was never answered")
    }

    /// SIGTERM under the same load: the server finishes what is in flight, exits 0, and every
    /// input answered is there after the restart, once.
    @Test func sigtermUnderConcurrentSendersExits0AndKeepsEveryAnsweredInput() throws {
        let files = try TemporaryFiles()
        let first = try ServerProcess.start(files, machines: [ServedMachines.tally])
        for index in 0..<Self.instances { try first.create("tally", key: "tally\(index)") }
        let shared = Shared(port: first.port)
        let done = DispatchGroup()
        for sender in 0..<16 {
            done.enter()
            Thread {
                for planned in Self.plan(sender: sender).prefix(12) { Self.sendUntilAnswered(planned, shared) }
                done.leave()
            }.start()
        }
        let waitStart = ContinuousClock.now
        while shared.answered < 40 && ContinuousClock.now - waitStart < .seconds(60) { usleep(2_000) }
        let stopped = try #require(first.stop(SIGTERM), "still running 30 s after SIGTERM")
        #expect(!stopped.signalled && stopped.status == 0, "\(stopped) \(first.errorText)")
        let second = try first.restarted()
        shared.restarted(on: second.port)
        #expect(done.wait(timeout: .now() + 120) == .success, "the senders did not finish")
        #expect(shared.failures.isEmpty, "\(shared.failures.prefix(10))")
        #expect(shared.answers.count == 16 * 12)
        for index in 0..<Self.instances {
            let key = "tally\(index)"
            let sent = shared.answers.filter { $0.planned.key == key }.map { "\($0.planned.input) \($0.planned.arg ?? "")" }
            let recorded = try second.history("tally", key).dropFirst().map {
                "\($0["input"] as? String ?? "?") \(JSONValue.int($0["arg"]).map(String.init) ?? "")"
            }
            #expect(sent.sorted() == recorded.sorted(), "\(key): sent \(sent.count), recorded \(recorded.count)")
        }
    }

    @Test func sigkillUnder32ConcurrentSendersLosesNothingAnsweredAndAppliesNothingTwice() throws {
        let files = try TemporaryFiles()
        let first = try ServerProcess.start(files, machines: [ServedMachines.tally, ServedMachines.alarm])
        for index in 0..<Self.instances { try first.create("tally", key: "tally\(index)") }
        for index in 0..<4 { try first.create("alarm", key: "alarm\(index)") }

        let shared = Shared(port: first.port)
        let done = DispatchGroup()
        for sender in 0..<Self.senders {
            done.enter()
            Thread {
                for planned in Self.plan(sender: sender) { Self.sendUntilAnswered(planned, shared) }
                done.leave()
            }.start()
        }
        // Once a third of the inputs are answered: the alarms are armed (due in 1 s), and the
        // server is killed with the senders in full flow.
        let total = Self.senders * Self.inputsPerSender
        let waitStart = ContinuousClock.now
        while shared.answered < total / 3 && ContinuousClock.now - waitStart < .seconds(60) { usleep(2_000) }
        for index in 0..<4 { try first.send("alarm", "alarm\(index)", "arm") }
        shared.killed()
        first.kill9()
        let answeredBeforeKill = shared.answered
        // Down for longer than the alarms' second.
        Thread.sleep(forTimeInterval: 1.5)
        let second = try first.restarted()
        shared.restarted(on: second.port)
        #expect(done.wait(timeout: .now() + 120) == .success, "the senders did not finish")

        #expect(shared.failures.isEmpty, "\(shared.failures.prefix(10))")
        #expect(shared.answers.count == total)
        #expect(answeredBeforeKill > 0 && answeredBeforeKill < total, "the kill came before or after every input: \(answeredBeforeKill)")
        #expect(shared.connectionFailures > 0, "no sender saw the kill")

        for index in 0..<Self.instances {
            let key = "tally\(index)"
            let history = try second.history("tally", key)
            let instance = try second.instance("tally", key)
            // Each answered input is its history entry: the answer's version is the entry's
            // seq, with the same input, argument and results.
            // (Most runs have inputs committed before the kill and answered after it, from their
            // idempotency record: without it they would be applied twice, below.)
            for (planned, answer, _) in shared.answers where planned.key == key {
                let object = try answer.object()
                let version = try #require(JSONValue.int((object["instance"] as? [String: Any])?["version"]))
                let entry = try #require(history.first { JSONValue.int($0["seq"]) == version }, "\(planned.idempotencyKey): no entry \(version)")
                #expect(entry["input"] as? String == planned.input, "\(planned.idempotencyKey)")
                #expect(planned.arg.map { JSONValue.int(entry["arg"]) == Int($0) } ?? (entry["arg"] is NSNull), "\(planned.idempotencyKey)")
                let sorted: (Any) throws -> Data = { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
                #expect(try sorted(entry["results"] ?? []) == sorted(object["results"] ?? []), "\(planned.idempotencyKey)")
            }
            // Nothing lost, nothing twice, nothing else: the history's inputs are exactly the
            // inputs sent to the instance.
            let sent = shared.answers.filter { $0.planned.key == key }.map { "\($0.planned.input) \($0.planned.arg ?? "")" }
            let recorded = history.dropFirst().map { "\($0["input"] as? String ?? "?") \(JSONValue.int($0["arg"]).map(String.init) ?? "")" }
            #expect(sent.sorted() == recorded.sorted(), "\(key): sent \(sent.count), recorded \(recorded.count)")
            #expect(Set(recorded.filter { $0.hasPrefix("add") }).count == recorded.filter { $0.hasPrefix("add") }.count, "an add applied twice")
            #expect(history.map { JSONValue.int($0["seq"]) } == Array(1...history.count).map { Optional($0) }, "seqs are 1, 2, 3...")
            #expect(JSONValue.int(instance["version"]) == history.count)

            // The state is what smrun run makes of the history's inputs.
            let script = history.dropFirst().map { entry in
                (entry["input"] as? String ?? "") + (JSONValue.int(entry["arg"]).map { " \($0)" } ?? "")
            }.joined(separator: "\n") + "\n"
            let state = files.path("\(key).state.json")
            let replay = try Smrun.run([ServedMachines.tally, "--state", state], input: .bytes(Data(script.utf8)))
            #expect(replay.exited(0) || replay.exited(1), "\(replay.errorText)")
            let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any])
            #expect(snapshot["state"] as? String == instance["state"] as? String, "\(key)")
            let replayed = snapshot["context"] as? [String: Any]
            let served = instance["context"] as? [String: Any]
            #expect(JSONValue.int(replayed?["total"]) == JSONValue.int(served?["total"]), "\(key): \(replayed ?? [:]) vs \(served ?? [:])")
            #expect(JSONValue.int(replayed?["count"]) == JSONValue.int(served?["count"]), "\(key)")
        }

        // The alarms fell due while the server was down: each rings once, after the restart.
        for index in 0..<4 {
            let key = "alarm\(index)"
            let deadline = ContinuousClock.now + .seconds(20)
            while try second.instance("alarm", key)["state"] as? String != "ringing" && ContinuousClock.now < deadline { usleep(50_000) }
            let alarm = try second.instance("alarm", key)
            #expect(alarm["state"] as? String == "ringing", "\(key) did not ring after the restart")
            #expect(JSONValue.int((alarm["context"] as? [String: Any])?["rings"]) == 1)
        }
        // Stopped and started once more: nothing fires again, nothing moves.
        let before = try (0..<4).map { try second.history("alarm", "alarm\($0)").count }
        #expect(before == [3, 3, 3, 3])
        let tallies = try (0..<Self.instances).map { try second.history("tally", "tally\($0)").count }
        let stopped = try #require(second.stop(SIGTERM))
        #expect(!stopped.signalled && stopped.status == 0, "\(second.errorText)")
        let third = try second.restarted()
        Thread.sleep(forTimeInterval: 0.5)
        for index in 0..<4 {
            let history = try third.history("alarm", "alarm\(index)")
            #expect(history.filter { !($0["timer"] is NSNull) }.count == 1, "alarm\(index): \(history.count) entries")
        }
        #expect(try (0..<Self.instances).map { try third.history("tally", "tally\($0)").count } == tallies)
    }
}
