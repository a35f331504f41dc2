/// An input given the states it leaves from, waiting for its target:
/// `input.given(.parked)` or `input | .parked`.
public struct GivenInput<State: MachineState, Argument: Sendable> {
    let input: Input<Argument>
    let sources: StateMatch<State.Slot>

    /// The row taking the input from the given states to `target`.
    public func transition<Context>(to target: State) -> TransitionRow<State, Context, Argument> {
        TransitionRow(input: input, sources: sources, targetSlot: target.slot, target: .value(target))
    }

    /// The row taking the input from the given states to a state of slot `target` that `build`
    /// makes from the request (the input's argument, the state left, the context): Stated's
    /// states built from an input's argument and from the previous state.
    ///
    /// `build` must return a state of slot `target`; a state of another slot is a programming
    /// error that stops the program.
    public func transition<Context>(
        to target: State.Slot, building build: @escaping @Sendable (TransitionRequest<State, Context, Argument>) -> State
    ) -> TransitionRow<State, Context, Argument> {
        TransitionRow(input: input, sources: sources, targetSlot: target, target: .built(build))
    }
}

/// The states a row leaves from: one slot, several, or those that match a predicate.
public struct StateMatch<Slot: Hashable & Sendable> {
    enum Kind {
        case slots([Slot])
        case predicate((Slot) -> Bool)
    }

    let kind: Kind

    /// Every slot of the machine for which `predicate` holds (a slot is any state the machine's
    /// rows, work states, final states or initial state name).
    public static func matching(_ predicate: @escaping (Slot) -> Bool) -> StateMatch {
        StateMatch(kind: .predicate(predicate))
    }
}

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
    @usableFromInline var guards: [Guard] = []
    @usableFromInline var effects: [Effect] = []

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
        row.effects.append(effect)
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

extension Input {
    /// This input, leaving from `source`.
    public func given<State: MachineState>(_ source: State.Slot) -> GivenInput<State, Argument> {
        GivenInput(input: self, sources: StateMatch(kind: .slots([source])))
    }

    /// This input, leaving from any of `sources`.
    public func given<State: MachineState>(_ sources: [State.Slot]) -> GivenInput<State, Argument> {
        GivenInput(input: self, sources: StateMatch(kind: .slots(sources)))
    }

    /// This input, leaving from the states `sources` matches.
    public func given<State: MachineState>(_ sources: StateMatch<State.Slot>) -> GivenInput<State, Argument> {
        GivenInput(input: self, sources: sources)
    }
}
