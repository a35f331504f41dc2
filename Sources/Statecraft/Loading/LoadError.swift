/// Thrown when a machine file cannot be read or is invalid: every problem found in it.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    /// The problems, errors and warnings alike, in file order, but for the warnings that explain
    /// an error, which come right after it (``RelatedWarnings``).
    public let diagnostics: [Diagnostic]

    package init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The errors, one per line, each with its line and column when it has one.
    public var description: String {
        diagnostics.filter { $0.severity == .error }.map { "\($0.position.map { "\($0): " } ?? "")\($0.message)" }
            .joined(separator: "\n")
    }
}
