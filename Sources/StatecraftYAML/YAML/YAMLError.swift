import Statecraft

/// Why a document could not be read: bad encoding, a syntax error, a duplicate key, a limit.
package struct YAMLError: Error, Sendable, Hashable {
    package var code: DiagnosticCode
    package var message: String
    /// Where, or `nil` for a problem with the text as a whole (its size, its encoding).
    package var position: SourcePosition?
    /// The bound of ``LoadLimits`` reached, for a `limit-exceeded` error.
    package var limit: LoadLimits.Limit?

    package init(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// A `limit-exceeded` error: the document reached `limit`.
    package init(exceeding limit: LoadLimits.Limit, _ message: String, at position: SourcePosition?) {
        self.init(.limitExceeded, message, at: position)
        self.limit = limit
    }

    package var diagnostic: Diagnostic { Diagnostic(.error, code, message, at: position, limit: limit) }
}
