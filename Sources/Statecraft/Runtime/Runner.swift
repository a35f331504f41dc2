/// Runs a ``CompiledMachine``: holds the current state and context, takes inputs, and hands
/// every result to a ``ResultSink`` (DESIGN §3).
///
/// The hot path, an input without effect bodies, is a table lookup and allocates nothing.
public struct Runner: Sendable {
    public let machine: CompiledMachine
    public private(set) var state: Int
    public private(set) var context: [Value]
    /// Queued inputs processed per external input before `step-limit` (DESIGN §3.5).
    public var stepLimit: Int

    // Queued, queue, queueHead, process and runEffects are internal, not private: the hosted
    // send and start of RunnerHost.swift share them.
    struct Queued: Sendable {
        var input: Int
        var argument: Value
        var sentBy: Int
    }

    var queue: [Queued] = []
    var queueHead = 0
    /// Where effect bodies write until a transition commits (`expression-error` assigns nothing).
    private var scratch: [Value]

    public static let defaultStepLimit = 10_000

    public init(_ machine: CompiledMachine, stepLimit: Int = Runner.defaultStepLimit) {
        self.machine = machine
        self.state = machine.initialState
        self.context = machine.initialContext
        self.scratch = machine.initialContext
        self.stepLimit = stepLimit
    }

    /// Resumes at `state` with `context` (a snapshot), without running entry effects.
    public mutating func restore(state: Int, context: [Value]) {
        precondition(machine.stateNames.indices.contains(state) && context.count == machine.variableNames.count)
        self.state = state
        self.context = context
    }

    /// Runs the initial state's entry effects, reporting a start result when there are any,
    /// then the inputs they queued.
    public mutating func start<Sink: ResultSink & ~Copyable>(into sink: inout Sink) {
        let entry = machine.entryEffects[state]
        guard !entry.isEmpty else { return }
        var result = TransitionResult(isStart: true, input: -1, from: state, outcome: .accepted(to: state), sentBy: -1)
        if let failure = runEffects(EffectSequence(exit: [], transition: [], entry: entry), argument: .null) {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = failure.error
            result.failedExpression = failure.site
        }
        sink.receive(result, from: self)
        drainQueue(into: &sink)
    }

    /// Processes one external input whose argument has been checked against its declared type,
    /// then every input its effects queued (run to completion).
    ///
    /// - Parameter argument: the argument, or `.null` for an input without one. For an input
    ///   whose argument the machine never reads (``CompiledMachine/argumentIsRead``), any value
    ///   of the right type will do.
    @inline(__always)
    public mutating func send<Sink: ResultSink & ~Copyable>(_ input: Int, argument: Value = .null, into sink: inout Sink) {
        let result = process(input, argument: argument, sentBy: -1)
        sink.receive(result, from: self)
        if queueHead < queue.count { drainQueue(into: &sink) }
    }

    /// The result for an input rejected before it reached the machine (an unknown name, a bad
    /// argument); `input` is -1 when the name is unknown.
    public func rejection(_ kind: RejectionKind, input: Int) -> TransitionResult {
        TransitionResult(input: input, from: state, outcome: .rejected(kind), sentBy: -1)
    }

    private mutating func drainQueue<Sink: ResultSink & ~Copyable>(into sink: inout Sink) {
        var steps = 0
        while queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            steps += 1
            var result: TransitionResult
            if steps > stepLimit {
                result = TransitionResult(input: next.input, from: state, outcome: .rejected(.stepLimit), sentBy: next.sentBy)
                result.discarded = queue.count - queueHead
                queueHead = queue.count
            } else {
                result = process(next.input, argument: next.argument, sentBy: next.sentBy)
            }
            result.queuedArgument = next.argument
            sink.receive(result, from: self)
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
    }

    @inline(__always)
    mutating func process(_ input: Int, argument: Value, sentBy: Int) -> TransitionResult {
        var result = TransitionResult(input: input, from: state, outcome: .rejected(.noTransition), sentBy: sentBy)
        if machine.isFinal[state] {
            result.outcome = .rejected(.finished)
            return result
        }
        let cell = state &* machine.inputNames.count &+ input
        var candidate = Int(machine.cellStart[cell])
        let end = Int(machine.cellStart[cell &+ 1])
        if candidate == end {
            if machine.onUnhandled == .ignore { result.outcome = .ignored }
            return result
        }
        while candidate < end {
            let index = Int(machine.cellTransitions[candidate])
            candidate &+= 1
            if machine.isGuarded[index] {
                do {
                    guard case .bool(true) = try machine.transitions[index].guardExpression!.evaluate(context, argument: argument)
                    else { continue }
                } catch {
                    result.outcome = .rejected(.expressionError)
                    result.evaluationError = error
                    result.failedExpression = .guardOf(transition: index)
                    return result
                }
            }
            result.transition = index
            if machine.runsBodies[index], let failure = runEffects(machine.effectsRun(by: index, from: state), argument: argument) {
                result.outcome = .rejected(.expressionError)
                result.evaluationError = failure.error
                result.failedExpression = failure.site
                return result
            }
            let target = Int(machine.targets[index])
            if target >= 0 { state = target }
            result.outcome = .accepted(to: state)
            return result
        }
        result.outcome = .rejected(.guardRejected)
        return result
    }

    /// Runs effect bodies against a scratch copy of the context and commits it only when every
    /// expression evaluated; inputs they send are queued only then too.
    mutating func runEffects(_ effects: EffectSequence, argument: Value) -> (error: EvaluationError, site: TransitionResult.ExpressionSite)? {
        var copied = false
        let queuedBefore = queue.count
        for id in effects {
            let effect = machine.effects[id]
            guard effect.hasBody else { continue }
            if !copied {
                for slot in context.indices { scratch[slot] = context[slot] }
                copied = true
            }
            var expression = 0
            do {
                for assignment in effect.assignments {
                    scratch[assignment.slot] = try assignment.value.evaluate(scratch, argument: argument)
                    expression += 1
                }
                for send in effect.sends {
                    let value = try send.argument?.evaluate(scratch, argument: argument) ?? .null
                    queue.append(Queued(input: send.input, argument: value, sentBy: id))
                    expression += 1
                }
            } catch {
                queue.removeSubrange(queuedBefore...)
                return (error, .effect(id, expression: expression))
            }
        }
        if copied { swap(&context, &scratch) }
        return nil
    }
}
