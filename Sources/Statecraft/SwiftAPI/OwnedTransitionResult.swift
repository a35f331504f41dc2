/// What one input did to an ``OwnedStateMachine``: plain values, with no copy of the input or
/// its argument, so that a result costs nothing to make or drop, and for states without data
/// it is returned in registers.
public enum OwnedTransitionResult<State: MachineState>: Sendable {
    /// A row was taken: the machine moved from `from` to `to` (the same state for a row that
    /// leads back to its source).
    case moved(from: State, to: State)
    /// No row for the input, ignored by `onUnhandled: .ignore`: nothing changed.
    case ignored(in: State)
    /// The input was refused and nothing changed; the rejection says why, and the machine words
    /// it as a ``TypedStateMachine``'s error would (``OwnedStateMachine/message(for:)``).
    case rejected(OwnedRejection<State>)

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
        case .rejected(let rejection): rejection.state
        }
    }

    /// The rejection, when the input was refused.
    @inlinable
    public var rejection: OwnedRejection<State>? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}
