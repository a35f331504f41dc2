extension CompiledEffect {
    private struct Failure: Error {
        let error: EvaluationError
        let site: Int
    }

    /// Runs the body, if the effect has one, against `scratch`, which is first made a copy of
    /// `values` unless `copied` (an earlier body of the step made it): the steps in written
    /// order, each seeing the values assigned before it. `log` receives log lines (naming effect
    /// `effect` from `effectNames`), and a `foreach` of more than `iterationLimit` items fails.
    /// Delayed sends and cancels go to `timerRequests`, for the runner to apply once the step
    /// commits. Sent inputs are queued as sent by `effect`: internal ones before the
    /// `externalCount` external ones at `queue`'s tail, external ones at its end. Returns the
    /// error and the index of the expression that failed, or nil. The caller owns
    /// all-or-nothing: on failure, `scratch` and `queue` hold what ran before the failing
    /// expression (log lines written are written).
    func run(
        copying values: [Value], into scratch: inout [Value], copied: inout Bool, argument: Value, queue: inout [QueuedInput],
        externalCount: inout Int, timerRequests: inout [TimerRequest], log: EffectLogHandler?, iterationLimit: Int, effectNames: [String],
        effect: Int
    ) -> (error: EvaluationError, expression: Int)? {
        guard hasBody else { return nil }
        if !copied {
            for slot in values.indices { scratch[slot] = values[slot] }
            copied = true
        }
        return run(
            in: &scratch, argument: argument, queue: &queue, externalCount: &externalCount, timerRequests: &timerRequests, log: log,
            iterationLimit: iterationLimit, effectNames: effectNames, effect: effect)
    }

    private func run(
        in context: inout [Value], argument: Value, queue: inout [QueuedInput], externalCount: inout Int,
        timerRequests: inout [TimerRequest], log: EffectLogHandler?, iterationLimit: Int, effectNames: [String], effect: Int
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
                    if let (expression, site) = send.delayExpression {
                        let delay = try milliseconds(of: evaluate(expression, site), site)
                        timerRequests.append(.send(input: send.input, argument: value, sentBy: effect, delay: delay, timer: send.timer))
                    } else if send.delay >= 0 {
                        timerRequests.append(.send(input: send.input, argument: value, sentBy: effect, delay: send.delay, timer: send.timer))
                    } else if send.isExternal {
                        queue.append(QueuedInput(input: send.input, argument: value, sender: effect))
                        externalCount += 1
                    } else {
                        queue.appendInternal(QueuedInput(input: send.input, argument: value, sender: effect), externalCount: externalCount)
                    }
                case .cancel(let timer):
                    timerRequests.append(.cancel(timer: timer))
                case .cancelEvaluated(let expression, let site, let timers):
                    guard case .string(let id) = try evaluate(expression, site) else {
                        throw Failure(error: .conversion("a cancelled id is a string"), site: site)
                    }
                    if let timer = timers[id] { timerRequests.append(.cancel(timer: timer)) }
                case .log(let label, let value, let site):
                    let logged = try value.map { expression throws(Failure) in try evaluate(expression, site) }
                    log?(EffectLogEntry(effect: effectNames[effect], label: label, value: logged))
                case .fail(let message, let site):
                    throw Failure(error: .invalid(message), site: site)
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
        /// A computed delay: an int of milliseconds, or a duration string.
        func milliseconds(of value: Value, _ site: Int) throws(Failure) -> Int {
            switch value {
            case .int(let milliseconds) where milliseconds >= 0 && milliseconds <= Delay.maximumMilliseconds:
                return milliseconds
            case .string(let text):
                do {
                    return try Delay(parsing: text).milliseconds
                } catch {
                    throw Failure(error: .conversion("the delay \"\(text)\" is not a duration: \(error.message)"), site: site)
                }
            default:
                throw Failure(error: .conversion("a delay is an int of milliseconds from 0 or a duration string, not \(value)"), site: site)
            }
        }
        func runLoop(over items: Value, site: Int, item: Int, index: Int, _ body: [Step]) throws(Failure) {
            func check(_ count: Int) throws(Failure) {
                if count > iterationLimit {
                    throw Failure(error: .tooManyIterations(count: count, limit: iterationLimit), site: site)
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
            case .list(let values):
                try check(values.count)
                for (position, value) in values.enumerated() {
                    context[item] = value
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
