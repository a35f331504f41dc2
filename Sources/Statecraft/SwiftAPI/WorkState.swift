/// A state that does work when entered (DDStateMachine's work states): the machine runs `work`
/// in a task each time it enters the state, the initial state included, and sends the work's
/// result as `input`, whose rows, guarded on the result, choose the next transition
/// (DDStateMachine's result conditions).
///
/// ```swift
/// WorkState(.inProgress, reporting: Sync.finished) { _, _ in await service.synchronize() }
/// Sync.finished | .inProgress => .synced | .when { $0.argument }
/// Sync.finished | .inProgress => .failed | .when { !$0.argument }
/// ```
///
/// The work sees the state entered and the context as they are once the entering transition's
/// effects have run. Leaving the state cancels the work (cooperatively: `Task.isCancelled`), and
/// the result of work whose state was left is discarded, so a late result never moves the
/// machine out of a later visit. A state has at most one work state; a second for the same
/// state is a programming error that stops the program.
public struct WorkState<State: MachineState, Context: Sendable> {
    let slot: State.Slot
    let input: InputKey
    let run: @Sendable (_ state: State, _ context: Context) async -> SentInput

    /// Runs `work` on entering `slot`, and sends its result as `input`.
    public init<Result>(
        _ slot: State.Slot, reporting input: Input<Result>,
        work: @escaping @Sendable (_ state: State, _ context: Context) async -> Result
    ) {
        self.slot = slot
        self.input = input.key
        run = { state, context in input.sent(await work(state, context), queued: false) }
    }
}
