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
}
