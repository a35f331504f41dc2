import Statecraft

/// Bounds on a document, so that a hostile file is an error and never a hang or a crash
/// (docs/machine-files.md, bounds). Each is raised by a flag of `smrun`.
public struct YAMLLimits: Sendable, Hashable {
    /// Largest file, in bytes (`--max-file-size`).
    public var maximumBytes: Int
    /// Deepest nesting of lists and mappings, aliases expanded (`--max-depth`).
    public var maximumDepth: Int
    /// Most nodes after alias expansion (`--max-nodes`).
    public var maximumNodes: Int
    /// Largest dispatch table of the machine the document describes, in cells (states x inputs,
    /// and (transition, source state) pairs) (`--max-table-cells`).
    public var maximumTableCells: Int

    /// Limits with these values; the defaults suit hand-written machines and generated ones alike.
    public init(
        maximumBytes: Int = 16 << 20, maximumDepth: Int = 256, maximumNodes: Int = 10_000_000,
        maximumTableCells: Int = MachineCompiler.defaultMaximumTableCells
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
        self.maximumTableCells = maximumTableCells
    }

    /// The default limits.
    public static let `default` = YAMLLimits()
}
