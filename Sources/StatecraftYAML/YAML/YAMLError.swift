import Statecraft

/// Why a document could not be read: bad encoding, a syntax error, a duplicate key, a limit.
public struct YAMLError: Error, Sendable, Hashable {
    public var code: DiagnosticCode
    public var message: String
    /// Where, or `nil` for a problem with the text as a whole (its size, its encoding).
    public var position: SourcePosition?

    public init(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?) {
        self.code = code
        self.message = message
        self.position = position
    }

    public var diagnostic: Diagnostic { .error(code, message, at: position) }
}
