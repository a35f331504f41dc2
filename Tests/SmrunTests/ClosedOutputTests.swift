import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun ... | head -1`: when the reader of standard output goes away, smrun stops quietly,
/// without a crash report.
@Suite struct ClosedOutputTests {
    @Test func closingStandardOutputEarlyStopsWithoutCrashing() throws {
        let files = try TemporaryFiles()
        let script = files.path("long.script")
        try Data(String(repeating: "noFailInput\n", count: 500_000).utf8).write(to: URL(fileURLWithPath: script))
        let process = try SmrunProcess(["machines/self-driving-car.yaml"], input: .file(URL(fileURLWithPath: script)))
        #expect(try process.readLine(timeout: .seconds(10)) == "noFailInput: unstarted -> unstarted")
        try process.closeOutput()
        let run = try process.finish(output: nil, timeout: .seconds(30))
        // Killed by SIGPIPE as in a shell, or exited 0 on EPIPE when SIGPIPE is ignored.
        #expect(run.exited(0) || (run.signalled && run.status == SIGPIPE), "status \(run.status), signalled \(run.signalled)")
        #expect(!run.errorText.contains("Fatal error"), "\(run.errorText)")
        #expect(!run.errorText.localizedCaseInsensitiveContains("backtrace"), "\(run.errorText)")
        #expect(run.errorText == "")
    }
}
