/// Bounds on a machine file, whatever its format, so that a hostile file is an error and never a
/// hang or a crash (docs/machine-files.md, bounds). A file past one of them loads as one
/// `limit-exceeded` ``Diagnostic`` whose ``Diagnostic/limit`` says which bound it reached and
/// whose message says how large the input was.
public struct LoadLimits: Sendable, Hashable {
    /// One of the bounds, as a `limit-exceeded` diagnostic names it (``Diagnostic/limit``), so
    /// that a program can tell its user which of its own settings raises it.
    public enum Limit: Sendable, Hashable, CaseIterable {
        /// ``LoadLimits/maximumBytes``: the file's size.
        case fileSize
        /// ``LoadLimits/maximumDepth``: the nesting of the document.
        case depth
        /// ``LoadLimits/maximumNodes``: the document's nodes.
        case nodes
        /// ``LoadLimits/maximumTableCells``: the machine's dispatch table.
        case tableCells
    }

    /// Largest file, in bytes.
    public var maximumBytes: Int
    /// Deepest nesting of the document: lists and mappings in YAML, aliases expanded; elements
    /// in SCXML.
    public var maximumDepth: Int
    /// Most nodes in the document: YAML nodes after alias expansion; XML nodes in SCXML.
    public var maximumNodes: Int
    /// Largest dispatch table of the machine the document describes, in cells (states x inputs,
    /// and (transition, source state) pairs).
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
    public static let `default` = LoadLimits()
}
