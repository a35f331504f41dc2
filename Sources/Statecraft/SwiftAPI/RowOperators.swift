/// `=>` joins an input's source states to its target: `input | .from => .to`.
///
/// It shares `|`'s precedence, so a row reads left to right:
/// `((input | .from) => .to) | effect`.
infix operator => : AdditionPrecedence

/// `input | .from`: the input, leaving from one state.
public func | <State: MachineState, Argument>(input: Input<Argument>, source: State.Slot) -> GivenInput<State, Argument> {
    input.given(source)
}

/// `input | [.a, .b]`: the input, leaving from any of several states.
public func | <State: MachineState, Argument>(input: Input<Argument>, sources: [State.Slot]) -> GivenInput<State, Argument> {
    input.given(sources)
}

/// `input | .matching { ... }`: the input, leaving from the states a predicate matches.
public func | <State: MachineState, Argument>(input: Input<Argument>, sources: StateMatch<State.Slot>) -> GivenInput<State, Argument> {
    input.given(sources)
}

/// `input | .from => .to`: the row to `target`.
public func => <State: MachineState, Context, Argument>(given: GivenInput<State, Argument>, target: State)
    -> TransitionRow<State, Context, Argument>
{
    given.transition(to: target)
}

/// `row | { effect }`: the row with one more effect, run after those before it.
public func | <State: MachineState, Context, Argument>(
    row: TransitionRow<State, Context, Argument>,
    effect: @escaping @Sendable (inout TransitionStep<State, Context, Argument>) -> Void
) -> TransitionRow<State, Context, Argument> {
    row.performingSideEffect(effect)
}

/// `row | .when { condition }`: the row with one more guard.
public func | <State: MachineState, Context, Argument>(
    row: TransitionRow<State, Context, Argument>, condition: TransitionGuard<State, Context, Argument>
) -> TransitionRow<State, Context, Argument> {
    row.when(condition.condition)
}
