import Statecraft

/// Why a document could not be read: bad encoding, a syntax error, a duplicate key, a limit.
public struct YAMLError: Error, Sendable, Hashable {
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation

    public init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation) {
        self.code = code
        self.message = message
        self.location = location
    }

    public var diagnostic: Diagnostic { .error(code, message, at: location) }
}
