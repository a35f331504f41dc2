import Statecraft

/// The diagnostics of every validated file, rendered in a ``ValidationFormat``.
struct ValidationReport {
    struct FileReport {
        var file: String
        var diagnostics: [Diagnostic]
    }

    var files: [FileReport]

    // Counted in place: filtering would copy every diagnostic of a file with tens of thousands.
    var errorCount: Int { files.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .error } } }
    var warningCount: Int { files.reduce(0) { $0 + $1.diagnostics.count { $0.severity == .warning } } }
    var hasUnreadableFile: Bool { files.contains { $0.diagnostics.contains { $0.code == .unreadableFile } } }

    /// `3 files, 2 errors, 1 warning`.
    var summary: String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return "\(count(files.count, "file")), \(count(errorCount, "error")), \(count(warningCount, "warning"))"
    }

    func rendered(as format: ValidationFormat) -> String {
        let all = files.flatMap { file in file.diagnostics.map { (file.file, $0) } }
        switch format {
        case .text:
            var bytes: [UInt8] = []
            for (file, diagnostic) in all {
                DiagnosticPrinter.append(diagnostic, file: file, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            return String(decoding: bytes, as: UTF8.self)
        case .json:
            // A problem with the file as a whole has `"line":null,"column":null`; one at a line
            // without a column (an SCXML element) `"column":null`.
            let objects = all.map { file, d in
                "  {\"file\":\(JSONText.quoted(file)),\"line\":\(d.position.map { "\($0.line)" } ?? "null"),"
                    + "\"column\":\(d.position.flatMap { $0.column > 0 ? "\($0.column)" : nil } ?? "null"),"
                    + "\"severity\":\"\(d.severity.rawValue)\",\"code\":\"\(d.code.rawValue)\",\"message\":\(JSONText.quoted(DiagnosticPrinter.message(of: d)))}"
            }
            return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        case .github:
            return all.map { file, d in
                let position = d.position.map { "line=\($0.line)," + ($0.column > 0 ? "col=\($0.column)," : "") } ?? ""
                return "::\(d.severity.rawValue) file=\(Self.property(file)),\(position)title=\(d.code.rawValue)::"
                    + Self.data("\(JSONText.escapingControls(DiagnosticPrinter.message(of: d))) [\(d.code.rawValue)]") + "\n"
            }.joined()
        }
    }

    /// Escapes a workflow command's message.
    private static func data(_ text: String) -> String {
        text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    /// Escapes a workflow command's property value.
    private static func property(_ text: String) -> String {
        data(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, _ replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
