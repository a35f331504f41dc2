/// An effect's body in compiled form: its steps, in order; a hook has none.
package struct CompiledEffect: Sendable {
    /// A sent input.
    package struct Send: Sendable {
        package let input: Int
        package let argument: CompiledExpression?
        /// Whether it joins the external queue (``EffectDefinition/SendQueue/external``).
        package let isExternal: Bool
        /// The index of its expression in ``CompiledEffect/expressionTexts``.
        package let site: Int
        /// `delay` in milliseconds, or -1 for an input queued at once.
        package var delay = -1
        /// The index of its `id` in ``MachineTimers/timerNames``, or -1.
        package var timer = -1
        /// `delay_expr`: the delay computed when the effect runs (an int of milliseconds or a
        /// duration string), and the index of its text in ``CompiledEffect/expressionTexts``.
        package var delayExpression: (value: CompiledExpression, site: Int)?

        /// Whether the input is scheduled rather than queued.
        package var isDelayed: Bool { delay >= 0 || delayExpression != nil }
    }

    /// One condition of a conditional and the steps it guards.
    package struct Branch: Sendable {
        package let condition: CompiledExpression
        package let site: Int
        package let steps: [Step]
    }

    /// One step. `site` is the index of the step's expression in ``CompiledEffect/expressionTexts``,
    /// what a failure reports.
    package enum Step: Sendable {
        case assign(slot: Int, value: CompiledExpression, site: Int)
        case send(Send)
        /// A log line: the label, and the value logged after it.
        case log(label: String?, value: CompiledExpression?, site: Int)
        /// The steps of the first branch whose condition holds, else `otherwise`.
        case conditional(branches: [Branch], otherwise: [Step])
        /// `steps` once per item of `items` (an int n: 0 to n - 1; a string: its characters), each
        /// item assigned to slot `item` and its index to slot `index` (-1: none).
        case forEach(items: CompiledExpression, site: Int, item: Int, index: Int, steps: [Step])
        /// `cancel: NAME`: drops the pending delayed sends with this timer id
        /// (``MachineTimers/timerNames``), once the transition commits.
        case cancel(timer: Int)
        /// `cancel_expr: EXPRESSION`: drops the pending delayed sends whose id is the value, a
        /// string looked up in `timers` (the ids of ``MachineTimers/timerNames``).
        case cancelEvaluated(value: CompiledExpression, site: Int, timers: [String: Int])
        /// A step that fails whenever it runs, with `message`: under `on_error: raise`, what
        /// loading found wrong with it (an assignment to an undeclared variable, a send to a
        /// target the machine cannot reach).
        case fail(message: String, site: Int)
    }

    package let steps: [Step]
    /// The expressions as written, in the order of the body, for messages (a send without
    /// argument has its input's name).
    package let expressionTexts: [String]

    package init(steps: [Step], expressionTexts: [String]) {
        self.steps = steps
        self.expressionTexts = expressionTexts
    }

    package static let hook = CompiledEffect(steps: [], expressionTexts: [])

    package var hasBody: Bool { !steps.isEmpty }

    /// The body's assignments when it is nothing else (what ``DispatchTable`` may run as copies);
    /// `nil` when it has another step.
    package var assignmentsOnly: [(slot: Int, value: CompiledExpression)]? {
        var assignments: [(slot: Int, value: CompiledExpression)] = []
        for step in steps {
            guard case .assign(let slot, let value, _) = step else { return nil }
            assignments.append((slot, value))
        }
        return assignments
    }

    /// The slots the body may assign, nested steps included (a `foreach`'s item and index too).
    package var assignedSlots: Set<Int> {
        var slots: Set<Int> = []
        func walk(_ steps: [Step]) {
            for step in steps {
                switch step {
                case .send, .log, .cancel, .cancelEvaluated, .fail: break
                case .assign(let slot, _, _): slots.insert(slot)
                case .conditional(let branches, let otherwise):
                    for branch in branches { walk(branch.steps) }
                    walk(otherwise)
                case .forEach(_, _, let item, let index, let steps):
                    slots.insert(item)
                    if index >= 0 { slots.insert(index) }
                    walk(steps)
                }
            }
        }
        walk(steps)
        return slots
    }

    /// Every input the body may send, nested steps included, in written order.
    package var sentInputs: [Send] {
        var sends: [Send] = []
        func walk(_ steps: [Step]) {
            for step in steps {
                switch step {
                case .assign, .log, .cancel, .cancelEvaluated, .fail: break
                case .send(let send): sends.append(send)
                case .conditional(let branches, let otherwise):
                    for branch in branches { walk(branch.steps) }
                    walk(otherwise)
                case .forEach(_, _, _, _, let steps): walk(steps)
                }
            }
        }
        walk(steps)
        return sends
    }
}
