import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun --state FILE` (docs/snapshots.md): resuming, locking, refusing, and what
/// the file holds after a signal or a crash.
@Suite struct StateFileTests {
    static let counter = Paths.fixture("counter.yaml")
    static let counterWithStart = Paths.fixture("counter-with-start.yaml")

    // MARK: Resuming

    @Test func aRunResumesWhereThePreviousOneStopped() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")

        let empty = try Smrun.run([Self.counter, "--state", path])
        #expect(empty.exited(0), "\(empty.errorText)")
        #expect(empty.text == "")
        #expect(try Snapshot(path).state == "even" && Snapshot(path).count == 0, "a new file holds the initial state")

        let first = try Smrun.run([Self.counter, "--state", path, "--send", "inc", "--send", "inc", "--send", "inc"])
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.lines.last == "inc: even -> odd / increment")
        #expect(try Snapshot(path).state == "odd" && Snapshot(path).count == 3)

        let second = try Smrun.run([Self.counter, "--state", path], input: .bytes(Data("inc\ninc\n".utf8)))
        #expect(second.exited(0), "\(second.errorText)")
        #expect(second.lines == ["inc: odd -> even / increment", "inc: even -> odd / increment"])
        let snapshot = try Snapshot(path)
        #expect(snapshot.state == "odd" && snapshot.count == 5)
        #expect(snapshot.object["format"] as? String == "statecraft-snapshot")
        #expect(snapshot.object["version"] as? Int == 1)
        #expect(snapshot.object["machine"] as? String == "counter")
        #expect((snapshot.object["fingerprint"] as? String)?.hasPrefix("sha256:") == true)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func startEffectsRunOnTheFirstRunOnly() throws {
        let files = try TemporaryFiles()
        let path = files.path("start.json")

        let first = try Smrun.run([Self.counterWithStart, "--state", path, "--send", "inc", "--send", #"name="é \"x\"""#])
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.lines.first == "start: -> on / boot")
        #expect(try Snapshot(path).context["starts"] as? Int == 1)

        let second = try Smrun.run([Self.counterWithStart, "--state", path, "--format", "json", "--send", "inc"])
        #expect(second.exited(0), "\(second.errorText)")
        let lines = try second.jsonLines()
        #expect(lines.count == 1, "no start result on resume: \(second.text)")
        let context = try #require(lines.first?["context"] as? [String: Any])
        #expect(context["starts"] as? Int == 1)
        #expect(context["count"] as? Int == 2)
        #expect(context["label"] as? String == "é \"x\"", "a string context value survives the round trip")
        #expect(context["ratio"] as? Double == 2.0)
        #expect(context["ready"] as? Bool == true)
        #expect(try Snapshot(path).context["starts"] as? Int == 1)
    }

    // MARK: Locking

    @Test func concurrentRunsOnOneFileLoseNoIncrement() throws {
        let files = try TemporaryFiles()
        let path = files.path("shared.json")
        let runs = 40
        let outcomes = Outcomes()
        let group = DispatchGroup()
        for _ in 0..<runs {
            group.enter()
            Thread {
                defer { group.leave() }
                outcomes.add(Result { try Smrun.run([Self.counter, "--state", path, "--send", "inc"]) })
            }.start()
        }
        group.wait()
        let results = outcomes.all
        #expect(results.count == runs)
        for result in results {
            let run = try result.get()
            #expect(run.exited(0), "\(run.errorText)")
            #expect(run.lines.count == 1)
        }
        let snapshot = try Snapshot(path)
        #expect(snapshot.count == runs, "every one of the \(runs) increments is in the file once")
        #expect(snapshot.state == (runs % 2 == 0 ? "even" : "odd"))
    }

    // MARK: Refusing

    @Test func aSnapshotOfAnotherMachineIsRefusedAndLeftUntouched() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc"]).exited(0))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let other = try Smrun.run([Self.counterWithStart, "--state", path, "--send", "inc"])
        #expect(other.exited(2))
        #expect(other.text == "", "nothing runs, not even start effects")
        #expect(other.errorText.contains("smrun: state file \(path): "), "\(other.errorText)")
        #expect(other.errorText.contains("belongs to machine 'counter'"), "\(other.errorText)")
        #expect(other.errorText.contains("not to 'counter-with-start'"), "\(other.errorText)")

        // The same name, another definition: `count + 2` instead of `count + 1`.
        let source = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(Self.counter).path, encoding: .utf8)
        let edited = try files.file("counter.yaml", source.replacingOccurrences(of: "count + 1", with: "count + 2"))
        let changed = try Smrun.run([edited, "--state", path, "--send", "inc"])
        #expect(changed.exited(2))
        #expect(changed.errorText.contains("a different definition of machine 'counter'"), "\(changed.errorText)")

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is byte for byte what it was")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))

        // A definition that differs only in layout, comments and declaration order is the same machine.
        let reordered = try files.file(
            "counter-reordered.yaml",
            """
            initial: even
            machine: counter
            states: [odd, even]   # reordered
            context: { count: 0 }
            effects: { increment: { set: { count: count + 1 } } }
            transitions:
              - inc | even => odd | increment
              - inc | odd => even | increment
            """)
        let same = try Smrun.run([reordered, "--state", path, "--send", "inc"])
        #expect(same.exited(0), "\(same.errorText)")
        #expect(try Snapshot(path).count == 2)
    }

    /// A way to damage a valid snapshot (`state` odd, `count` 3) and what the refusal must say.
    struct Corruption: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: String
        var damage: @Sendable (String) -> [UInt8]

        init(_ name: String, _ expected: String, _ damage: @escaping @Sendable (String) -> String) {
            self.init(name, expected, bytes: { Array(damage($0).utf8) })
        }

        init(_ name: String, _ expected: String, bytes damage: @escaping @Sendable (String) -> [UInt8]) {
            self.name = name
            self.expected = expected
            self.damage = damage
        }

        var testDescription: String { name }
    }

    static let corruptions: [Corruption] = [
        Corruption("not JSON", "not valid JSON: unexpected 's', expected a value at line 1, column 1") { _ in "state: odd\ncount: 3\n" },
        Corruption("empty", "not valid JSON: unexpected end of file") { _ in "" },
        Corruption("truncated", "not valid JSON") { String($0.prefix($0.count / 2)) },
        Corruption("trailing text", "after the JSON value") { $0 + "}" },
        Corruption("not UTF-8", "not valid UTF-8", bytes: { Array($0.utf8).map { $0 == UInt8(ascii: "o") ? 0xFF : $0 } }),
        Corruption("nested too deep", "nested deeper than") { _ in String(repeating: "[", count: 100_000) },
        Corruption("an array", "not a Statecraft snapshot: the document is an array") { _ in "[]" },
        Corruption("another JSON object", "not a Statecraft snapshot: no \"format\"") { _ in #"{"state": "odd", "count": 3}"# },
        Corruption("version 2", "snapshot format version 2 is not supported (this version of Statecraft reads version 1)") {
            $0.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
        },
        Corruption("version as a string", #""version" must be an integer"#) {
            $0.replacingOccurrences(of: #""version": 1"#, with: #""version": "1""#)
        },
        Corruption("missing state", #"missing member "state""#) {
            $0.replacingOccurrences(of: #""state": "odd","#, with: "")
        },
        Corruption("state not a string", #""state" must be a string or an array of strings, not a number"#) {
            $0.replacingOccurrences(of: #""state": "odd""#, with: #""state": 1"#)
        },
        Corruption("duplicate member", #"duplicate member "state""#) {
            $0.replacingOccurrences(of: #""state": "odd","#, with: #""state": "odd", "state": "even","#)
        },
        Corruption("unknown member", #"unknown member "note""#) {
            $0.replacingOccurrences(of: #""state": "odd","#, with: #""state": "odd", "note": "hi","#)
        },
        Corruption("unknown state", #"state "odds" is not a state of machine 'counter' (did you mean 'odd'?)"#) {
            $0.replacingOccurrences(of: #""state": "odd""#, with: #""state": "odds""#)
        },
        Corruption("context value of another type", #"context variable 'count' is of type int, but the snapshot has the string "3""#) {
            $0.replacingOccurrences(of: #""count": 3"#, with: #""count": "3""#)
        },
        Corruption("context value not an integer", "context variable 'count' is of type int, but the snapshot has the non-integer 3.5") {
            $0.replacingOccurrences(of: #""count": 3"#, with: #""count": 3.5"#)
        },
        Corruption("context value out of range", "99999999999999999999, out of range") {
            $0.replacingOccurrences(of: #""count": 3"#, with: #""count": 99999999999999999999"#)
        },
        Corruption("context variable missing", "the context has no value for variable 'count'") {
            $0.replacingOccurrences(of: #""count": 3"#, with: "")
        },
        Corruption("context variable unknown", #"the context has "total", which is not a variable of machine 'counter'"#) {
            $0.replacingOccurrences(of: #""count": 3"#, with: #""count": 3, "total": 3"#)
        },
        Corruption("context not an object", #""context" must be an object, not an array"#) {
            $0.replacingOccurrences(of: "{\n    \"count\": 3\n  }", with: "[3]")
        },
    ]

    @Test(arguments: corruptions)
    func aCorruptSnapshotIsRefusedAndLeftUntouched(_ corruption: Corruption) throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        let made = try Smrun.run([Self.counter, "--state", path, "--send", "inc", "--send", "inc", "--send", "inc"])
        #expect(made.exited(0))
        let valid = try String(contentsOfFile: path, encoding: .utf8)
        #expect(valid.contains(#""count": 3"#) && valid.contains(#""state": "odd""#))
        let damaged = corruption.damage(valid)
        #expect(damaged != Array(valid.utf8), "the corruption changed nothing")
        try Data(damaged).write(to: URL(fileURLWithPath: path))

        let run = try Smrun.run([Self.counter, "--state", path, "--send", "inc"])
        #expect(run.exited(2))
        #expect(run.text == "")
        #expect(run.errorLines.count == 1, "\(run.errorText)")
        #expect(run.errorText.hasPrefix("smrun: state file \(path): "), "\(run.errorText)")
        #expect(run.errorText.contains(corruption.expected), "\(run.errorText)")
        #expect(run.errorText.contains("; the file was not changed; use --"), "\(run.errorText)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == damaged, "the file is byte for byte what it was")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aStateFileThatIsADirectoryIsRefused() throws {
        let files = try TemporaryFiles()
        let path = files.path("directory")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let run = try Smrun.run([Self.counter, "--state", path, "--send", "inc"])
        #expect(run.exited(2))
        #expect(run.errorText == "smrun: state file \(path): not a regular file; the file was not changed\n")
    }

    // MARK: Signals

    /// A run reading a slow pipe gets the signal either while it waits for the next line or while
    /// it works through a burst; either way it exits 128 + the signal's number, and the file holds
    /// the state after the last result it printed.
    @Test(arguments: [SIGINT, SIGTERM])
    func afterASignalTheFileHoldsTheStateAfterTheLastPrintedResult(_ signal: Int32) throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        var random = SeededRandom(seed: UInt64(signal) &* 7919)
        var count = 0
        for round in 0..<6 {
            let process = try SmrunProcess([Self.counter, "--state", path, "--format", "json"], input: nil)
            var printed: [String] = []
            // One input at a time, each answered before the next (the handler is installed by then).
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                try process.write("inc\n")
                printed.append(try #require(try process.readLine(timeout: .seconds(20))))
            }
            // Then, every other round, a burst the run is still working through when the signal comes.
            if round % 2 == 1 {
                try process.write(String(repeating: "inc\n", count: Int.random(in: 200...3000, using: &random)))
                usleep(UInt32.random(in: 0...3000, using: &random))
            }
            kill(process.pid, signal)
            while let line = try process.readLine(timeout: .seconds(20)) { printed.append(line) }
            let run = try process.finish(output: nil, timeout: .seconds(20))
            #expect(run.exited(128 + signal), "round \(round): status \(run.status), signalled \(run.signalled): \(run.errorText)")
            #expect(run.errorText == "")

            let last = try #require(try JSONSerialization.jsonObject(with: Data(printed.last!.utf8)) as? [String: Any])
            let lastCount = try #require((last["context"] as? [String: Any])?["count"] as? Int)
            #expect(lastCount == count + printed.count, "every result printed is one increment")
            let snapshot = try Snapshot(path)
            #expect(snapshot.count == lastCount, "round \(round): the file holds the state after the last printed result")
            #expect(snapshot.state == last["to"] as? String)
            count = lastCount
        }
    }

    // MARK: Crashes

    /// Hundreds of short runs killed with SIGKILL at random moments (starting, loading, working,
    /// saving, exiting): the file always loads and holds a state that a prefix of the inputs sent
    /// reaches (the parity of the state matches the count, which never goes back or past what was sent).
    @Test func aRunKilledAtAnyMomentLeavesALoadableSnapshotOfAPrefix() throws {
        let files = try TemporaryFiles()
        let path = files.path("crash.json")
        let seed = UInt64(UInt32(truncatingIfNeeded: time(nil)))
        var random = SeededRandom(seed: seed)
        var count = 0
        var fingerprint: String?
        var killed = 0
        var killedAfterSaving = 0
        for round in 0..<300 {
            let process = try SmrunProcess([Self.counter, "--state", path], input: nil)
            var bursts = (0..<Int.random(in: 2...10, using: &random)).map { _ in
                (lines: Int.random(in: 1...40, using: &random), pause: UInt32.random(in: 0...4000, using: &random))
            }
            var sentFirst = 0
            if round % 2 == 1 {
                // Once it is under way (working through a burst, saving, waiting, exiting)...
                let first = bursts.removeFirst()
                try process.write(String(repeating: "inc\n", count: first.lines))
                sentFirst = first.lines
                _ = try process.readLine(timeout: .seconds(20))
            }
            let writer = BurstWriter(process, bursts: bursts)
            if round % 2 == 1 {
                usleep(UInt32.random(in: 0...bursts.map(\.pause).reduce(1000, +), using: &random))
            } else {
                // ...or at any moment from the start: loading the machine, locking, reading the snapshot.
                usleep(UInt32.random(in: 0...40_000, using: &random))
            }
            kill(process.pid, SIGKILL)
            let sent = sentFirst + writer.wait()
            while try process.readLine(timeout: .seconds(20)) != nil {}
            let run = try process.finish(output: nil, timeout: .seconds(20))
            let context = "seed \(seed), round \(round)"
            #expect(run.exited(0) || (run.signalled && run.status == SIGKILL), "\(context): \(run.status) \(run.errorText)")
            #expect(run.errorText == "", "\(context)")
            if run.signalled { killed += 1 }

            guard FileManager.default.fileExists(atPath: path) else {
                #expect(count == 0, "\(context): the file went away")
                continue
            }
            let snapshot: Snapshot
            do {
                snapshot = try Snapshot(path)
            } catch {
                Issue.record("\(context): the file does not load: \(error)")
                break
            }
            #expect(snapshot.object["machine"] as? String == "counter", "\(context)")
            let stored = snapshot.object["fingerprint"] as? String
            #expect(stored != nil && stored == (fingerprint ?? stored), "\(context)")
            fingerprint = stored
            #expect(snapshot.state == (snapshot.count % 2 == 0 ? "even" : "odd"), "\(context): state and context from one prefix")
            #expect(snapshot.count >= count && snapshot.count <= count + sent, "\(context): \(snapshot.count) not in \(count)...\(count + sent)")
            if run.exited(0) { #expect(snapshot.count == count + sent, "\(context): a run that finished saved everything") }
            if run.signalled && snapshot.count > count { killedAfterSaving += 1 }
            count = snapshot.count
        }
        #expect(killed > 0 && killedAfterSaving > 0, "the kills came both early and late")
        let check = try Smrun.run([Self.counter, "--state", path, "--send", "inc"])
        #expect(check.exited(0), "\(check.errorText)")
        #expect(try Snapshot(path).count == count + 1)
    }
}

/// A state file read with Foundation, independently of smrun's own reader.
private struct Snapshot {
    var object: [String: Any]

    init(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not a JSON object")
    }

    var state: String? { object["state"] as? String }
    var context: [String: Any] { object["context"] as? [String: Any] ?? [:] }
    var count: Int { context["count"] as? Int ?? -1 }
}

/// Results gathered from several threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<SmrunOutput, any Error>] = []

    func add(_ result: Result<SmrunOutput, any Error>) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [Result<SmrunOutput, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// Writes `inc` lines to smrun in bursts with pauses (so that it saves between them) on a
/// thread of its own, until smrun goes away; then closes its input.
private final class BurstWriter: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var sent = 0

    init(_ process: SmrunProcess, bursts: [(lines: Int, pause: UInt32)]) {
        Thread { [self] in
            for burst in bursts {
                guard (try? process.write(String(repeating: "inc\n", count: burst.lines))) != nil else { break }
                sent += burst.lines
                usleep(burst.pause)
            }
            try? process.closeInput()
            done.signal()
        }.start()
    }

    /// How many lines were written, once the writer is done.
    func wait() -> Int {
        done.wait()
        return sent
    }
}

/// SplitMix64: random numbers that a failing seed reproduces.
private struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
