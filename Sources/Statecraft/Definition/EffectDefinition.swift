/// The body of a named effect: context assignments and inputs to queue.
///
/// An effect named by a transition or state but given no body is a hook: it runs as a
/// no-op that results report, and Swift code may bind it.
public struct EffectDefinition: Sendable {
    /// `set: { variable: expression }`.
    public struct Assignment: Sendable {
        /// The context variable assigned.
        public var variable: Named
        /// The expression whose value it is assigned.
        public var expression: ExpressionSource

        /// Assigns `expression` to `variable`.
        public init(_ variable: Named, _ expression: ExpressionSource) {
            self.variable = variable
            self.expression = expression
        }
    }

    /// `send: INPUT` or `send: [{ input: INPUT, arg: expression, delay: DURATION, id: NAME }]`.
    public struct Send: Sendable {
        /// The input queued.
        public var input: Named
        /// The argument's expression, for an input that takes one.
        public var argument: ExpressionSource?
        /// `delay`: the input is scheduled this long after the effect runs instead of queued.
        public var delay: Delay?
        /// `id`: the name a `cancel` uses to cancel the scheduled input before it is due.
        public var id: Named?

        /// Queues `input`, with `argument` when it takes one; after `delay`, when given, under `id`.
        public init(_ input: Named, argument: ExpressionSource? = nil, delay: Delay? = nil, id: Named? = nil) {
            self.input = input
            self.argument = argument
            self.delay = delay
            self.id = id
        }
    }

    /// The effect's name.
    public var name: Named
    /// Its assignments, run in order.
    public var assignments: [Assignment]
    /// The inputs it queues or schedules, in order, after its assignments and cancels.
    public var sends: [Send]
    /// `cancel: NAME`: the ids of scheduled inputs it cancels, after its assignments.
    public var cancels: [Named]

    /// An effect named `name` with this body; an empty body makes a hook.
    public init(_ name: Named, assignments: [Assignment] = [], sends: [Send] = [], cancels: [Named] = []) {
        self.name = name
        self.assignments = assignments
        self.sends = sends
        self.cancels = cancels
    }
}

/// The text of a guard or assignment expression and where it starts in the file.
public struct ExpressionSource: Sendable, ExpressibleByStringLiteral {
    /// The expression as written.
    public var text: String
    /// Where the scalar holding it starts.
    public var position: SourcePosition
    /// Columns between `position` and the first character of `text` (1 for a quoted scalar).
    public var columnOffset: Int

    /// The expression `text`, written at `position`, `columnOffset` columns before its first character.
    public init(_ text: String, at position: SourcePosition = .unknown, columnOffset: Int = 0) {
        self.text = text
        self.position = position
        self.columnOffset = columnOffset
    }

    /// An expression from a literal, at no known position.
    public init(stringLiteral value: String) { self.init(value) }

    /// The file position of the character at `offset` (in Unicode scalars) inside the text.
    package func position(atOffset offset: Int) -> SourcePosition {
        position == .unknown ? .unknown : position.advanced(by: columnOffset + offset)
    }
}
