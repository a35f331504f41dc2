@_spi(Engine) import Statecraft

/// Prints diagnostics compiler style: `FILE:LINE:COL: error: MESSAGE [code]` (`FILE:LINE:` in an SCXML
/// document, whose elements have lines but no columns), or
/// `FILE: error: MESSAGE [code]` for a problem with the file as a whole (no position). Control
/// characters in the message (a key read from the file) are escaped as JSON escapes them.
enum DiagnosticPrinter {
    static func text(_ diagnostic: Diagnostic, file: String) -> String {
        let position = diagnostic.position.map { "\($0):" } ?? ""
        return "\(file):\(position) \(diagnostic.severity.rawValue): \(JSONText.escapingControls(diagnostic.message)) [\(diagnostic.code.rawValue)]"
    }

    /// Prints the errors: warnings (a machine under `on_error: raise` loads with some) are
    /// `smrun validate`'s to show, not a run's.
    static func printToStandardError(_ diagnostics: [Diagnostic], file: String) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            FileHandleOutput.standardError(text(diagnostic, file: file) + "\n")
        }
    }
}
