import Foundation
import Statecraft
import Testing

@testable import StatecraftStore

/// A run's snapshot is the one its document reads back as: the SQLite store's writer keeps the
/// snapshot of each instance it wrote last and runs the next input from it without reading the
/// document again, so both must resume the instance the same way. Every example machine follows
/// its scripts on each clock, each run checked.
struct RunSnapshotReadBackTests {
    static let machines = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("machines")

    /// The example machines, each with the scripts written for it.
    static func examples() throws -> [(file: URL, scripts: [URL])] {
        let files = try FileManager.default.contentsOfDirectory(at: machines, includingPropertiesForKeys: nil)
        return files.filter { ["yaml", "scxml"].contains($0.pathExtension) }.sorted { $0.path < $1.path }.map { file in
            let base = file.deletingPathExtension().lastPathComponent
            let scripts = files.filter {
                $0.pathExtension == "script" && ($0.lastPathComponent.hasPrefix(base + ".") || $0.lastPathComponent == base + ".script")
            }
            return (file, scripts.sorted { $0.path < $1.path })
        }
    }

    /// A script line as an input and its argument as the API takes it (JSON text): a word that
    /// is no JSON value is a string.
    static func input(_ line: Substring) -> (name: String, argument: String?) {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return (String(parts[0]), nil) }
        let word = parts[1]
        let isJSON = "\"-0123456789tfn[{".contains(word.first!)
        return (String(parts[0]), isJSON ? String(word) : "\"\(word)\"")
    }

    @Test(arguments: [MachineSnapshot.Clock.virtual, .real]) func everyRunsSnapshotIsTheOneItsDocumentReadsBackAs(_ clock: MachineSnapshot.Clock)
        throws
    {
        var runs = 0
        for (file, scripts) in try Self.examples() where !scripts.isEmpty {
            let format: StoredDefinition.Format = file.pathExtension == "scxml" ? .scxml : .yaml
            let (loaded, _) = DefinitionCatalog.runtime(source: Array(try Data(contentsOf: file)), format: format, defaultName: "m")
            let runtime = try #require(loaded, "\(file.lastPathComponent) loads")
            for script in scripts {
                var now = 1_800_000_000_000
                var run = runtime.start(context: nil, now: clock == .real ? now : 0, clock: clock)
                func check(_ step: String) throws {
                    #expect(try runtime.snapshot(run.document) == run.snapshot, "\(script.lastPathComponent), \(step), \(clock) clock")
                    runs += 1
                }
                try check("start")
                for line in try String(contentsOf: script, encoding: .utf8).split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                    now += 700
                    if trimmed.hasPrefix("@") {
                        run = runtime.advance(run.snapshot, to: clock == .real ? now : run.snapshot.time + 700)
                        try check(trimmed)
                        continue
                    }
                    let (name, argument) = Self.input(trimmed[...])
                    guard let next = try? runtime.send(run.snapshot, input: name, argument: argument, now: clock == .real ? now : nil) else { continue }
                    run = next
                    try check(trimmed)
                }
            }
        }
        #expect(runs > 100)
    }
}
