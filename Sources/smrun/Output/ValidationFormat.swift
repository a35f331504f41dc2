import ArgumentParser

/// How `smrun validate` prints diagnostics.
enum ValidationFormat: String, ExpressibleByArgument, CaseIterable {
    /// `FILE:LINE:COL: error: MESSAGE [code]`, one per line, and a summary on standard error.
    case text
    /// One JSON array of `{file, line, column, severity, code, message}` objects.
    case json
    /// GitHub Actions workflow commands: `::error file=...,line=...,col=...::MESSAGE`.
    case github
}
