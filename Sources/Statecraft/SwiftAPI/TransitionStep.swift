/// What a guard, or a row that builds its target state, sees: the state being left, the input
/// with its typed argument, and the machine's context.
public struct TransitionRequest<State: MachineState, Context: Sendable, Argument: Sendable> {
    /// The current state, which the transition would leave.
    public let from: State
    /// The input.
    public let input: Input<Argument>
    /// The input's argument.
    public let argument: Argument
    /// The machine's extended state.
    public let context: Context

    @inlinable
    init(from: State, input: Input<Argument>, argument: Argument, context: Context) {
        self.from = from
        self.input = input
        self.argument = argument
        self.context = context
    }
}

/// What an effect sees when its transition has been taken: the states before and after, the
/// input with its typed argument, and the context, which it may change.
///
/// A step is valid only while its effect runs: it reads and writes the machine's live context
/// and argument, which only the thread running the machine touches, so an effect must not keep it.
public struct TransitionStep<State: MachineState, Context: Sendable, Argument: Sendable> {
    /// The state left.
    public let from: State
    /// The state entered, which is the machine's state while effects run.
    public let to: State
    /// The input taken.
    public let input: Input<Argument>
    /// The frame of the machine running the effect, unretained: it outlives the step, and
    /// reading through it retains nothing.
    @usableFromInline let frameReference: Unmanaged<TypedFrame<State, Context>>

    @inlinable
    init(from: State, to: State, input: Input<Argument>, frame: TypedFrame<State, Context>) {
        self.from = from
        self.to = to
        self.input = input
        self.frameReference = Unmanaged.passUnretained(frame)
    }

    /// The frame of the machine running the effect.
    @inlinable
    var frame: TypedFrame<State, Context> { frameReference.takeUnretainedValue() }

    /// The input's argument.
    @inlinable
    public var argument: Argument { frameReference._withUnsafeGuaranteedRef { $0.argument(Argument.self) } }

    /// The machine's extended state, changed in place: the next effect, guard and work see the
    /// changes (DDStateMachine's actions).
    @inlinable
    public var context: Context {
        get { frameReference._withUnsafeGuaranteedRef { $0.context } }
        _modify { yield &frame.context }
    }

    /// The shared machine running the effect.
    ///
    /// Only a ``TypedStateMachine`` is shared: reading this in an effect that an
    /// ``OwnedStateMachine`` runs stops the program. Such effects use ``to``, ``context`` and
    /// ``send(_:)``, which work in both.
    public var machine: TypedStateMachine<State, Context> {
        guard let shared = frame.shared else {
            preconditionFailure("TransitionStep.machine: an OwnedStateMachine is not shared; use the step's context and send")
        }
        return shared
    }

    /// Queues `input` to run after this transition and those already queued (run to
    /// completion); its result is published to observers when it runs.
    @inlinable
    public func send(_ input: Input<Void>) {
        frameReference._withUnsafeGuaranteedRef { $0.queue(input, ()) }
    }

    /// Queues `input` with `argument` to run after this transition and those already queued.
    @inlinable
    public func send<A>(_ input: Input<A>, _ argument: A) {
        frameReference._withUnsafeGuaranteedRef { $0.queue(input, argument) }
    }
}
