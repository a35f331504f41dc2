import Foundation
import Statecraft
import StatecraftSCXML
import StatecraftYAML

/// How long loading a machine file takes in-process (process start-up excluded).
enum LoadBenchmark {
    /// One `YAMLFile.load(path:)` (`SCXMLFile.load(path:)` for a `.scxml` file), the whole of
    /// what `smrun` does before it runs or lints:
    /// prints its wall, user and system time and the peak RSS, in measure.c's format. When it
    /// takes longer than `timeout` seconds, prints the same for the time so far and exits 124
    /// (as `timeout` does).
    static func load(_ path: String, timeout: Double?) {
        let start = Usage.Start()
        if let timeout {
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: timeout)
                say(start.elapsed().line)
                _exit(124)
            }
        }
        let loaded = path.hasSuffix(".scxml") ? SCXMLFile.load(path: path) : YAMLFile.load(path: path)
        let usage = start.elapsed()
        guard loaded.machine != nil else { fail(problems(path, loaded.diagnostics)) }
        say(usage.line)
    }

    /// Where loading's time goes: reading, the YAML parse (to the flat document that loading
    /// decodes), the whole load again (parse, decode, compile), and the linter that
    /// `smrun validate` runs after it.
    static func phases(_ path: String) {
        let (read, bytes) = Usage.of { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
        guard let bytes else { fail("cannot read \(path)") }
        say("  read the file                 \(milliseconds(read))  (\(grouped(bytes.count)) bytes)")
        let (parse, hasRoot) = Usage.of { (try? YAMLParser.parseDocument(bytes))?.root != nil }
        guard hasRoot else { fail("\(path): not a YAML document") }
        say("  YAML parse to document        \(milliseconds(parse))")
        let (load, loaded) = Usage.of { YAMLFile.load(bytes: bytes, defaultName: "machine") }
        guard let machine = loaded.machine, let definition = loaded.definition else { fail(problems(path, loaded.diagnostics)) }
        say("  YAMLFile.load(bytes:)      \(milliseconds(load))  (the parse again, then decode and compile: \(format((load.wall - parse.wall) * 1000, decimals: 1)) ms more)")
        let (lint, warnings) = Usage.of { MachineLinter.lint(machine, definition: definition) }
        say("  MachineLinter.lint            \(milliseconds(lint))  (\(warnings.count) warnings)")
        say("  (\(grouped(machine.stateCount)) states, \(grouped(machine.inputCount)) inputs, \(grouped(machine.transitions.count)) transitions; peak RSS \(lint.peakKiB / 1024) MiB)")
        say("  (a dispatch table of \(grouped(machine.dispatchCellCount)) cells, where states times inputs are \(grouped(machine.stateCount * machine.inputCount)))")
    }

    private static func milliseconds(_ usage: Usage) -> String { milliseconds(usage.wall) }

    private static func milliseconds(_ seconds: Double) -> String {
        padded(format(seconds * 1000, decimals: 1), 9, right: true) + " ms"
    }

    private static func problems(_ path: String, _ diagnostics: [Diagnostic]) -> String {
        "\(path) does not load: " + diagnostics.prefix(3).map(\.description).joined(separator: "; ")
    }
}
