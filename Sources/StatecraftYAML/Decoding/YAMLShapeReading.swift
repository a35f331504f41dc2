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
}
