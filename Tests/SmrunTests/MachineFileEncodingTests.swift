import Testing

/// A machine file is UTF-8 text (docs/machine-files.md); other bytes are an `encoding` error that says where.
@Suite struct MachineFileEncodingTests {
    private let header = Array("initial: idle\nstates: [idle]\ntransitions: []\n".utf8)

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        let files = try TemporaryFiles()
        let file = try files.file("latin1.yaml", header + Array("description: caf".utf8) + [0xFF] + Array(" au lait\n".utf8))
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.diagnostic(file, 4, 17, "encoding")?.contains("UTF-8") == true, "\(run.errorText)")
    }

    @Test func truncatedUTF8SequenceIsReportedAtItsFirstByte() throws {
        let files = try TemporaryFiles()
        // 0xE9 starts a three-byte sequence; the space after it is not a continuation byte.
        let file = try files.file("truncated.yaml", header + Array("description: caf".utf8) + [0xE9] + Array(" au lait\n".utf8))
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.diagnostic(file, 4, 17, "encoding") != nil, "\(run.errorText)")
    }

    @Test func nulByteIsReportedWhereItIs() throws {
        let files = try TemporaryFiles()
        let file = try files.file("nul.yaml", header + Array("description: a".utf8) + [0] + Array("b\n".utf8))
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.diagnostic(file, 4, 15, "encoding")?.contains("NUL") == true, "\(run.errorText)")
    }

    @Test(arguments: [[UInt8(0xFF), 0xFE], [0xFE, 0xFF]])
    func utf16IsRefused(byteOrderMark: [UInt8]) throws {
        let files = try TemporaryFiles()
        let littleEndian = byteOrderMark == [0xFF, 0xFE]
        let units: [UInt8] = header.flatMap { byte -> [UInt8] in littleEndian ? [byte, 0] : [0, byte] }
        let file = try files.file("utf16.yaml", byteOrderMark + units)
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.fileDiagnostic(file, "encoding")?.contains("UTF-16") == true, "\(run.errorText)")
    }

    @Test func utf8ByteOrderMarkIsAllowed() throws {
        let files = try TemporaryFiles()
        let file = try files.file("bom.yaml", [0xEF, 0xBB, 0xBF] + Array("initial: idle\nstates: [idle, busy]\ntransitions:\n  - go | idle => busy\n".utf8))
        let run = try Smrun.run([file], input: .bytes(.init("go\n".utf8)))
        #expect(run.text == "go: idle -> busy\n", "\(run.errorText)")
        #expect(run.exited(0))
    }
}
