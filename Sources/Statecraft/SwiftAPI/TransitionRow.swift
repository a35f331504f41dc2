/// One row of a machine's table: on an input, from some states, to a target, when its guards
/// hold, running its effects.
///
/// ```swift
/// Inputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.passengers = $0.argument }
/// Inputs.logIn.given(.loggedOut).transition(to: .loggedIn).performingSideEffect { $0.send(Inputs.refresh) }
/// ```
public struct TransitionRow<State: MachineState, Context: Sendable, Argument: Sendable> {
    @usableFromInline
    enum Target {
        case value(State)
        case built(@Sendable (TransitionRequest<State, Context, Argument>) -> State)
    }

    @usableFromInline typealias Guard = @Sendable (TransitionRequest<State, Context, Argument>) -> Bool
    @usableFromInline typealias Effect = @Sendable (inout TransitionStep<State, Context, Argument>) -> Void

    @usableFromInline let input: Input<Argument>
    @usableFromInline let sources: StateMatch<State.Slot>
    @usableFromInline let targetSlot: State.Slot
    @usableFromInline let target: Target
    /// For a delayed row (``After``), its delay; `nil` for a row taken on an input.
    @usableFromInline let delay: Delay?
    @usableFromInline var guards: [Guard] = []
    /// The row's effects, composed into one closure in the order given; nil when there are none.
    /// One closure of the row's own type, not an array of them: a closure read from an array is
    /// of the array's generic element type and is called through reabstraction thunks.
    @usableFromInline var effect: Effect?

    /// The row, taken only when `condition` holds too (DDStateMachine's `ifCondition`, or
    /// `ifResult` on a work state's result input). Rows of one input and state are tried in the
    /// order written; the first whose guards hold is taken (docs/semantics.md).
    public func when(_ condition: @escaping @Sendable (TransitionRequest<State, Context, Argument>) -> Bool) -> Self {
        var row = self
        row.guards.append(condition)
        return row
    }

    /// The row, running `effect` after the effects already given when it is taken.
    public func performingSideEffect(_ effect: @escaping @Sendable (inout TransitionStep<State, Context, Argument>) -> Void) -> Self {
        var row = self
        if let earlier = row.effect {
            row.effect = { step in
                earlier(&step)
                effect(&step)
            }
        } else {
            row.effect = effect
        }
        return row
    }
}

/// A guard for the row syntax: `input | .a => .b | .when { $0.context.ready }`.
public struct TransitionGuard<State: MachineState, Context: Sendable, Argument: Sendable> {
    let condition: @Sendable (TransitionRequest<State, Context, Argument>) -> Bool

    /// A guard: the row is taken only when `condition` holds.
    public static func when(_ condition: @escaping @Sendable (TransitionRequest<State, Context, Argument>) -> Bool) -> Self {
        TransitionGuard(condition: condition)
    }
}
