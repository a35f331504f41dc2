import Statecraft

/// Loads YAML machine files: bytes -> YAML nodes -> definition -> compiled machine, collecting
/// every diagnostic on the way, as `SCXMLFile` does for SCXML documents. `try StateMachine(loaded)`
/// runs what it loads.
public enum YAMLFile {
    /// Loads machine-file text. `defaultName` names the machine when the file has no `machine` key.
    /// The bytes are consumed so that, unless the caller keeps them, they are gone before compiling.
    public static func load(bytes: consuming [UInt8], defaultName: String, limits: LoadLimits = .default) -> LoadResult {
        let (definition, decodingDiagnostics) = decode(consume bytes, defaultName: defaultName, limits: limits)
        guard let definition else { return LoadResult(failure: decodingDiagnostics) }
        return LoadResult(compiling: definition, decodingDiagnostics: decodingDiagnostics, limits: limits)
    }

    /// Parses and decodes machine-file text. The YAML document and the text are gone when this
    /// returns: a large file's are as big as the file twice over, and compiling needs as much again.
    private static func decode(
        _ bytes: consuming [UInt8], defaultName: String, limits: LoadLimits
    ) -> (definition: MachineDefinition?, diagnostics: [Diagnostic]) {
        // The transitions are decoded during the parse (``MachineFileDecoder``).
        var decoder = MachineFileDecoder()
        let document: YAMLDocument
        do {
            document = try YAMLParser.parseDocument(bytes, limits: limits, streamingTo: &decoder)
        } catch {
            return (nil, [error.diagnostic])
        }
        let definition = decoder.decode(consume document, defaultName: defaultName)
        return (definition, decoder.diagnostics)
    }

    /// Loads the file at `path`. An unreadable path (missing, a directory, a FIFO, too large) is
    /// one `unreadable-file` or `limit-exceeded` diagnostic without a position.
    public static func load(path: String, limits: LoadLimits = .default) -> LoadResult {
        LoadResult(reading: path, limits: limits, extensions: [".yaml", ".yml"]) { load(bytes: $0, defaultName: $1, limits: $2) }
    }
}
