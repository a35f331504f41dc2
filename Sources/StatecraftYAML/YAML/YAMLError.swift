import Statecraft

/// Why a document could not be read: bad encoding, a syntax error, a duplicate key, a limit.
package struct YAMLError: Error, Sendable, Hashable {
    package var code: DiagnosticCode
    package var message: String
    /// Where, or `nil` for a problem with the text as a whole (its size, its encoding).
    package var position: SourcePosition?

    package init(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?) {
        self.code = code
        self.message = message
        self.position = position
    }

    package var diagnostic: Diagnostic { .error(code, message, at: position) }
}
