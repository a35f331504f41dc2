import Statecraft


/// Loads machine files: bytes -> YAML nodes -> definition -> compiled machine, collecting every
/// diagnostic on the way.
public enum MachineFile {
    /// What loading a file produced.
    public struct LoadResult: Sendable {
        /// The definition, when the YAML and the schema could be read.
        public var definition: MachineDefinition?
        /// The runnable machine, when there were no errors.
        public var machine: CompiledMachine?
        /// Every problem found, in file order.
        public var diagnostics: [Diagnostic]

        package init(definition: MachineDefinition?, machine: CompiledMachine?, diagnostics: [Diagnostic]) {
            self.definition = definition
            self.machine = machine
            self.diagnostics = diagnostics
        }

        /// Compiles a decoded definition, its decoder's diagnostics and the compiler's in file order.
        package init(compiling definition: MachineDefinition, decodingDiagnostics: [Diagnostic], limits: YAMLLimits) {
            let compiled = MachineCompiler.compile(definition, maximumTableCells: limits.maximumTableCells)
            var diagnostics = decodingDiagnostics + compiled.diagnostics
            diagnostics.sort(by: Diagnostic.inFileOrder)
            self.init(definition: definition, machine: diagnostics.hasErrors ? nil : compiled.machine, diagnostics: diagnostics)
        }
    }

    /// Loads machine-file text. `defaultName` names the machine when the file has no `machine` key.
    /// The bytes are consumed so that, unless the caller keeps them, they are gone before compiling.
    public static func load(bytes: consuming [UInt8], defaultName: String, limits: YAMLLimits = .default) -> LoadResult {
        let (definition, decodingDiagnostics) = decode(consume bytes, defaultName: defaultName, limits: limits)
        guard let definition else {
            return LoadResult(definition: nil, machine: nil, diagnostics: decodingDiagnostics)
        }
        return LoadResult(compiling: definition, decodingDiagnostics: decodingDiagnostics, limits: limits)
    }

    /// Parses and decodes machine-file text. The YAML document and the text are gone when this
    /// returns: a large file's are as big as the file twice over, and compiling needs as much again.
    private static func decode(
        _ bytes: consuming [UInt8], defaultName: String, limits: YAMLLimits
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
    public static func load(path: String, limits: YAMLLimits = .default) -> LoadResult {
        let bytes: [UInt8]
        switch FileReader.contents(of: path, maximumBytes: limits.maximumBytes) {
        case .success(let contents):
            bytes = contents
        case .failure(let diagnostic):
            return LoadResult(definition: nil, machine: nil, diagnostics: [diagnostic])
        }
        // Handed over, so that the file's text is freed before compiling (``load(bytes:defaultName:limits:)``).
        return load(bytes: consume bytes, defaultName: baseName(of: path), limits: limits)
    }

    /// `machines/car.yaml` -> `car`.
    package static func baseName(of path: String, extensions: [String] = [".yaml", ".yml"]) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for ext in extensions where name.hasSuffix(ext) { name = name.dropLast(ext.count) }
        return String(name)
    }
}
