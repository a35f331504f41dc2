import ArgumentParser
import Statecraft

/// How a machine file is read: its format, and the bounds on it (docs/machine-files.md,
/// bounds), each raised by a flag.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("input-format"),
        help: "The machine file's format: yaml or scxml. Default: scxml for a .scxml file, yaml otherwise.")
    var inputFormat: InputFormat?

    @Option(name: .customLong("max-file-size"), help: "Largest machine file accepted, in bytes.")
    var maximumBytes = LoadLimits.default.maximumBytes

    @Option(name: .customLong("max-depth"), help: "Deepest nesting of lists and mappings in a machine file.")
    var maximumDepth = LoadLimits.default.maximumDepth

    @Option(name: .customLong("max-nodes"), help: "Most YAML nodes in a machine file, aliases expanded.")
    var maximumNodes = LoadLimits.default.maximumNodes

    @Option(name: .customLong("max-table-cells"), help: "Largest dispatch table of a machine: states x inputs, and transitions x the states each leaves from.")
    var maximumTableCells = LoadLimits.default.maximumTableCells

    var limits: LoadLimits {
        LoadLimits(
            maximumBytes: maximumBytes, maximumDepth: maximumDepth, maximumNodes: maximumNodes,
            maximumTableCells: maximumTableCells)
    }

    /// Loads the machine at `path` in its format, within the bounds.
    func load(_ path: String) -> LoadResult {
        MachineLoader.load(path, format: inputFormat, limits: limits)
    }

    func validate() throws {
        for (limit, value) in [(LoadLimits.Limit.fileSize, maximumBytes), (.depth, maximumDepth), (.nodes, maximumNodes),
            (.tableCells, maximumTableCells),
        ]
        where value < 1 {
            throw ValidationError("\(limit.flag) must be at least 1, not \(value)")
        }
    }
}

extension LoadLimits.Limit {
    /// The flag of ``LimitOptions`` that sets this bound: the library's diagnostics say which
    /// bound a file reached, smrun's say how to raise it (``DiagnosticPrinter/message(of:)``).
    var flag: String {
        switch self {
        case .fileSize: "--max-file-size"
        case .depth: "--max-depth"
        case .nodes: "--max-nodes"
        case .tableCells: "--max-table-cells"
        }
    }
}
