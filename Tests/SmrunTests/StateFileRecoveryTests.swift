import Foundation
import Testing

/// `--state FILE --reset` and `--state FILE --migrate`: the ways forward when FILE does not
/// resume the machine (README "State files"), each keeping the old FILE as a backup.
@Suite struct StateFileRecoveryTests {
    static let counter = Paths.fixture("counter.yaml")

    /// The counter machine edited: `count`'s initial value, more context, the odd state's name,
    /// what `increment` sets `count` to.
    static func editedCounter(
        _ files: TemporaryFiles, count: String = "0", more: String = "", odd: String = "odd", increment: String = "'count + 2'"
    ) throws -> String {
        try files.file(
            "edited.yaml",
            """
            machine: counter
            initial: even
            context:
              count: \(count)
            \(more)
            states: [even, \(odd)]
            effects:
              increment: { set: { count: \(increment) } }
            transitions:
              - inc | even => \(odd) | increment
              - inc | \(odd) => even | increment
            """)
    }

    /// The backups of `path` in its directory.
    static func backups(of path: String) throws -> [String] {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".bak") }.sorted()
            .map { url.deletingLastPathComponent().appendingPathComponent($0).path }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func theRefusalSaysHowToGetPastIt() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc"]).exited(0))
        let edited = try Self.editedCounter(files)
        let refused = try Smrun.run([edited, "--state", path, "--send", "inc"])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains("the file was not changed; use --migrate to keep the state and the context values that still fit, or --reset to start afresh"), "\(refused.errorText)")

        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        let corrupt = try Smrun.run([Self.counter, "--state", path])
        #expect(corrupt.exited(2))
        #expect(corrupt.errorText.hasSuffix("the file was not changed; use --reset to start afresh, keeping a backup\n"), "\(corrupt.errorText)")
    }

    @Test func migrateKeepsTheStateAndTheValuesThatStillFit() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc", "--send", "inc", "--send", "inc"]).exited(0))
        let old = try Self.bytes(path)
        let edited = try Self.editedCounter(files, more: "  label: none")

        let migrated = try Smrun.run([edited, "--state", path, "--migrate", "--send", "inc"])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.lines == ["inc: odd -> even / increment"], "the saved state and count go on")
        let backups = try Self.backups(of: path)
        #expect(backups.count == 1)
        #expect(try Self.bytes(backups[0]) == old, "the backup is the old file byte for byte")
        #expect(
            migrated.errorLines == [
                "smrun: state file \(path): migrated to this definition of machine 'counter': kept state 'odd' and context count; label starts at the initial value; the old file is \(backups[0])"
            ])
        // FILE is now a snapshot of the edited machine: it resumes without --migrate.
        let resumed = try Smrun.run([edited, "--state", path, "--format", "json", "--send", "inc"])
        #expect(resumed.exited(0), "\(resumed.errorText)")
        let context = try #require(try resumed.jsonLines().first?["context"] as? [String: Any])
        #expect(context["count"] as? Int == 7 && context["label"] as? String == "none")
    }

    @Test func migrateSaysWhatItDropped() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc"]).exited(0))
        let edited = try Self.editedCounter(files, count: "'\"zero\"'", increment: "'count + \"!\"'")
        let migrated = try Smrun.run([edited, "--state", path, "--migrate"])
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.errorText.contains("kept state 'odd'; dropped count (now of type string, and the saved value is 1); count starts at the initial value"), "\(migrated.errorText)")
    }

    @Test func migrateRefusesWhenTheSavedStateIsGone() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc"]).exited(0))
        let before = try Self.bytes(path)
        let edited = try Self.editedCounter(files, odd: "odd2")
        let refused = try Smrun.run([edited, "--state", path, "--migrate", "--send", "inc"])
        #expect(refused.exited(2))
        #expect(refused.text.isEmpty)
        #expect(refused.errorText.contains(#"the saved state "odd" is no longer a state of machine 'counter'"#), "\(refused.errorText)")
        #expect(refused.errorText.contains("use --reset"), "\(refused.errorText)")
        #expect(try Self.bytes(path) == before)
        #expect(try Self.backups(of: path).isEmpty)
    }

    @Test func migrateRefusesAnotherMachinesSnapshot() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Paths.fixture("counter-with-start.yaml"), "--state", path, "--send", "inc"]).exited(0))
        let refused = try Smrun.run([Self.counter, "--state", path, "--migrate"])
        #expect(refused.exited(2))
        #expect(refused.errorText.contains("belongs to machine 'counter-with-start', not to 'counter'"), "\(refused.errorText)")
    }

    @Test func migrateOfACurrentSnapshotChangesNothing() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        #expect(try Smrun.run([Self.counter, "--state", path, "--send", "inc"]).exited(0))
        let run = try Smrun.run([Self.counter, "--state", path, "--migrate", "--send", "inc"])
        #expect(run.exited(0))
        #expect(run.errorText.isEmpty)
        #expect(run.lines == ["inc: odd -> even / increment"])
        #expect(try Self.backups(of: path).isEmpty)
    }

    @Test func resetStartsAfreshAndKeepsTheOldFile() throws {
        let files = try TemporaryFiles()
        let path = files.path("counter.json")
        let corrupt = Data("not json".utf8)
        try corrupt.write(to: URL(fileURLWithPath: path))
        let start = Paths.fixture("counter-with-start.yaml")
        let reset = try Smrun.run([start, "--state", path, "--reset", "--send", "inc"])
        #expect(reset.exited(0), "\(reset.errorText)")
        #expect(reset.lines == ["start: -> on / boot", "inc: on -> on / increment"], "a fresh start runs the start effects")
        let backups = try Self.backups(of: path)
        #expect(backups.count == 1)
        #expect(backups.first?.wholeMatch(of: /.*counter\.json\.[0-9]{8}T[0-9]{6}Z\.bak/) != nil, "\(backups)")
        #expect(try Self.bytes(backups[0]) == corrupt)
        #expect(reset.errorLines == ["smrun: state file \(path): reset: starting from the initial state; the old file is \(backups[0])"])
        #expect(try Smrun.run([start, "--state", path, "--send", "inc"]).lines == ["inc: on -> on / increment"])

        // A second reset in the same second gets a backup of its own.
        #expect(try Smrun.run([start, "--state", path, "--reset"]).exited(0))
        #expect(try Smrun.run([start, "--state", path, "--reset"]).exited(0))
        #expect(try Self.backups(of: path).count == 3)
    }

    @Test func resetWithoutAFileIsAFirstRun() throws {
        let files = try TemporaryFiles()
        let path = files.path("new.json")
        let run = try Smrun.run([Self.counter, "--state", path, "--reset", "--send", "inc"])
        #expect(run.exited(0))
        #expect(run.errorText.isEmpty)
        #expect(try Self.backups(of: path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func resetAndMigrateNeedStateAndExcludeEachOther() throws {
        let alone = try Smrun.run([Self.counter, "--reset", "--send", "inc"])
        #expect(alone.exited(2))
        #expect(alone.errorText.contains("--reset needs --state FILE"), "\(alone.errorText)")
        let migrate = try Smrun.run([Self.counter, "--migrate", "--send", "inc"])
        #expect(migrate.exited(2))
        #expect(migrate.errorText.contains("--migrate needs --state FILE"), "\(migrate.errorText)")
        let both = try Smrun.run([Self.counter, "--state", "x.json", "--reset", "--migrate"])
        #expect(both.exited(2))
        #expect(both.errorText.contains("cannot be used together"), "\(both.errorText)")
    }
}
