/// The body of a named effect: context assignments and inputs to queue.
///
/// An effect named by a transition or state but given no body is a hook: it runs as a
/// no-op that results report, and Swift code may bind it.
public struct EffectDefinition: Sendable {
    /// `set: { variable: expression }`.
    public struct Assignment: Sendable {
        public var variable: Named
        public var expression: ExpressionSource

        public init(_ variable: Named, _ expression: ExpressionSource) {
            self.variable = variable
            self.expression = expression
        }
    }

    /// `send: INPUT` or `send: [{ input: INPUT, arg: expression }]`.
    public struct Send: Sendable {
        public var input: Named
        public var argument: ExpressionSource?

        public init(_ input: Named, argument: ExpressionSource? = nil) {
            self.input = input
            self.argument = argument
        }
    }

    public var name: Named
    public var assignments: [Assignment]
    public var sends: [Send]

    public init(_ name: Named, assignments: [Assignment] = [], sends: [Send] = []) {
        self.name = name
        self.assignments = assignments
        self.sends = sends
    }
}

/// The text of a guard or assignment expression and where it starts in the file.
public struct ExpressionSource: Sendable, ExpressibleByStringLiteral {
    public var text: String
    public var position: SourcePosition
    /// Columns between `position` and the first character of `text` (1 for a quoted scalar).
    public var columnOffset: Int

    public init(_ text: String, at position: SourcePosition = .unknown, columnOffset: Int = 0) {
        self.text = text
        self.position = position
        self.columnOffset = columnOffset
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The file position of the character at `offset` (in Unicode scalars) inside the text.
    package func position(atOffset offset: Int) -> SourcePosition {
        position == .unknown ? .unknown : position.advanced(by: columnOffset + offset)
    }
}
