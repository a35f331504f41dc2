import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A machine path that is not a readable regular file is refused at once, never waited on
/// (exit status 2 for an I/O error, docs/cli.md).
@Suite struct UnreadableMachineFileTests {
    @Test func directoryIsRefused() throws {
        let files = try TemporaryFiles()
        let run = try Smrun.run([files.directory.path])
        run.expectRefusedMachine(files.directory.path)
        #expect(run.fileDiagnostic(files.directory.path, "unreadable-file")?.contains("directory") == true, "\(run.errorText)")
    }

    @Test func missingFileIsRefused() throws {
        let files = try TemporaryFiles()
        let path = files.path("missing.yaml")
        let run = try Smrun.run([path])
        run.expectRefusedMachine(path)
        #expect(run.fileDiagnostic(path, "unreadable-file")?.contains("No such file") == true, "\(run.errorText)")
    }

    @Test func fifoIsRefusedWithoutWaitingForAWriter() throws {
        let files = try TemporaryFiles()
        let path = files.path("machine.fifo")
        try #require(mkfifo(path, 0o600) == 0)
        let run = try Smrun.run([path], timeout: .seconds(10))
        run.expectRefusedMachine(path)
        #expect(run.fileDiagnostic(path, "unreadable-file")?.contains("FIFO") == true, "\(run.errorText)")
    }
}
