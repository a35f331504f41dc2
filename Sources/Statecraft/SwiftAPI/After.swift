/// The trigger of a delayed transition: its source state having been active for a duration.
/// Rows start from it as they start from an input:
///
/// ```swift
/// let light = TypedStateMachine(initial: Light.red, clock: clock) {
///     After(.seconds(30)) | .red    => .green
///     After(.seconds(25)) | .green  => .yellow
///     After(.seconds(5))  | .yellow => .red
///     Inputs.emergency    | [.green, .yellow] => .red
/// }
/// ```
///
/// The row's timer starts when its source state is entered and is cancelled when the state is
/// left; a row back to the same state starts it over. Several rows of one state fire in time
/// order, ties in the order written; a row's guards (`| .when { ... }`) are checked when its
/// timer fires, and when they do not hold, the timer is spent without a result. A fired
/// timer's result is published like an input's, its ``SentInput/after`` the row's duration.
/// The clock that fires timers is the machine's (``TypedStateMachine``), or the owner's
/// ``OwnedStateMachine/advance(by:)``.
///
/// A duration must be a whole number of milliseconds from zero to 100 years; another stops the
/// program. `.zero` fires as soon as the input that entered the state has run to completion.
public struct After: Sendable, CustomStringConvertible {
    /// How long the source state must have been active.
    public let duration: Duration
    /// The duration in the engine's milliseconds, and as results write it (`30s`).
    let delay: Delay
    /// The input that a fired timer's result reports: named `after 30s`.
    let input: Input<Void>

    /// The trigger after `duration` in the source state: a whole number of milliseconds, from
    /// zero to 100 years.
    public init(_ duration: Duration) {
        guard let delay = Delay(duration) else {
            preconditionFailure(
                "After(\(duration)): a delay is a whole number of milliseconds, from zero to 100 years")
        }
        self.duration = duration
        self.delay = delay
        input = Input(key: InputKey(name: "after \(delay.text)", argumentType: After.self))
    }

    /// `after 30s`.
    public var description: String { input.name }

    /// The delayed row leaving from `source`.
    public func given<State: MachineState>(_ source: State.Slot) -> GivenInput<State, Void> {
        GivenInput(input: input, sources: StateMatch(kind: .slots([source])), delay: delay)
    }

    /// The delayed rows leaving from each of `sources`, each state's timer its own.
    public func given<State: MachineState>(_ sources: [State.Slot]) -> GivenInput<State, Void> {
        GivenInput(input: input, sources: StateMatch(kind: .slots(sources)), delay: delay)
    }

    /// The delayed rows leaving from the states `sources` matches, each state's timer its own.
    public func given<State: MachineState>(_ sources: StateMatch<State.Slot>) -> GivenInput<State, Void> {
        GivenInput(input: input, sources: sources, delay: delay)
    }
}

/// `After(.seconds(30)) | .red`: the delayed row, leaving from one state.
public func | <State: MachineState>(after: After, source: State.Slot) -> GivenInput<State, Void> {
    after.given(source)
}

/// `After(.seconds(30)) | [.a, .b]`: the delayed row, leaving from any of several states.
public func | <State: MachineState>(after: After, sources: [State.Slot]) -> GivenInput<State, Void> {
    after.given(sources)
}

/// `After(.seconds(30)) | .matching { ... }`: the delayed row, leaving from the states a
/// predicate matches.
public func | <State: MachineState>(after: After, sources: StateMatch<State.Slot>) -> GivenInput<State, Void> {
    after.given(sources)
}
