import Statecraft

/// Loads SCXML documents (docs/scxml.md): bytes -> libxml2's parser -> definition (decoded as the
/// elements stream by, no tree kept) ->
/// compiled machine, collecting every diagnostic on the way, as `YAMLFile` does for YAML.
/// The bounds of machine files (``LoadLimits``) apply: file size, nesting depth, node count and
/// table cells. `try StateMachine(loaded)` runs what it loads.
public enum SCXMLFile {
    /// Loads an SCXML document's text. `defaultName` names the machine when `<scxml>` has no `name`.
    /// The text is freed once decoded, before the machine is compiled, when the caller hands it
    /// over.
    public static func load(bytes: consuming [UInt8], defaultName: String, limits: LoadLimits = .default) -> LoadResult {
        if bytes.count > limits.maximumBytes {
            return LoadResult(
                failure: [.limitExceeded(.fileSize, "document is \(bytes.count) bytes, over the limit of \(limits.maximumBytes)", at: nil)])
        }
        let (definition, diagnostics) = decode(bytes, defaultName: defaultName, limits: limits)
        // The document's text (16 MB for a 100,000-transition machine) is not needed to compile.
        _ = consume bytes
        guard let definition else { return LoadResult(failure: diagnostics) }
        return LoadResult(compiling: definition, decodingDiagnostics: diagnostics, limits: limits)
    }

    /// Loads the document at `path`. An unreadable path (missing, a directory, a FIFO, too large)
    /// is one `unreadable-file` or `limit-exceeded` diagnostic without a position.
    public static func load(path: String, limits: LoadLimits = .default) -> LoadResult {
        LoadResult(reading: path, limits: limits, extensions: [".scxml"]) { load(bytes: $0, defaultName: $1, limits: $2) }
    }

    /// Reads and decodes a document into a definition, without compiling it.
    package static func decode(
        _ bytes: [UInt8], defaultName: String, limits: LoadLimits
    ) -> (definition: MachineDefinition?, diagnostics: [Diagnostic]) {
        var knownIds: Set<String> = []
        while true {
            let read = XMLStreamReader.read(bytes, limits: limits) { stream, root in
                var decoder = SCXMLDecoder(stream, knownIds: knownIds)
                let definition = decoder.decode(root, defaultName: defaultName)
                return (definition, decoder.diagnostics, decoder.madeUpIds, decoder.textDiagnosticsIndex)
            }
            switch read {
            case .failure(let diagnostic):
                return (nil, [diagnostic])
            case .success(let (decoded, textDiagnostics, stateIds)):
                let (definition, decodedDiagnostics, madeUpIds, textDiagnosticsIndex) = decoded
                var diagnostics = decodedDiagnostics
                // A made-up id that a state further on gives: decoded again, knowing every id.
                if knownIds.isEmpty, madeUpIds.contains(where: stateIds.contains) {
                    knownIds = stateIds
                    continue
                }
                if let textDiagnosticsIndex { diagnostics.insert(contentsOf: textDiagnostics, at: textDiagnosticsIndex) }
                return (definition, diagnostics)
            }
        }
    }
}
