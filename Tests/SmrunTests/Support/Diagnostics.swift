import Testing

extension SmrunOutput {
    /// The diagnostic line `FILE:LINE:COL: error: MESSAGE [code]` at that place with that code.
    func diagnostic(_ file: String, _ line: Int, _ column: Int, _ code: String) -> String? {
        errorLines.first { $0.hasPrefix("\(file):\(line):\(column): error: ") && $0.hasSuffix(" [\(code)]") }
    }

    /// The error line about `file` as a whole, `FILE: error: MESSAGE [code]`: no line or column.
    func fileDiagnostic(_ file: String, _ code: String) -> String? {
        errorLines.first { $0.hasPrefix("\(file): error: ") && $0.hasSuffix(" [\(code)]") }
    }

    /// Checks how smrun refuses an invalid machine file (docs/cli.md): exit status 2, nothing on
    /// standard output, and only compiler-style diagnostics naming `file` on standard error.
    func expectRefusedMachine(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(exited(2), "exit status \(status), signalled \(signalled)", sourceLocation: sourceLocation)
        #expect(stdout.isEmpty, "stdout: \(text.prefix(500))", sourceLocation: sourceLocation)
        #expect(!errorLines.isEmpty, "no diagnostic on stderr", sourceLocation: sourceLocation)
        let prefix = "\(file):"
        for line in errorLines {
            let rest = line.hasPrefix(prefix) ? line.dropFirst(prefix.count) : ""
            #expect(
                rest.wholeMatch(of: /([0-9]+(:[0-9]+)?:)? (error|warning): .+ \[[a-z0-9-]+\]/) != nil,
                "not FILE:LINE:COL: error: MESSAGE [code] (or FILE:LINE: in an SCXML document, or FILE: error: ...): \(line.prefix(500))", sourceLocation: sourceLocation)
        }
    }
}
