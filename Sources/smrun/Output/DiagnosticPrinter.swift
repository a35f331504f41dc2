@_spi(Engine) import Statecraft

/// Prints diagnostics compiler style: `FILE:LINE:COL: error: MESSAGE [code]` (`FILE:LINE:` in an SCXML
/// document, whose elements have lines but no columns), or
/// `FILE: error: MESSAGE [code]` for a problem with the file as a whole (no position). Control
/// characters in the message (a key read from the file) are escaped as JSON escapes them.
enum DiagnosticPrinter {
    static func text(_ diagnostic: Diagnostic, file: String) -> String {
        var bytes: [UInt8] = []
        append(diagnostic, file: file, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``text(_:file:)``'s UTF-8 to `bytes`: a report of many diagnostics (`validate` of a
    /// large file prints tens of thousands) is built in one buffer, its parts copied, not
    /// interpolated.
    static func append(_ diagnostic: Diagnostic, file: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: file.utf8)
        bytes.append(UInt8(ascii: ":"))
        if let position = diagnostic.position {
            bytes.append(contentsOf: position.description.utf8)
            bytes.append(UInt8(ascii: ":"))
        }
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: diagnostic.severity.rawValue.utf8)
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: JSONText.escapingControls(diagnostic.message).utf8)
        bytes.append(contentsOf: " [".utf8)
        bytes.append(contentsOf: diagnostic.code.rawValue.utf8)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Prints the errors: warnings (a machine under `on_error: raise` loads with some) are
    /// `smrun validate`'s to show, not a run's.
    static func printToStandardError(_ diagnostics: [Diagnostic], file: String) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            FileHandleOutput.standardError(text(diagnostic, file: file) + "\n")
        }
    }
}
