/// A position in a machine file: 1-based line and column (columns count Unicode scalars).
///
/// Machines built in Swift have no file; their parts carry ``SourceLocation/unknown``.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location of something that does not come from a file.
    public static let unknown = SourceLocation(line: 0, column: 0)

    /// This location moved right by `columns` (for a position inside a scalar).
    public func advanced(by columns: Int) -> SourceLocation {
        SourceLocation(line: line, column: column + columns)
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }
}
