/// The body of a named effect: steps run in order (context assignments, inputs to send,
/// branches, loops, log lines).
///
/// An effect named by a transition or state but given no body is a hook: it runs as a
/// no-op that results report, and Swift code may bind it.
package struct EffectDefinition: Sendable {
    /// `set: { variable: expression }`: one assignment.
    package struct Assignment: Sendable {
        /// The context variable assigned.
        package var variable: Named
        /// The expression whose value it is assigned.
        package var expression: ExpressionSource

        /// Assigns `expression` to `variable`.
        package init(_ variable: Named, _ expression: ExpressionSource) {
            self.variable = variable
            self.expression = expression
        }
    }

    /// The queue a sent input joins (docs/semantics.md).
    package enum SendQueue: String, Sendable, CaseIterable {
        /// Processed after the current transition, before anything on the external queue (the default).
        case `internal`
        /// Processed once the internal queue is empty, before the next input from outside.
        case external
    }

    /// `send: INPUT` or `send: [{ input: INPUT, arg: expression, queue: external, delay: DURATION, id: NAME }]`.
    package struct Send: Sendable {
        /// One named field of the input's data: `data: { NAME: expression }` (SCXML's `<param>`).
        package struct DataField: Sendable {
            /// The field's name, read as `arg.NAME`.
            package var name: Named
            /// The expression whose value the field holds, computed when the send runs.
            package var expression: ExpressionSource

            /// A field `name` holding the value of `expression`.
            package init(_ name: Named, _ expression: ExpressionSource) {
                self.name = name
                self.expression = expression
            }
        }

        /// The input sent.
        package var input: Named
        /// The argument's expression, for an input that takes one.
        package var argument: ExpressionSource?
        /// `data`: the input's data with named fields, for an input that takes no argument
        /// (a send has `argument` or `data`, not both).
        package var data: [DataField] = []
        /// The queue it joins.
        package var queue: SendQueue
        /// `delay`: the input is scheduled this long after the effect runs instead of queued.
        package var delay: Delay?
        /// `id`: the name a `cancel` uses to cancel the scheduled input before it is due.
        package var id: Named?
        /// `delay_expr`: like `delay`, but computed when the effect runs: an int of
        /// milliseconds or a duration string (`"1.5s"`). A send has `delay` or this, not both.
        package var delayExpression: ExpressionSource?
        /// `target`: where the input goes when not to this machine. A machine sends only to
        /// itself: a send with a target is a load error, or under `on_error: raise` a step that
        /// fails when it runs (raising `error.execution`, as SCXML does for a target it cannot reach).
        package var target: String?

        /// Sends `input`, with `argument` when it takes one, on `queue`; after `delay` (or the
        /// value of `delayExpression`), when given, under `id`.
        package init(
            _ input: Named, argument: ExpressionSource? = nil, queue: SendQueue = .internal, delay: Delay? = nil, id: Named? = nil,
            delayExpression: ExpressionSource? = nil
        ) {
            self.input = input
            self.argument = argument
            self.queue = queue
            self.delay = delay
            self.id = id
            self.delayExpression = delayExpression
        }

        /// Whether the input is scheduled rather than queued.
        package var isDelayed: Bool { delay != nil || delayExpression != nil }
    }

    /// `log: { label: TEXT, expr: expression }`: a line for the run's log handler.
    package struct Log: Sendable {
        /// The label, written before the value.
        package var label: String?
        /// The expression whose value is logged.
        package var expression: ExpressionSource?
        /// Where the step is written.
        package var position: SourcePosition

        /// Logs `label` and the value of `expression` (either may be absent).
        package init(label: String?, expression: ExpressionSource? = nil, at position: SourcePosition = .unknown) {
            self.label = label
            self.expression = expression
            self.position = position
        }
    }

    /// One condition of a ``Conditional`` (`if` or `elif`) and the steps it guards.
    package struct Branch: Sendable {
        /// The condition, a bool expression.
        package var condition: ExpressionSource
        /// The steps run when it holds (and no branch before it held).
        package var steps: [Step]

        /// Runs `steps` when `condition` holds.
        package init(_ condition: ExpressionSource, _ steps: [Step]) {
            self.condition = condition
            self.steps = steps
        }
    }

    /// `if` / `elif` / `else`: the steps of the first branch whose condition holds, else the
    /// `else` steps.
    package struct Conditional: Sendable {
        /// The `if` branch, then each `elif` branch, in order (at least one).
        package var branches: [Branch]
        /// The `else` steps, run when no condition holds (empty when there is no `else`).
        package var otherwise: [Step]

        /// Tests `branches` in order; runs `otherwise` when none holds.
        package init(_ branches: [Branch], otherwise: [Step] = []) {
            self.branches = branches
            self.otherwise = otherwise
        }
    }

    /// `foreach: { array: expression, item: VARIABLE, index: VARIABLE, do: [steps] }`: runs
    /// `steps` once per item of an int (0 to n - 1) or a string (its characters), assigning
    /// the item and its index to context variables (docs/semantics.md).
    package struct ForEach: Sendable {
        /// The expression whose items are iterated: an int or a string.
        package var items: ExpressionSource
        /// The context variable assigned each item.
        package var item: Named
        /// The context variable assigned each item's index (from 0), if any.
        package var index: Named?
        /// The steps run per item.
        package var steps: [Step]

        /// Runs `steps` for each item of `items`, assigned to `item` (and its index to `index`).
        package init(_ items: ExpressionSource, item: Named, index: Named? = nil, steps: [Step]) {
            self.items = items
            self.item = item
            self.index = index
            self.steps = steps
        }
    }

    /// One step of a body.
    package enum Step: Sendable {
        /// Assigns a context variable; later steps see the new value.
        case assign(Assignment)
        /// Sends an input to the machine (queued).
        case send(Send)
        /// Writes a line to the log handler.
        case log(Log)
        /// `if` / `elif` / `else`.
        case conditional(Conditional)
        /// `foreach`.
        case forEach(ForEach)
        /// `cancel: NAME`: cancels the delayed sends with this id that are still pending.
        case cancel(Named)
        /// `cancel_expr: EXPRESSION`: cancels the pending delayed sends whose id is the
        /// expression's value, a string (none when no send has that id).
        case cancelEvaluated(ExpressionSource)
    }

    /// The effect's name.
    package var name: Named
    /// Its steps, run in order.
    package var steps: [Step]

    /// An effect named `name` running `steps` in order; no steps make a hook.
    package init(_ name: Named, steps: [Step]) {
        self.name = name
        self.steps = steps
    }

    /// An effect named `name` that assigns, then sends (the order of a body written as one
    /// `{ set, send }` mapping); an empty body makes a hook.
    package init(_ name: Named, assignments: [Assignment] = [], sends: [Send] = []) {
        self.init(name, steps: assignments.map(Step.assign) + sends.map(Step.send))
    }
}

// MARK: - Walking the steps

extension EffectDefinition {
    /// Calls `visit` on every step, nested ones included, in written order.
    package func forEachStep(_ visit: (Step) -> Void) {
        func walk(_ steps: [Step]) {
            for step in steps {
                visit(step)
                switch step {
                case .assign, .send, .log, .cancel, .cancelEvaluated: break
                case .conditional(let conditional):
                    for branch in conditional.branches { walk(branch.steps) }
                    walk(conditional.otherwise)
                case .forEach(let loop): walk(loop.steps)
                }
            }
        }
        walk(steps)
    }

    /// Every expression in the body, nested ones included, in written order.
    package var expressions: [ExpressionSource] {
        var result: [ExpressionSource] = []
        forEachStep { step in
            switch step {
            case .assign(let assignment): result.append(assignment.expression)
            case .send(let send):
                if let argument = send.argument { result.append(argument) }
                result += send.data.map(\.expression)
                if let delay = send.delayExpression { result.append(delay) }
            case .log(let log): if let expression = log.expression { result.append(expression) }
            case .conditional(let conditional): result += conditional.branches.map(\.condition)
            case .forEach(let loop): result.append(loop.items)
            case .cancelEvaluated(let id): result.append(id)
            case .cancel: break
            }
        }
        return result
    }

    /// Every send in the body, nested ones included, in written order.
    package var allSends: [Send] {
        var result: [Send] = []
        forEachStep { if case .send(let send) = $0 { result.append(send) } }
        return result
    }

    /// Every id that a `cancel` in the body names, nested ones included, in written order.
    package var allCancels: [Named] {
        var result: [Named] = []
        forEachStep { if case .cancel(let name) = $0 { result.append(name) } }
        return result
    }

    /// Whether the body cancels a delayed send, by name or by an expression's value.
    package var cancels: Bool {
        var found = false
        forEachStep {
            switch $0 {
            case .cancel, .cancelEvaluated: found = true
            default: break
            }
        }
        return found
    }

    /// Every assignment in the body, nested ones included, in written order.
    package var allAssignments: [Assignment] {
        var result: [Assignment] = []
        forEachStep { if case .assign(let assignment) = $0 { result.append(assignment) } }
        return result
    }

    /// Every `foreach` in the body, nested ones included, in written order.
    package var allLoops: [ForEach] {
        var result: [ForEach] = []
        forEachStep { if case .forEach(let loop) = $0 { result.append(loop) } }
        return result
    }
}

/// The text of a guard or assignment expression and where it starts in the file.
@usableFromInline package struct ExpressionSource: Sendable, ExpressibleByStringLiteral {
    /// The expression as written.
    package var text: String
    /// Where the scalar holding it starts.
    package var position: SourcePosition
    /// Columns between `position` and the first character of `text` (1 for a quoted scalar).
    package var columnOffset: Int

    /// The expression `text`, written at `position`, `columnOffset` columns before its first character.
    package init(_ text: String, at position: SourcePosition = .unknown, columnOffset: Int = 0) {
        self.text = text
        self.position = position
        self.columnOffset = columnOffset
    }

    /// An expression from a literal, at no known position.
    @usableFromInline package init(stringLiteral value: String) { self.init(value) }

    /// The file position of the character at `offset` (in Unicode scalars) inside the text.
    package func position(atOffset offset: Int) -> SourcePosition {
        position == .unknown ? .unknown : position.advanced(by: columnOffset + offset)
    }
}
