/// What an effect body reaches beyond the context while it runs.
struct EffectSurroundings {
    /// The effect's id, for log lines.
    let effect: Int
    /// Where `log` steps write; `nil` drops them.
    let log: EffectLogHandler?
    /// The effect names, for log lines.
    let effectNames: [String]
    /// The most items one `foreach` may iterate (the runner's step limit).
    let iterationLimit: Int
}

/// The inputs effects send, as both runners queue them in one array: the internal ones first,
/// then the external ones, `externalCount` of them at its tail (docs/semantics.md).
extension Array {
    /// Queues an input sent to the internal queue: after the internal ones, before the external ones.
    @inline(__always)
    mutating func appendInternal(_ element: Element, externalCount: Int) {
        if externalCount == 0 { append(element) } else { insert(element, at: count - externalCount) }
    }

    /// Removes what was queued since `count` was `internalEnd + externalCount` with
    /// `externalCount` external inputs at the tail (a transition whose effects failed).
    mutating func removeSent(since mark: (internalEnd: Int, externalCount: Int), externalCount: inout Int) {
        removeLast(externalCount - mark.externalCount)
        removeSubrange(mark.internalEnd..<(count - mark.externalCount))
        externalCount = mark.externalCount
    }
}

extension CompiledEffect {
    private struct Failure: Error {
        let error: EvaluationError
        let site: Int
    }

    /// Runs the body against `context`: its steps in written order, each seeing the values
    /// assigned before it. Sent inputs are queued as `queuing` makes them: internal ones before
    /// the `externalCount` external ones at `queue`'s tail, external ones at its end. Returns the
    /// error and the index of the expression that failed, or nil. The caller owns all-or-nothing:
    /// on failure, `context` and `queue` hold what ran before the failing expression (log lines
    /// written are written).
    func run<Queued>(
        in context: inout [Value], argument: Value, queue: inout [Queued], externalCount: inout Int,
        surroundings: EffectSurroundings, queuing: (_ input: Int, _ argument: Value) -> Queued
    ) -> (error: EvaluationError, expression: Int)? {
        func evaluate(_ expression: CompiledExpression, _ site: Int) throws(Failure) -> Value {
            do {
                return try expression.evaluate(context, argument: argument)
            } catch {
                throw Failure(error: error, site: site)
            }
        }
        func run(_ steps: [Step]) throws(Failure) {
            for step in steps {
                switch step {
                case .assign(let slot, let value, let site):
                    context[slot] = try evaluate(value, site)
                case .send(let send):
                    let value = try send.argument.map { expression throws(Failure) in try evaluate(expression, send.site) } ?? .null
                    if send.isExternal {
                        queue.append(queuing(send.input, value))
                        externalCount += 1
                    } else {
                        queue.appendInternal(queuing(send.input, value), externalCount: externalCount)
                    }
                case .log(let label, let value, let site):
                    let logged = try value.map { expression throws(Failure) in try evaluate(expression, site) }
                    surroundings.log?(EffectLogEntry(effect: surroundings.effectNames[surroundings.effect], label: label, value: logged))
                case .conditional(let branches, let otherwise):
                    var chosen = otherwise
                    for branch in branches {
                        if case .bool(true) = try evaluate(branch.condition, branch.site) {
                            chosen = branch.steps
                            break
                        }
                    }
                    try run(chosen)
                case .forEach(let items, let site, let item, let index, let body):
                    try runLoop(over: evaluate(items, site), site: site, item: item, index: index, body)
                }
            }
        }
        func runLoop(over items: Value, site: Int, item: Int, index: Int, _ body: [Step]) throws(Failure) {
            func check(_ count: Int) throws(Failure) {
                if count > surroundings.iterationLimit {
                    throw Failure(error: .tooManyIterations(count: count, limit: surroundings.iterationLimit), site: site)
                }
            }
            switch items {
            case .int(let count):
                try check(count)
                for position in 0..<max(count, 0) {
                    context[item] = .int(position)
                    if index >= 0 { context[index] = .int(position) }
                    try run(body)
                }
            case .string(let text):
                try check(text.count)
                for (position, character) in text.enumerated() {
                    context[item] = .string(String(character))
                    if index >= 0 { context[index] = .int(position) }
                    try run(body)
                }
            default:
                throw Failure(error: .nullOperand, site: site)
            }
        }
        do {
            try run(steps)
        } catch {
            return (error.error, error.site)
        }
        return nil
    }
}
