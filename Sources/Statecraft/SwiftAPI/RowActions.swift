/// What taking each of a typed machine's transitions does, by engine transition id: the state
/// it enters (or the builder that makes it) and its effects.
///
/// Kept as separate arrays rather than an array of rows, so that taking a transition reads one
/// field: copying a whole row would retain each of its closures, which costs more than the
/// transition itself.
@usableFromInline
struct RowActions<State: MachineState, Context: Sendable>: Sendable {
    /// Per transition, the state entered, unless its row builds it.
    @usableFromInline let targets: [State?]
    /// Per transition, the builder of the state entered, which must be of ``targetSlots``'s slot.
    @usableFromInline let builds: [(@Sendable (TypedFrame<State, Context>) -> State)?]
    @usableFromInline let targetSlots: [State.Slot]
    /// Per transition, its row's effects in order, or nil when there are none.
    @usableFromInline let effects: [(@Sendable (_ frame: TypedFrame<State, Context>, _ from: State, _ to: State) -> Void)?]

    init(_ rows: [ErasedRow<State, Context>]) {
        targets = rows.map(\.target)
        builds = rows.map(\.build)
        targetSlots = rows.map(\.targetSlot)
        effects = rows.map(\.effects)
    }

    /// The state `transition` enters from the frame's current state: its target, or the state
    /// its builder makes, which must be of the row's target slot (another is a programming error).
    @inlinable
    func target(of transition: Int, in frame: TypedFrame<State, Context>, input: @autoclosure () -> String) -> State {
        if let target = targets[transition] { return target }
        let built = builds[transition]!(frame)
        let slot = targetSlots[transition]
        precondition(built.slot == slot, "the row for '\(input())' built \(built), which is not in its target slot '\(slot)'")
        return built
    }

    /// Runs `transition`'s effects, if it has any, once the frame's state is `to`.
    @inlinable @inline(__always)
    func runEffects(of transition: Int, in frame: TypedFrame<State, Context>, from: State, to: State) {
        if let effects = effects[transition] { effects(frame, from, to) }
    }
}
