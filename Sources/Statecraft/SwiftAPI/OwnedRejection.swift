/// Why an ``OwnedStateMachine`` refused an input, as plain values: the state it stayed in, the
/// kind of rejection and the input, with no copy of the input's argument and no reference to
/// the machine, so that making and dropping one costs nothing. The machine that refused it words
/// the message (``OwnedStateMachine/message(for:)``) when it is read.
public struct OwnedRejection<State: MachineState>: Sendable {
    /// The current state, unchanged.
    public let state: State
    /// Why: `noTransition`, `guardRejected`, `finished` or `timerLimit` (an input sent from
    /// outside never meets the step limit).
    public let kind: RejectionKind
    /// The input refused.
    @usableFromInline let input: InputKey
    /// The engine's id of ``state``'s slot, which the message names.
    @usableFromInline let stateID: Int32

    @inlinable
    init(state: State, kind: RejectionKind, input: InputKey, stateID: Int) {
        self.state = state
        self.kind = kind
        self.input = input
        self.stateID = Int32(truncatingIfNeeded: stateID)
    }

    /// The name of the input refused.
    public var inputName: String { input.name }

    /// Whether `input` is the input refused.
    public func `is`<Argument>(_ input: Input<Argument>) -> Bool { input.key == self.input }
}
