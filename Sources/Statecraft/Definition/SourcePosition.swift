/// A position in a machine file: 1-based line and column (columns count Unicode scalars).
///
/// Machines built in Swift have no file; their parts carry line and column 0 (unknown). A
/// position with a line but column 0 names a line only (an SCXML document's elements: libxml2
/// reports their lines).
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    // 32 bits each, so that a position takes 8 bytes: a large machine's YAML document and
    // definition hold one per node and per name.
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The line, from 1; 0 when unknown.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    /// The column in Unicode scalars, from 1; 0 when unknown.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// The position at `line` and `column`.
    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// The position of something that does not come from a file.
    @usableFromInline package static let unknown = SourcePosition(line: 0, column: 0)

    /// The position of the byte at `offset` in UTF-8 text.
    package init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
        self.init(line: line, column: column)
    }

    /// This position moved right by `columns` (for a position inside a scalar).
    /// A line-only position stays one.
    package func advanced(by columns: Int) -> SourcePosition {
        column == 0 ? self : SourcePosition(line: line, column: column + columns)
    }

    /// File order: by line, then column.
    public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    /// `LINE:COLUMN`, or `LINE` for a line-only position.
    public var description: String { column == 0 && line > 0 ? "\(line)" : "\(line):\(column)" }
}
