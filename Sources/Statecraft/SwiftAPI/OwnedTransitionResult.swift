/// What one input did to an ``OwnedStateMachine``: plain values, with no copy of the input or
/// its argument, so that an accepted input's result costs nothing to make or drop.
public enum OwnedTransitionResult<State: MachineState>: Sendable {
    /// A row was taken: the machine moved from `from` to `to` (the same state for a row that
    /// leads back to its source).
    case moved(from: State, to: State)
    /// No row for the input, ignored by `onUnhandled: .ignore`: nothing changed.
    case ignored(in: State)
    /// The input was refused and nothing changed; the error says why, as a
    /// ``TypedStateMachine``'s would.
    case rejected(StateTransitionError<State>)

    /// Whether the input was taken or ignored by policy.
    @inlinable
    public var isSuccess: Bool {
        if case .rejected = self { return false }
        return true
    }

    /// The state the machine is in after the input.
    @inlinable
    public var state: State {
        switch self {
        case .moved(_, let to): to
        case .ignored(let state): state
        case .rejected(let error): error.state
        }
    }

    /// The error, when the input was refused.
    @inlinable
    public var error: StateTransitionError<State>? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
