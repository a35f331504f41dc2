/// A problem found in a machine definition: where, how bad, a stable code, and what was expected.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error, warning
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var position: SourcePosition

    public init(_ severity: Severity, _ code: DiagnosticCode, _ message: String, at position: SourcePosition) {
        self.severity = severity
        self.code = code
        self.message = message
        self.position = position
    }

    public static func error(_ code: DiagnosticCode, _ message: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(.error, code, message, at: position)
    }

    public static func warning(_ code: DiagnosticCode, _ message: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(.warning, code, message, at: position)
    }

    /// `LINE:COL: error: MESSAGE [code]`, the compiler style without the file name.
    public var description: String {
        "\(position): \(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

/// The stable identifiers of diagnostics, printed as `[code]` and used by tools.
public enum DiagnosticCode: String, Hashable, Sendable, CaseIterable {
    // The file itself.
    case unreadableFile = "unreadable-file"
    case encoding
    case yamlSyntax = "yaml-syntax"
    case limitExceeded = "limit-exceeded"
    case duplicateKey = "duplicate-key"
    // Schema.
    case unknownKey = "unknown-key"
    case missingKey = "missing-key"
    case wrongKind = "wrong-kind"
    case invalidName = "invalid-name"
    case invalidRow = "invalid-row"
    case invalidValue = "invalid-value"
    // References and names.
    case undefinedState = "undefined-state"
    case undefinedInput = "undefined-input"
    case undefinedVariable = "undefined-variable"
    case duplicateState = "duplicate-state"
    case duplicateInput = "duplicate-input"
    case duplicateEffect = "duplicate-effect"
    case duplicateVariable = "duplicate-variable"
    case invalidInitial = "invalid-initial"
    // Statecharts: the shape of the state tree and of transitions' targets.
    case invalidState = "invalid-state"
    case invalidTarget = "invalid-target"
    case eventlessCycle = "eventless-cycle"
    // Expressions and types.
    case expressionSyntax = "expression-syntax"
    case expressionType = "expression-type"
    case argumentType = "argument-type"
    // Warnings: the machine runs, but probably not as meant.
    case unreachableState = "unreachable-state"
    case unreachableFinal = "unreachable-final"
    case trapState = "trap-state"
    case shadowedTransition = "shadowed-transition"
    case unusedInput = "unused-input"
    case sendCycle = "send-cycle"
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
