import ArgumentParser
import Statecraft

/// How a machine file is read: its format, and the bounds on it (docs/machine-files.md,
/// bounds), each raised by a flag.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("machine-format"),
        help: "The machine file's format: yaml or scxml. Default: scxml for a .scxml file, yaml otherwise.")
    var machineFormat: MachineFormat?

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

    /// The machine file's format given by `--machine-format` or, in its old spelling,
    /// `--input-format yaml|scxml` (`alias`); `nil` when neither is (the file's extension
    /// chooses).
    func machineFormat(alias: MachineFormat?) -> MachineFormat? {
        machineFormat ?? alias
    }

    /// Refuses `--input-format` and `--machine-format` that name different formats.
    func checkAgreement(alias: MachineFormat?) throws {
        if let alias, let machineFormat, alias != machineFormat {
            throw ValidationError(
                "--input-format \(alias.rawValue) and --machine-format \(machineFormat.rawValue) disagree: --input-format yaml|scxml is the old spelling of --machine-format")
        }
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
