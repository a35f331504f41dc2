/// Why an input was rejected (the JSON `error` field, docs/cli.md).
public enum RejectionKind: String, Hashable, Sendable, CaseIterable {
    /// A machine file has no input of that name.
    case unknownInput = "unknown-input"
    /// A machine file's input needs another argument.
    case badArgument = "bad-argument"
    /// No transition leaves the current state on the input.
    case noTransition = "no-transition"
    /// Transitions leave the current state on the input, but every guard is false.
    case guardRejected = "guard-rejected"
    /// The current state is final: the machine takes no more inputs.
    case finished
    /// Effects queued more inputs than the step limit for one external input (a livelock);
    /// this input and the rest of the queue were discarded.
    case stepLimit = "step-limit"
    /// A machine file's guard or effect body failed to evaluate (division by zero, overflow).
    case expressionError = "expression-error"
    /// Typed API only (``StateTransitionError``; the ``Runner`` never reports it): sent from inside
    /// one of the machine's own effects, guards or works' transitions, on the thread running it,
    /// the input was queued and runs after the current transition; its own result is published
    /// to observers then.
    case queued
    /// The selected transition is a refusal (`reject: MESSAGE`, the message): nothing changed.
    case refused
    /// Taking the transition would start more timers than the runner's cap on pending timers
    /// (`--max-timers`); nothing changed.
    case timerLimit = "timer-limit"
}

/// The result of one processed input, or of the machine's start (docs/semantics.md).
///
/// Plain ids and no strings, so producing one allocates nothing; ``CompiledMachine`` turns the
/// ids back into names, and ``CompiledMachine/message(for:inputName:stepLimit:)`` words them.
public struct TransitionResult: Sendable {
    /// What became of the input.
    public enum Outcome: Hashable, Sendable {
        /// A transition was taken: `to` is the new state.
        case accepted(to: Int)
        /// No transition, ignored by `on_unhandled: ignore`.
        case ignored
        /// Rejected, for this reason; nothing changed.
        case rejected(RejectionKind)
    }

    /// Where an expression that failed to evaluate is written.
    public enum ExpressionSite: Hashable, Sendable {
        /// The guard of a transition, by id.
        case guardOf(transition: Int)
        /// The `index`th expression of an effect's body (assignments, then sends).
        case effect(Int, expression: Int)
    }

    /// True for the start result, which has no input.
    public var isStart: Bool
    /// For the result of a fired timer: -2, or the send's id (``CompiledMachine/timerName(_:)``)
    /// for a delayed send that has one; -1 for any other result. (Beside ``isStart``, where
    /// the result has room for it.)
    public var timer: Int32
    /// The input's id, or -1 (start, or an input whose name is unknown).
    public var input: Int
    /// The state's id before the input.
    public var from: Int
    /// Accepted, ignored or rejected.
    public var outcome: Outcome
    /// The transition taken, or -1.
    public var transition: Int
    /// For a queued input, the effect that sent it; otherwise -1.
    public var sentBy: Int
    /// For a queued input, its place in the runner's queue: ``Runner/queuedArgument(of:)``
    /// reads its argument there while the result is being received. Keeping the value out
    /// keeps a result plain data, copied without reference counting.
    package var queueSlot: Int
    /// For `step-limit`: how many queued inputs were discarded with this one.
    public var discarded: Int
    /// For `expression-error`: what failed, and where.
    public var evaluationError: EvaluationError?
    /// For `expression-error`: which expression failed.
    public var failedExpression: ExpressionSite?

    @usableFromInline
    init(isStart: Bool = false, input: Int, from: Int, outcome: Outcome, transition: Int = -1, sentBy: Int = -1) {
        self.isStart = isStart
        self.timer = -1
        self.input = input
        self.from = from
        self.outcome = outcome
        self.transition = transition
        self.sentBy = sentBy
        self.queueSlot = -1
        self.discarded = 0
    }

    /// Whether a timer produced the result: an `after` transition or a delayed send.
    public var isTimer: Bool { timer != -1 }

    /// Whether a transition was taken.
    public var isAccepted: Bool {
        if case .accepted = outcome { return true }
        return false
    }

    /// Whether the result counts as a failure for the exit status.
    public var isRejected: Bool {
        if case .rejected = outcome { return true }
        return false
    }

    /// The state after the result: the target when accepted, else `from`.
    public var to: Int {
        if case .accepted(let to) = outcome { return to }
        return from
    }

    /// Why the input was rejected, or `nil`.
    public var rejection: RejectionKind? {
        if case .rejected(let kind) = outcome { return kind }
        return nil
    }
}

/// Receives results as the machine produces them.
public protocol ResultSink: ~Copyable {
    /// Called once per result, right after the runner produced it (`runner.state` and
    /// `runner.context` are the state and context after it).
    mutating func receive(_ result: TransitionResult, from runner: borrowing Runner)
}
