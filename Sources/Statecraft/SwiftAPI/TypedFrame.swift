/// The typed state of a running machine, where the guards compiled into its engine table, its
/// rows' builders and its effects read it, and where effects queue what they send. Only the
/// thread running the machine touches it (a ``TypedStateMachine`` holds its lock; an
/// ``OwnedStateMachine`` has one owner), so its accesses need no exclusivity checks.
@usableFromInline
final class TypedFrame<State: MachineState, Context: Sendable>: @unchecked Sendable {
    /// The current state.
    @exclusivity(unchecked) @usableFromInline var state: State
    /// The extended state.
    @exclusivity(unchecked) @usableFromInline var context: Context
    /// The state the transition whose effects are running left (``TransitionStep/from``); its
    /// effects read it here, so that they take the frame alone, as a class reference passes
    /// without reabstraction.
    @exclusivity(unchecked) @usableFromInline var left: State
    /// The argument of the input being processed when it was sent from outside the run: it
    /// stays on the sender's stack, unboxed, until the run returns.
    @exclusivity(unchecked) @usableFromInline var argumentAddress: UnsafeRawPointer?
    /// The argument of the input being processed otherwise (a queued input, a work's result).
    @exclusivity(unchecked) @usableFromInline var boxedArgument: any Sendable = ()
    /// Inputs sent from inside the run since the last result, with their ids, not yet queued in
    /// the runner.
    @exclusivity(unchecked) @usableFromInline var sentFromRun: [(id: Int, input: SentInput)] = []
    /// The machine's input ids, set once it is compiled.
    @usableFromInline var inputs = InputTable([:], unmapped: 0)
    /// Per input id, what the results of a delayed row's timer report as their input; set once
    /// the machine is compiled, empty when it has no delayed rows.
    @usableFromInline var afterInputs: [SentInput?] = []
    /// The shared machine this frame belongs to, for ``TransitionStep/machine``; nil for an
    /// ``OwnedStateMachine``, which has no shared reference. The machine owns the frame.
    @usableFromInline unowned(unsafe) var shared: TypedStateMachine<State, Context>?

    init(state: State, context: Context) {
        self.state = state
        self.context = context
        self.left = state
    }

    /// The argument of the input being processed, which is an `Argument`.
    @inlinable
    func argument<Argument>(_: Argument.Type) -> Argument {
        // A value of a type without bits (`()`) is the only one; its address may be null.
        if MemoryLayout<Argument>.size == 0 { return unsafeBitCast((), to: Argument.self) }
        if let argumentAddress { return argumentAddress.assumingMemoryBound(to: Argument.self).pointee }
        return boxedArgument as! Argument
    }

    /// Queues `input`, sent by an effect, to run after the current transition.
    @inlinable
    func queue<Argument>(_ input: Input<Argument>, _ argument: Argument) {
        sentFromRun.append((inputs.id(of: input), input.sent(argument, queued: true)))
    }
}
