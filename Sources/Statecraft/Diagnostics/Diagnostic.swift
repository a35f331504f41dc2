/// A problem found in a machine definition: where, how bad, a stable code, and what was expected.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad a diagnostic is.
    public enum Severity: String, Hashable, Sendable {
        /// The machine cannot load.
        case error
        /// The machine loads, but probably does not do what was meant.
        case warning
    }

    /// An error (the machine does not load) or a warning.
    public var severity: Severity
    /// The stable code.
    public var code: DiagnosticCode
    /// What is wrong, with a did-you-mean suggestion when one fits.
    public var message: String
    /// Where in the file, or `nil` for a problem with the file as a whole (it cannot be opened,
    /// is a directory, is too large): such a problem has no line to point at.
    public var position: SourcePosition?
    /// For a `limit-exceeded` diagnostic, the bound of ``LoadLimits`` the file reached (its
    /// message says how large the input was and what the bound is), so that a program can name
    /// the setting that raises it; `nil` for every other diagnostic, and for the bounds no
    /// ``LoadLimits`` field sets (libxml2's own, the depth of nested states).
    public var limit: LoadLimits.Limit?

    package init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, at position: SourcePosition?,
        limit: LoadLimits.Limit? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.position = position
        self.limit = limit
    }

    package static func error(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?) -> Diagnostic {
        Diagnostic(.error, code, message, at: position)
    }

    /// A `limit-exceeded` error: the input reached `limit`.
    package static func limitExceeded(_ limit: LoadLimits.Limit, _ message: String, at position: SourcePosition?) -> Diagnostic {
        Diagnostic(.error, .limitExceeded, message, at: position, limit: limit)
    }

    package static func warning(_ code: DiagnosticCode, _ message: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(.warning, code, message, at: position)
    }

    /// `LINE:COL: error: MESSAGE [code]`, the compiler style without the file name (without
    /// `LINE:COL: ` for a problem with the file as a whole).
    public var description: String {
        "\(position.map { "\($0): " } ?? "")\(severity.rawValue): \(message) [\(code.rawValue)]"
    }

    /// Whether `a` comes before `b` in file order: problems with the whole file first, then by
    /// line and column.
    package static func inFileOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        switch (a.position, b.position) {
        case (nil, nil), (_?, nil): false
        case (nil, _?): true
        case (let a?, let b?): a < b
        }
    }
}

/// The stable identifiers of diagnostics, printed as `[code]` and used by tools.
public enum DiagnosticCode: String, Hashable, Sendable, CaseIterable {
    // The file itself.
    /// The file could not be read.
    case unreadableFile = "unreadable-file"
    /// The file is not UTF-8 text.
    case encoding
    /// The file is not valid YAML.
    case yamlSyntax = "yaml-syntax"
    /// The file is not well-formed XML (an SCXML document).
    case xmlSyntax = "xml-syntax"
    /// The file exceeds a bound: one of ``LoadLimits`` (``Diagnostic/limit`` says which), or a
    /// fixed one (libxml2's, the depth of nested states).
    case limitExceeded = "limit-exceeded"
    /// A mapping has the same key twice.
    case duplicateKey = "duplicate-key"
    /// A feature of the file's format that Statecraft does not run (an SCXML element such as
    /// `<invoke>`, a datamodel other than its own, a document type declaration).
    case unsupported
    // Schema.
    /// A key the schema does not have.
    case unknownKey = "unknown-key"
    /// A required key is missing.
    case missingKey = "missing-key"
    /// A scalar, list or mapping where another was expected.
    case wrongKind = "wrong-kind"
    /// A name that is empty or uses reserved characters or words.
    case invalidName = "invalid-name"
    /// A transition row that does not read `INPUT | FROM => TO | EFFECTS`.
    case invalidRow = "invalid-row"
    /// A value that the key does not accept.
    case invalidValue = "invalid-value"
    // References and names.
    /// A reference to a state that is not declared.
    case undefinedState = "undefined-state"
    /// A reference to an input that is not declared.
    case undefinedInput = "undefined-input"
    /// A reference to a context variable that is not declared.
    case undefinedVariable = "undefined-variable"
    /// A state declared twice.
    case duplicateState = "duplicate-state"
    /// An input declared twice.
    case duplicateInput = "duplicate-input"
    /// An effect defined twice.
    case duplicateEffect = "duplicate-effect"
    /// A context variable declared twice.
    case duplicateVariable = "duplicate-variable"
    /// An initial state that is final, so the machine could accept no input.
    case invalidInitial = "invalid-initial"
    // Statecharts: the shape of the state tree and of transitions' targets.
    case invalidState = "invalid-state"
    case invalidTarget = "invalid-target"
    case eventlessCycle = "eventless-cycle"
    // Expressions and types.
    /// A guard or effect expression that does not parse.
    case expressionSyntax = "expression-syntax"
    /// A guard or effect expression of the wrong type.
    case expressionType = "expression-type"
    /// An argument of the wrong type for its input.
    case argumentType = "argument-type"
    // Warnings: the machine runs, but probably not as meant.
    /// Warning: no path from the initial state reaches the state.
    case unreachableState = "unreachable-state"
    /// Warning: no path from the initial state reaches the final state.
    case unreachableFinal = "unreachable-final"
    /// Warning: a state that is not final but cannot be left.
    case trapState = "trap-state"
    /// Warning: a transition that an earlier one always takes the place of.
    case shadowedTransition = "shadowed-transition"
    /// Warning: an input that no transition uses, always rejected.
    case unusedInput = "unused-input"
    /// Warning: effects that send inputs in a cycle (a livelock, stopped by the step limit).
    case sendCycle = "send-cycle"
    /// Warning: an effect run by a transition or state that the file's `effects` section does not declare.
    case undeclaredEffect = "undeclared-effect"
    /// Warning: a declared effect (or hook) that no transition or state runs.
    case unusedEffect = "unused-effect"
    /// A `cancel` names an id that no delayed `send` has.
    case undefinedTimer = "undefined-timer"
    /// Warning: a transition that lists a final state in `from`: it can never leave from there.
    case fromFinalState = "from-final-state"
    /// Warning: a parallel state with one region.
    case singleRegion = "single-region"
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
