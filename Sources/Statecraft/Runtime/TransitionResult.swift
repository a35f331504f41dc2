/// Why an input was rejected (the JSON `error` field, docs/cli.md).
public enum RejectionKind: String, Hashable, Sendable, CaseIterable {
    /// The machine has no input of that name, or the name is internal (only effects may send it).
    case unknownInput = "unknown-input"
    /// The input needs another argument.
    case badArgument = "bad-argument"
    /// No transition leaves the current state on the input.
    case noTransition = "no-transition"
    /// Transitions leave the current state on the input, but every guard is false.
    case guardRejected = "guard-rejected"
    /// The machine has finished: it takes no more inputs.
    case finished
    /// Effects queued more inputs than the step limit for one external input (a livelock);
    /// this input and the rest of the queue were discarded.
    case stepLimit = "step-limit"
    /// A guard or effect body failed to evaluate (division by zero, overflow).
    case expressionError = "expression-error"
    /// Sent from inside one of the machine's own effects (a bound closure), the input was queued
    /// and runs after the current transition; its own result is published to observers then.
    case queued
    /// The selected transition is a refusal (`reject: MESSAGE`, the message): nothing changed.
    case refused
    /// Taking the transition would start more timers than the cap on pending timers; nothing
    /// changed.
    case timerLimit = "timer-limit"
}

/// The result of one step of any machine, flat or statechart: an input, a queued input, a
/// done event, an eventless microstep, a timer, or the start (docs/semantics.md).
///
/// Every runner publishes this one type through ``ResultSink``, whichever policy runs the
/// machine (the flat dispatch table, the leaf table of nested-only charts, the SCXML
/// algorithm). Plain ids and no strings, so producing one allocates nothing: what the step
/// left and entered, the effects that ran and the transitions taken are read from the runner
/// while a sink receives the result (``MachineRunner``), and the runner words it
/// (``MachineRunner/message(for:inputName:argument:)``).
@usableFromInline
package struct TransitionResult: Sendable {
    /// What led to the step.
    @usableFromInline package enum Trigger: Hashable, Sendable {
        /// The machine's start: the initial configuration entered.
        case start
        /// An input from outside the machine (or an `after` timer).
        case external
        /// An input queued by an effect's `send` (or by a bound closure).
        case sent(effect: Int)
        /// A done event, raised when the state completed.
        case done(state: Int)
        /// An eventless transition whose guard held.
        case eventless
    }

    /// How the step ended.
    @usableFromInline package enum Outcome: Hashable, Sendable {
        /// Transitions were taken (or the start entered its configuration).
        case accepted
        /// No transition, ignored by `on_unhandled: ignore`.
        case ignored
        /// Rejected, for this reason; nothing changed.
        case rejected(RejectionKind)
    }

    /// Where an expression that failed to evaluate is written.
    @usableFromInline package enum ExpressionSite: Hashable, Sendable {
        /// The guard of a transition, by id.
        case guardOf(transition: Int)
        /// The `index`th expression of an effect's body (assignments, then sends).
        case effect(Int, expression: Int)
    }

    /// What led to the step.
    @usableFromInline package var trigger: Trigger
    /// For the result of a fired timer: -2, or the send's id (``CompiledMachine/timerName(_:)``)
    /// for a delayed send that has one; -1 for any other result.
    @usableFromInline package var timer: Int32
    /// The input's id; -1 for the start, an eventless microstep and an unknown input's name.
    @usableFromInline package var input: Int
    /// How the step ended.
    @usableFromInline package var outcome: Outcome
    /// For a machine run by its flat dispatch table (one active state): the state before the
    /// step, the state after it, and the transition taken or -1. -1 in a statechart, whose
    /// configurations the runner holds.
    @usableFromInline package var from: Int
    @usableFromInline package var to: Int
    @usableFromInline package var transition: Int
    /// For a queued input or done event, its place in the runner's queue: the runner reads its
    /// argument there while the result is being received. Keeping the value out keeps a result
    /// plain data, copied without reference counting.
    @usableFromInline package var queueSlot: Int
    /// For `step-limit`: how many queued inputs were discarded with this one.
    @usableFromInline package var discarded: Int
    /// For `expression-error`: what failed, and where.
    @usableFromInline package var evaluationError: EvaluationError?
    /// For `expression-error`: which expression failed.
    @usableFromInline package var failedExpression: ExpressionSite?
    /// For `refused`: the compiled transition whose `reject` message refused the input, or -1.
    @usableFromInline package var refusingTransition: Int

    @inlinable
    package init(_ trigger: Trigger, input: Int, outcome: Outcome = .rejected(.noTransition), from: Int = -1, to: Int = -1, transition: Int = -1) {
        self.trigger = trigger
        self.timer = -1
        self.input = input
        self.outcome = outcome
        self.from = from
        self.to = to
        self.transition = transition
        self.queueSlot = -1
        self.discarded = 0
        self.refusingTransition = -1
    }

    /// The trigger of a flat runner's step: `sentBy` an effect id, or -1 for an external input.
    @inlinable
    package static func trigger(sentBy: Int) -> Trigger {
        sentBy >= 0 ? .sent(effect: sentBy) : .external
    }

    /// True for the start result, which has no input.
    @inlinable package var isStart: Bool { trigger == .start }

    /// The effect that queued the input, or -1.
    @inlinable package var sentBy: Int {
        if case .sent(let effect) = trigger { return effect }
        return -1
    }

    /// Whether a timer produced the result: an `after` transition or a delayed send.
    @inlinable package var isTimer: Bool { timer != -1 }

    /// Whether transitions were taken (or the start entered its configuration).
    @inlinable package var isAccepted: Bool { outcome == .accepted }

    /// Whether the step counts as a failure for the exit status.
    @inlinable package var isRejected: Bool {
        if case .rejected = outcome { return true }
        return false
    }

    /// Why the step was rejected, or `nil`.
    @inlinable package var rejection: RejectionKind? {
        if case .rejected(let kind) = outcome { return kind }
        return nil
    }

    /// Whether the step was queued (a sent input or a done event) or eventless: text output
    /// indents it under the line that led to it.
    @inlinable package var isFollowUp: Bool {
        if isTimer { return false }
        return switch trigger {
        case .sent, .done, .eventless: true
        case .start, .external: false
        }
    }
}

/// Receives results as a runner produces them: smrun's printer, scenario checks, the Swift
/// API's machines.
@usableFromInline
package protocol ResultSink<Runner>: ~Copyable {
    /// The runner whose results it receives (``MachineRunner``; a printer is generic over it).
    associatedtype Runner: MachineRunner

    /// Called once per result, right after the runner produced it: the runner shows the state
    /// after the step, and what the step left, ran and took. Inputs a sink queues here with
    /// ``MachineRunner/enqueue(_:argument:sentBy:)`` run after every input queued before them,
    /// and before the next external input (docs/semantics.md); only a sink whose
    /// ``queuesInputs`` is true may queue.
    mutating func receive(_ result: TransitionResult, from runner: inout Runner)

    /// Whether ``receive(_:from:)`` may queue inputs (Swift closures bound to effects); false by
    /// default, which spares the hot path a check of the queue.
    static var queuesInputs: Bool { get }
}

extension ResultSink where Self: ~Copyable {
    /// False: most sinks only look.
    @inlinable
    package static var queuesInputs: Bool { false }
}
