import ArgumentParser
import StatecraftYAML

/// How a machine file is read: its format, and the bounds on it (docs/machine-files.md,
/// bounds), each raised by a flag.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("input-format"),
        help: "The machine file's format: yaml or scxml. Default: scxml for a .scxml file, yaml otherwise.")
    var inputFormat: InputFormat?

    @Option(name: .customLong("max-file-size"), help: "Largest machine file accepted, in bytes.")
    var maximumBytes = YAMLLimits.default.maximumBytes

    @Option(name: .customLong("max-depth"), help: "Deepest nesting of lists and mappings in a machine file.")
    var maximumDepth = YAMLLimits.default.maximumDepth

    @Option(name: .customLong("max-nodes"), help: "Most YAML nodes in a machine file, aliases expanded.")
    var maximumNodes = YAMLLimits.default.maximumNodes

    @Option(name: .customLong("max-table-cells"), help: "Largest dispatch table of a machine: states x inputs, and transitions x the states each leaves from.")
    var maximumTableCells = YAMLLimits.default.maximumTableCells

    var limits: YAMLLimits {
        YAMLLimits(
            maximumBytes: maximumBytes, maximumDepth: maximumDepth, maximumNodes: maximumNodes,
            maximumTableCells: maximumTableCells)
    }

    /// Loads the machine at `path` in its format, within the bounds.
    func load(_ path: String) -> MachineFile.LoadResult {
        MachineLoader.load(path, format: inputFormat, limits: limits)
    }

    func validate() throws {
        for (flag, value) in [("--max-file-size", maximumBytes), ("--max-depth", maximumDepth), ("--max-nodes", maximumNodes),
            ("--max-table-cells", maximumTableCells),
        ]
        where value < 1 {
            throw ValidationError("\(flag) must be at least 1, not \(value)")
        }
    }
}
