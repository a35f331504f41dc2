import Foundation
import Testing

/// `smrun status --state FILE [MACHINE]`: shows a state file without running or changing
/// anything; exit 0 (readable, and resuming MACHINE), 1 (not resuming MACHINE), 2 (unreadable).
@Suite struct StatusCommandTests {
    static let counter = Paths.fixture("counter.yaml")

    func savedCounter(_ files: TemporaryFiles, incs: Int = 3) throws -> String {
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path] + Array(repeating: ["--send", "inc"], count: incs).flatMap { $0 }).exited(0))
        return path
    }

    @Test func showsTheSavedStateContextAndQueueWithoutChangingAnything() throws {
        let files = try TemporaryFiles()
        let path = try savedCounter(files)
        try FileManager.default.removeItem(atPath: path + ".lock")
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let status = try Smrun.run(["status", "--state", path])
        #expect(status.exited(0), "\(status.errorText)")
        #expect(status.lines == [
            "state file: \(path)",
            "machine: counter",
            "fingerprint: sha256:e0a5cd5777ac6e74e2c77110e97f0044a43c6f9235903b8081235548daeb55ff",
            "state: odd",
            "context:",
            "  count: 3",
            "pending: none (a snapshot is saved between inputs, when nothing is queued)",
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"), "status takes no lock and creates no file")
    }

    @Test func saysWhetherTheSnapshotResumesAMachine() throws {
        let files = try TemporaryFiles()
        let path = try savedCounter(files)
        let matching = try Smrun.run(["status", "--state", path, Self.counter])
        #expect(matching.exited(0), "\(matching.errorText)")
        #expect(matching.lines.last == "matches \(Self.counter): yes")

        let json = try Smrun.run(["status", "--state", path, Self.counter, "--format", "json"])
        #expect(json.exited(0))
        let object = try #require(try json.jsonLines().first)
        #expect(object["state"] as? String == "odd")
        #expect((object["context"] as? [String: Any])?["count"] as? Int == 3)
        #expect((object["pending"] as? [Any])?.isEmpty == true)
        #expect(object["matches"] as? Bool == true)
        #expect(object["machine_file"] as? String == Self.counter)

        let source = try String(contentsOfFile: Paths.packageRoot.appendingPathComponent(Self.counter).path, encoding: .utf8)
        let edited = try files.file("edited.yaml", source.replacingOccurrences(of: "count: 0", with: "count: 0\n  label: x"))
        let differs = try Smrun.run(["status", "--state", path, edited])
        #expect(differs.exited(1))
        let verdict = differs.lines.suffix(2)
        let expectedVerdict =
            "matches \(edited): no: the snapshot was saved by a different definition of machine 'counter' (fingerprint sha256:e0a5cd5777ac6e74..., this definition's is sha256:"
        #expect(verdict.first?.hasPrefix(expectedVerdict) == true, "\(differs.text)")
        #expect(verdict.last == "--migrate would keep state 'odd' and context count; label would start at the initial value", "\(differs.text)")
        let differsJSON = try #require(try Smrun.run(["status", "--state", path, edited, "--format", "json"]).jsonLines().first)
        #expect(differsJSON["matches"] as? Bool == false)
        let migration = try #require(differsJSON["migration"] as? [String: Any])
        #expect(migration["possible"] as? Bool == true)
        #expect(migration["kept"] as? [String] == ["count"])
        #expect(migration["initialized"] as? [String] == ["label"])

        let renamed = try files.file("renamed.yaml", source.replacingOccurrences(of: "odd", with: "uneven"))
        let gone = try Smrun.run(["status", "--state", path, renamed])
        #expect(gone.exited(1))
        #expect(gone.lines.last == #"--migrate would refuse: the saved state "odd" is no longer a state of machine 'counter', so the snapshot cannot be migrated"#, "\(gone.text)")
    }

    @Test func anUnreadableFileOrMachineExitsTwo() throws {
        let files = try TemporaryFiles()
        let missing = try Smrun.run(["status", "--state", files.path("absent.json")])
        #expect(missing.exited(2))
        #expect(missing.stdout.isEmpty)
        #expect(missing.errorLines == ["smrun: state file \(files.path("absent.json")): no such file"])

        let corrupt = try files.file("corrupt.json", #"{"format":"statecraft-snapshot","version":1}"#)
        let bad = try Smrun.run(["status", "--state", corrupt])
        #expect(bad.exited(2))
        #expect(bad.errorLines == [#"smrun: state file \#(corrupt): missing member "machine""#])

        let path = try savedCounter(files)
        let broken = try files.file("broken.yaml", "initial: nowhere\nstates: [a]\ntransitions: []\n")
        let invalid = try Smrun.run(["status", "--state", path, broken])
        #expect(invalid.exited(2))
        #expect(invalid.errorText.contains("[undefined-state]") || invalid.errorText.contains("[invalid-initial]"), "\(invalid.errorText)")

        #expect(try Smrun.run(["status"]).exited(2), "--state is required")
    }
}
