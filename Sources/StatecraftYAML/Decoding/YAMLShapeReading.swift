import Statecraft

/// What a decoder of a YAML document into a model shares: its diagnostics, and the readers of
/// the document's shape that report, with a position, what is missing or of the wrong kind.
protocol YAMLShapeReading {
    var document: YAMLDocument { get }
    var diagnostics: [Diagnostic] { get set }
}

extension YAMLShapeReading {
    mutating func error(_ code: DiagnosticCode, _ message: String, _ position: SourcePosition) {
        diagnostics.append(.error(code, message, at: position))
    }

    /// The value of `key` in `map`, or a `missing-key` error at the mapping.
    mutating func required(_ map: Int, _ key: StaticString) -> Int? {
        if let entry = document.entry(map, key) { return entry.value }
        error(.missingKey, "missing required key '\(key)'", document[map].position)
        return nil
    }

    /// `node` when it is a mapping, or a `wrong-kind` error naming `what`.
    mutating func mapping(_ node: Int, _ what: String) -> Int? {
        if document[node].kind == .mapping { return node }
        error(.wrongKind, "\(what) must be a mapping, not \(document.kindDescription(node))", document[node].position)
        return nil
    }

    /// A duration (`30s`, `250ms`), reported at the character at fault when malformed.
    mutating func delay(_ node: Int, _ what: String) -> Delay? {
        let scalar = document[node]
        guard scalar.kind == .scalar, !document.isNull(node) else {
            error(.wrongKind, "\(what) must be a duration such as 30s, not \(document.kindDescription(node))", scalar.position)
            return nil
        }
        let offset = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
        let text = document.string(node)
        do {
            return try Delay(parsing: text)
        } catch {
            self.error(
                .invalidValue, "'\(text)' is not a duration for \(what): \(error.message)",
                scalar.position.advanced(by: offset + error.offset))
            return nil
        }
    }
}
