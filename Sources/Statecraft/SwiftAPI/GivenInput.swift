/// An input given the states it leaves from, waiting for its target:
/// `input.given(.parked)` or `input | .parked`.
public struct GivenInput<State: MachineState, Argument: Sendable> {
    let input: Input<Argument>
    let sources: StateMatch<State.Slot>
    /// For a delayed row (``After``), its delay.
    var delay: Delay? = nil

    /// The row taking the input from the given states to `target`.
    public func transition<Context>(to target: State) -> TransitionRow<State, Context, Argument> {
        TransitionRow(input: input, sources: sources, targetSlot: target.slot, target: .value(target), delay: delay)
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
        TransitionRow(input: input, sources: sources, targetSlot: target, target: .built(build), delay: delay)
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
