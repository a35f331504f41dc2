/// The typed state of a running machine, where the guards compiled into its engine table, its
/// rows' builders and its effects read it. Guarded by the machine's lock: only the thread running
/// the machine touches it, so its accesses need no exclusivity checks.
@usableFromInline
final class TypedFrame<State: Sendable, Context: Sendable>: @unchecked Sendable {
    /// The current state.
    @exclusivity(unchecked) @usableFromInline var state: State
    /// The extended state.
    @exclusivity(unchecked) @usableFromInline var context: Context
    /// The argument of the input being processed when it was sent from outside the run: it
    /// stays on the sender's stack, unboxed, until the run returns.
    @exclusivity(unchecked) @usableFromInline var argumentAddress: UnsafeRawPointer?
    /// The argument of the input being processed otherwise (a queued input, a work's result).
    @exclusivity(unchecked) @usableFromInline var boxedArgument: any Sendable = ()

    init(state: State, context: Context) {
        self.state = state
        self.context = context
    }

    /// The argument of the input being processed, which is an `Argument`.
    @inlinable
    func argument<Argument>(_: Argument.Type) -> Argument {
        // A value of a type without bits (`()`) is the only one; its address may be null.
        if MemoryLayout<Argument>.size == 0 { return unsafeBitCast((), to: Argument.self) }
        if let argumentAddress { return argumentAddress.assumingMemoryBound(to: Argument.self).pointee }
        return boxedArgument as! Argument
    }
}
