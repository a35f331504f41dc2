import Statecraft

/// Prints diagnostics compiler style: `FILE:LINE:COL: error: MESSAGE [code]`.
enum DiagnosticPrinter {
    static func text(_ diagnostic: Diagnostic, file: String) -> String {
        "\(file):\(diagnostic.position.line):\(diagnostic.position.column): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
    }

    static func printToStandardError(_ diagnostics: [Diagnostic], file: String) {
        for diagnostic in diagnostics { FileHandleOutput.standardError(text(diagnostic, file: file) + "\n") }
    }
}
