/// What taking each of a typed machine's transitions does, by engine transition id: the state
/// it enters (or the builder that makes it) and its effects.
///
/// What a transition taken on the direct path reads is one plain ``Action``, which copies without
/// reference counting: its effects are referred to unretained, kept alive by ``effectOwners``.
/// Retaining a closure per transition would cost more than the transition itself.
@usableFromInline
struct RowActions<State: MachineState, Context: Sendable>: Sendable {
    /// What one transition does, as plain data.
    @usableFromInline
    struct Action: @unchecked Sendable {
        /// The state entered, unless the row builds it.
        @usableFromInline let target: State?
        /// The row's effects in order, or nil when there are none; owned by ``effectOwners``.
        @usableFromInline let effects: Unmanaged<ErasedRow<State, Context>.Effects>?
    }

    /// Per transition, its action.
    @usableFromInline let actions: [Action]
    /// Per transition, the builder of the state entered, which must be of ``targetSlots``'s slot.
    @usableFromInline let builds: [(@Sendable (TypedFrame<State, Context>) -> State)?]
    @usableFromInline let targetSlots: [State.Slot]
    /// Keeps alive the effects that ``actions`` refer to.
    let effectOwners: [ErasedRow<State, Context>.Effects?]

    init(_ rows: [ErasedRow<State, Context>]) {
        actions = rows.map { Action(target: $0.target, effects: $0.effects.map(Unmanaged.passUnretained)) }
        builds = rows.map(\.build)
        targetSlots = rows.map(\.targetSlot)
        effectOwners = rows.map(\.effects)
    }

    /// The state `transition` enters from the frame's current state: its target, or the state
    /// its builder makes, which must be of the row's target slot (another is a programming error).
    @inlinable
    func target(of transition: Int, in frame: TypedFrame<State, Context>, input: @autoclosure () -> String) -> State {
        if let target = actions[transition].target { return target }
        let built = builds[transition]!(frame)
        let slot = targetSlots[transition]
        precondition(built.slot == slot, "the row for '\(input())' built \(built), which is not in its target slot '\(slot)'")
        return built
    }

    /// Runs `transition`'s effects, if it has any, once the frame's state is `to`.
    @inlinable @inline(__always)
    func runEffects(of transition: Int, in frame: TypedFrame<State, Context>, from: State, to: State) {
        guard let effects = actions[transition].effects else { return }
        frame.left = from
        effects._withUnsafeGuaranteedRef { $0.run(frame) }
    }
}
