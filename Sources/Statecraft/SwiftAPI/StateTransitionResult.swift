/// What one input did (docs/semantics.md): `send` returns it, and observers receive it.
public enum StateTransitionResult<State: Sendable>: Sendable {
    /// A transition was taken, or the input was ignored by the machine's policy.
    case success(StateTransition<State>)
    /// The input was rejected; the state is unchanged.
    case failure(StateTransitionError<State>)

    /// Whether the input was accepted (or ignored by policy).
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// The transition, on success.
    public var transition: StateTransition<State>? {
        if case .success(let transition) = self { return transition }
        return nil
    }

    /// The error, on failure.
    public var error: StateTransitionError<State>? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The input the result is about.
    public var input: SentInput {
        switch self {
        case .success(let transition): transition.input
        case .failure(let error): error.input
        }
    }
}

/// A transition taken: from a state to a state (maybe the same) on an input.
public struct StateTransition<State: Sendable>: Sendable {
    /// The state before.
    public let from: State
    /// The state after.
    public let to: State
    /// The input taken, with its argument.
    public let input: SentInput
    /// True when no transition matched and the machine's policy is to ignore such inputs:
    /// nothing changed and no effect ran (`from` and `to` are the current state).
    public let isIgnored: Bool

    /// The input's argument.
    public var argument: any Sendable { input.argument }

    @inlinable
    init(from: State, to: State, input: SentInput, isIgnored: Bool) {
        self.from = from
        self.to = to
        self.input = input
        self.isIgnored = isIgnored
    }
}

/// Why an input was rejected, and where the machine was.
public struct StateTransitionError<State: Sendable>: Error, Sendable, CustomStringConvertible {
    /// The kinds of rejection: the engine's, by the same names, and ``RejectionKind/queued``.
    public typealias Kind = RejectionKind

    /// The current state, unchanged.
    public let state: State
    /// The input rejected, with its argument.
    public let input: SentInput
    /// Why.
    public let kind: Kind
    /// What the message is made from: it is built only when read.
    @usableFromInline let explanation: RejectionExplanation

    /// A sentence naming the input and the state, as `smrun` prints it.
    public var message: String { explanation.message(for: input) }

    @inlinable
    init(state: State, input: SentInput, kind: Kind, explanation: RejectionExplanation) {
        self.state = state
        self.input = input
        self.kind = kind
        self.explanation = explanation
    }

    /// The kind, as `smrun` names it, and the message.
    public var description: String { "\(kind.rawValue): \(message)" }
}
