/// What loading a machine file produced, in either format (`YAMLFile.load` in StatecraftYAML,
/// `SCXMLFile.load` in StatecraftSCXML): the definition, the compiled machine when there were no
/// errors, and every diagnostic. `try StateMachine(loaded)` runs it, or throws ``LoadError``.
public struct LoadResult: Sendable {
    /// The definition, when the file could be read and decoded.
    public var definition: MachineDefinition?
    /// The runnable machine, when there were no errors.
    public var machine: CompiledMachine?
    /// Every problem found, in file order; with errors, the warnings that explain one come right
    /// after it (``RelatedWarnings``).
    public var diagnostics: [Diagnostic]

    package init(definition: MachineDefinition?, machine: CompiledMachine?, diagnostics: [Diagnostic]) {
        self.definition = definition
        self.machine = machine
        self.diagnostics = diagnostics
    }

    /// Compiles a decoded definition, its decoder's diagnostics and the compiler's in file order;
    /// with errors, each followed by the warnings that name what it names (``RelatedWarnings``).
    package init(compiling definition: MachineDefinition, decodingDiagnostics: [Diagnostic], limits: LoadLimits) {
        let compiled = MachineCompiler.compile(definition, maximumTableCells: limits.maximumTableCells)
        var diagnostics = decodingDiagnostics + compiled.diagnostics
        diagnostics.sort(by: Diagnostic.inFileOrder)
        guard diagnostics.hasErrors else {
            self.init(definition: definition, machine: compiled.machine, diagnostics: diagnostics)
            return
        }
        self.init(definition: definition, machine: nil, diagnostics: RelatedWarnings.interleaved(diagnostics, definition: definition))
    }

    /// A file that could not be read or decoded at all: these diagnostics and nothing else.
    package init(failure diagnostics: [Diagnostic]) {
        self.init(definition: nil, machine: nil, diagnostics: diagnostics)
    }

    /// Reads the file at `path` and hands its bytes over to `load`, with the machine's default
    /// name: the file's, without its extension (one of `extensions`). An unreadable path
    /// (missing, a directory, a FIFO, too large) is one `unreadable-file` or `limit-exceeded`
    /// diagnostic without a position. The bytes are handed over (consumed), so that the file's
    /// text is freed before compiling.
    package init(
        reading path: String, limits: LoadLimits, extensions: [String],
        _ load: (consuming [UInt8], _ defaultName: String, LoadLimits) -> LoadResult
    ) {
        switch FileReader.contents(of: path, maximumBytes: limits.maximumBytes) {
        case .success(let bytes):
            self = load(bytes, FileReader.baseName(of: path, extensions: extensions), limits)
        case .failure(let diagnostic):
            self.init(failure: [diagnostic])
        }
    }
}
