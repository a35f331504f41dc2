/// The result of one step of a statechart (an input, a queued input, a
/// done event, an eventless microstep, or the start), as ``ChartRunner`` reports it.
///
/// Plain data: the configurations before and after, the effects that ran and the transitions
/// taken are read from the runner while a ``ChartResultSink`` receives the result.
public struct ChartResult: Sendable {
    /// What led to the step.
    public enum Trigger: Hashable, Sendable {
        /// The machine's start: the initial configuration entered.
        case start
        /// An input from outside the machine.
        case external
        /// An input queued by an effect's `send`.
        case sent(effect: Int)
        /// A done event, raised when the state completed.
        case done(state: Int)
        /// An eventless transition whose guard held.
        case eventless
    }

    /// How the step ended.
    public enum Outcome: Hashable, Sendable {
        /// Transitions were taken (or the start entered its configuration).
        case accepted
        /// No transition, ignored by `on_unhandled: ignore`.
        case ignored
        case rejected(RejectionKind)
    }

    /// What led to the step.
    public var trigger: Trigger
    /// The input's id; -1 for the start, an eventless microstep and an unknown input's name.
    public var input: Int
    /// How the step ended.
    public var outcome: Outcome
    /// For a queued input or done event, its place in the runner's queue (its argument).
    public var queueSlot: Int
    /// For `step-limit`: how many queued inputs were discarded with this one.
    public var discarded: Int
    /// For `expression-error`: what failed, and where.
    public var evaluationError: EvaluationError?
    /// For `expression-error`: the guard or effect expression that failed.
    public var failedExpression: TransitionResult.ExpressionSite?

    init(_ trigger: Trigger, input: Int, outcome: Outcome = .rejected(.noTransition)) {
        self.trigger = trigger
        self.input = input
        self.outcome = outcome
        queueSlot = -1
        discarded = 0
    }

    /// Whether transitions were taken (or the start entered its configuration).
    public var isAccepted: Bool { outcome == .accepted }

    /// Whether the step counts as a failure for the exit status.
    public var isRejected: Bool {
        if case .rejected = outcome { return true }
        return false
    }

    /// Why the step was rejected, or `nil`.
    public var rejection: RejectionKind? {
        if case .rejected(let kind) = outcome { return kind }
        return nil
    }

    /// Whether the step was queued (a sent input or a done event) or eventless: text output
    /// indents it under the line that led to it.
    public var isFollowUp: Bool {
        switch trigger {
        case .sent, .done, .eventless: true
        case .start, .external: false
        }
    }
}

/// Receives a statechart's results as ``ChartRunner`` produces them.
public protocol ChartResultSink: ~Copyable {
    /// Called once per result, right after the runner produced it: ``ChartRunner/previousConfiguration``
    /// is the configuration before it, ``ChartRunner/configuration`` after it.
    mutating func receive(_ result: ChartResult, from runner: borrowing ChartRunner)
}
