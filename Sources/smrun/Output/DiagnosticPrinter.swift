import Statecraft

/// Prints diagnostics compiler style: `FILE:LINE:COL: error: MESSAGE [code]` (`FILE:LINE:` in an SCXML
/// document, whose elements have lines but no columns), or
/// `FILE: error: MESSAGE [code]` for a problem with the file as a whole (no position). Control
/// characters in the message (a key read from the file) are escaped as JSON escapes them. A file
/// past a bound that a flag sets is told the flag (``message(of:)``).
enum DiagnosticPrinter {
    /// The diagnostic's message as smrun prints it: the library's, which says which bound of
    /// ``LoadLimits`` a file reached and how large it was, with the flag that raises the bound
    /// (`... over the limit of 16777216 (raise it with --max-file-size)`); a message that ends in
    /// a parenthesis takes the flag inside it (`(aliases counted each time they are used; raise
    /// it with --max-nodes)`).
    static func message(of diagnostic: Diagnostic) -> String {
        guard let limit = diagnostic.limit else { return diagnostic.message }
        let message = diagnostic.message
        let advice = "raise it with \(limit.flag)"
        return message.hasSuffix(")") ? "\(message.dropLast()); \(advice))" : "\(message) (\(advice))"
    }

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
        bytes.append(contentsOf: JSONText.escapingControls(message(of: diagnostic)).utf8)
        bytes.append(contentsOf: " [".utf8)
        bytes.append(contentsOf: diagnostic.code.rawValue.utf8)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Prints the diagnostics of a machine that did not load, as `smrun validate` shows them:
    /// its errors, each with the warnings that explain it (``RelatedWarnings``); a machine that
    /// loads prints nothing: its warnings (under `on_error: raise` it loads with some) are
    /// `smrun validate`'s to show, not a run's.
    static func printToStandardError(_ diagnostics: [Diagnostic], file: String) {
        guard diagnostics.hasErrors else { return }
        for diagnostic in diagnostics {
            FileHandleOutput.standardError(text(diagnostic, file: file) + "\n")
        }
    }
}
