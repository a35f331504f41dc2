import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile machine file is a quick `limit-exceeded` error, never a hang or a crash, and each
/// bound is raised by a flag (docs/machine-files.md: 16 MiB, depth 256, 10,000,000 nodes).
@Suite struct MachineFileLimitTests {
    /// Fast even for a debug build: the limits are checked as the file is read.
    private let quick: Duration = .seconds(1)

    @Test(.timeBound) func billionLaughsIsRefusedQuickly() throws {
        let files = try TemporaryFiles()
        // Nine levels of ten aliases each: 10^9 nodes once expanded.
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let file = try files.file("laughs.yaml", text + "initial: idle\nstates: [idle]\ntransitions: []\n")
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        let line = try #require(run.errorLines.first)
        #expect(line.hasSuffix("[limit-exceeded]") && line.contains("--max-nodes"), "\(line)")
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test(.timeBound) func deepFlowNestingIsRefusedQuickly() throws {
        let files = try TemporaryFiles()
        let file = try files.file("brackets.yaml", "initial: idle\nstates: " + String(repeating: "[", count: 100_000) + "\n")
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        let line = try #require(run.errorLines.first)
        #expect(line.hasPrefix("\(file):2:") && line.hasSuffix("[limit-exceeded]") && line.contains("--max-depth"), "\(line)")
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test(.timeBound) func deepBlockNestingIsRefusedQuickly() throws {
        let files = try TemporaryFiles()
        // `- - - idle` nests block sequences on one line: 100,000 levels in 200 KB.
        let file = try files.file("dashes.yaml", "initial: idle\nstates:\n  " + String(repeating: "- ", count: 100_000) + "idle\ntransitions: []\n")
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        let line = try #require(run.errorLines.first)
        #expect(line.hasPrefix("\(file):3:") && line.hasSuffix("[limit-exceeded]") && line.contains("--max-depth"), "\(line)")
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test func maxDepthRaisesTheDepthLimit() throws {
        let files = try TemporaryFiles()
        let file = try files.file(
            "nested.yaml", "initial: idle\nstates: " + String(repeating: "[", count: 300) + "idle" + String(repeating: "]", count: 300) + "\ntransitions: []\n")
        let limited = try Smrun.run([file])
        #expect(limited.errorLines.first?.hasSuffix("[limit-exceeded]") == true, "\(limited.errorText)")
        let raised = try Smrun.run([file, "--max-depth", "1000"])
        raised.expectRefusedMachine(file)
        #expect(!raised.errorText.contains("[limit-exceeded]"), "\(raised.errorText)")
    }

    @Test(.timeBound) func fileOverSixteenMebibytesIsRefused() throws {
        let files = try TemporaryFiles()
        let file = try files.file("huge.yaml", "initial: idle\nstates: [idle]\ntransitions: []\n")
        // Sparse: the size is what matters, no 16 MiB is written.
        try #require(truncate(file, 16 << 20 + 1) == 0)
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        let line = try #require(run.fileDiagnostic(file, "limit-exceeded"), "\(run.errorText)")
        #expect(line.contains("--max-file-size"), "\(line)")
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test func maxFileSizeLowersTheSizeLimit() throws {
        let run = try Smrun.run(["machines/traffic-light.yaml", "--max-file-size", "100"])
        run.expectRefusedMachine("machines/traffic-light.yaml")
        #expect(run.fileDiagnostic("machines/traffic-light.yaml", "limit-exceeded") != nil, "\(run.errorText)")
    }

    /// The library's diagnostic says which bound a file reached and how large it was; smrun
    /// adds the flag that raises it, each line as smrun printed it before the library knew
    /// no flags: after the message, or inside its closing parenthesis.
    @Test func eachBoundsMessageNamesTheFlagThatRaisesIt() throws {
        let files = try TemporaryFiles()
        let light = "machines/traffic-light.yaml"
        let lightSize = try #require(try FileManager.default.attributesOfItem(atPath: light)[.size] as? Int)
        let bySize = try Smrun.run([light, "--max-file-size", "100"])
        #expect(
            bySize.errorLines == ["\(light): error: file is \(lightSize) bytes, over the limit of 100 (raise it with --max-file-size) [limit-exceeded]"],
            "\(bySize.errorText)")
        let byCells = try Smrun.run([light, "--max-table-cells", "1"])
        #expect(byCells.errorLines.count == 1, "\(byCells.errorText)")
        #expect(byCells.errorLines.first?.hasSuffix(" cells, over the limit of 1 (raise it with --max-table-cells) [limit-exceeded]") == true, "\(byCells.errorText)")
        let laughs = try files.file("laughs.yaml", "a: &a [x, x, x, x]\nb: [*a, *a, *a, *a]\ninitial: idle\nstates: [idle]\n")
        let byNodes = try Smrun.run([laughs, "--max-nodes", "10"])
        #expect(
            byNodes.errorLines.count == 1
                && byNodes.errorLines[0].hasSuffix(
                    ": error: document expands to more than 10 nodes (aliases counted each time they are used; raise it with --max-nodes) [limit-exceeded]"),
            "\(byNodes.errorText)")
        let nested = try files.file("nested.yaml", "initial: idle\nstates: [[[idle]]]\n")
        let byDepth = try Smrun.run([nested, "--max-depth", "2"])
        #expect(byDepth.errorLines == ["\(nested):2:10: error: nesting deeper than 2 levels (raise it with --max-depth) [limit-exceeded]"], "\(byDepth.errorText)")
        let wide = try files.file(
            "wide.scxml", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n" + String(repeating: "<state/>\n", count: 10) + "</scxml>\n")
        let byXMLNodes = try Smrun.run([wide, "--max-nodes", "5"])
        #expect(byXMLNodes.errorLines == ["\(wide):6: error: more than 5 XML nodes (raise it with --max-nodes) [limit-exceeded]"], "\(byXMLNodes.errorText)")
        let byXMLDepth = try Smrun.run([wide, "--max-depth", "1"])
        #expect(byXMLDepth.errorLines == ["\(wide):2: error: nesting deeper than 1 levels (raise it with --max-depth) [limit-exceeded]"], "\(byXMLDepth.errorText)")
        // `validate`'s JSON and GitHub formats carry the same message.
        let json = try Smrun.run(["validate", "--format", "json", "--max-file-size", "100", light])
        #expect(json.text.contains("\"message\":\"file is \(lightSize) bytes, over the limit of 100 (raise it with --max-file-size)\"}"), "\(json.text)")
        let github = try Smrun.run(["validate", "--format", "github", "--max-file-size", "100", light])
        #expect(github.text.contains("::file is \(lightSize) bytes, over the limit of 100 (raise it with --max-file-size) [limit-exceeded]"), "\(github.text)")
    }
}
