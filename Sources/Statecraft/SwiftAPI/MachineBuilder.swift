/// Builds a ``TypedStateMachine``'s rules from rows, work states and final states, one per line;
/// `if`, `if`/`else` and `for` work as in any Swift block.
@resultBuilder
public enum MachineBuilder<State: MachineState, Context: Sendable> {
    /// A row.
    @inlinable
    public static func buildExpression<Argument>(_ row: TransitionRow<State, Context, Argument>) -> MachineRules<State, Context> {
        MachineRules(rules: [.row(ErasedRow(row))])
    }

    /// A work state.
    public static func buildExpression(_ work: WorkState<State, Context>) -> MachineRules<State, Context> {
        MachineRules(rules: [.work(work)])
    }

    /// Final states.
    public static func buildExpression(_ final: FinalState<State>) -> MachineRules<State, Context> {
        MachineRules(rules: final.slots.map { .final($0) })
    }

    /// The rules of each line, in order.
    public static func buildBlock(_ parts: MachineRules<State, Context>...) -> MachineRules<State, Context> {
        MachineRules(rules: parts.flatMap(\.rules))
    }

    /// The rules of an `if` without `else`, when its condition holds.
    public static func buildOptional(_ part: MachineRules<State, Context>?) -> MachineRules<State, Context> {
        part ?? MachineRules(rules: [])
    }

    /// The rules of an `if`'s first branch.
    public static func buildEither(first part: MachineRules<State, Context>) -> MachineRules<State, Context> { part }

    /// The rules of an `if`'s `else` branch.
    public static func buildEither(second part: MachineRules<State, Context>) -> MachineRules<State, Context> { part }

    /// The rules of every pass through a `for` loop.
    public static func buildArray(_ parts: [MachineRules<State, Context>]) -> MachineRules<State, Context> {
        MachineRules(rules: parts.flatMap(\.rules))
    }
}

/// A machine's rules, in the order written: what a ``MachineBuilder`` block produces.
public struct MachineRules<State: MachineState, Context: Sendable> {
    @usableFromInline
    enum Rule {
        case row(ErasedRow<State, Context>)
        case work(WorkState<State, Context>)
        case final(State.Slot)
    }

    @usableFromInline let rules: [Rule]

    @usableFromInline
    init(rules: [Rule]) {
        self.rules = rules
    }
}

/// States that accept no more input: in one, every input is rejected as `finished`.
public struct FinalState<State: MachineState> {
    let slots: [State.Slot]

    /// Makes `slots` final.
    public init(_ slots: State.Slot...) {
        self.slots = slots
    }
}

/// A row with its argument type erased, as the machine runs it: its closures read the argument
/// from the machine's ``TypedFrame``, where it is always the row's `Argument`, since an input is
/// identified by its name and argument type. Built where the row is written (``MachineBuilder``
/// is inlinable), so that the closures are specialised for the row's types.
@usableFromInline
struct ErasedRow<State: MachineState, Context: Sendable> {
    @usableFromInline let input: InputKey
    @usableFromInline let sources: StateMatch<State.Slot>
    @usableFromInline let targetSlot: State.Slot
    /// For a delayed row (``After``), its delay.
    @usableFromInline let delay: Delay?
    /// The guards, all of which must hold; nil when there are none.
    @usableFromInline let condition: (@Sendable (TypedFrame<State, Context>) -> Bool)?
    /// The state entered, unless the row builds it.
    @usableFromInline let target: State?
    /// Builds the state entered from the frame, before the state changes; nil when ``target`` is the state.
    @usableFromInline let build: (@Sendable (TypedFrame<State, Context>) -> State)?
    /// Runs the effects in order, once the state is the one entered; nil when there are none.
    @usableFromInline let effects: Effects?

    /// A row's effects, called with the frame alone (the state left is the frame's
    /// ``TypedFrame/left``). A class, so that a machine can call it through an unretained
    /// reference, with no reference counting per transition (see ``RowActions``); its one
    /// subclass, ``RowEffects``, also holds the row's typed effect.
    @usableFromInline
    class Effects: @unchecked Sendable {
        /// Runs the effects on the frame, whose state is the one entered and whose argument is
        /// the row's. A closure made where the row is written, so that it is specialised for
        /// the row's types (a class method of a generic subclass would run unspecialised).
        @usableFromInline final let run: @Sendable (TypedFrame<State, Context>) -> Void

        @inlinable
        init(_ run: @escaping @Sendable (TypedFrame<State, Context>) -> Void) {
            self.run = run
        }
    }

    /// The effects of a row whose input takes an `Argument`: a caller that knows the argument's
    /// type (the owned machine, sending that input) calls ``effect`` itself, with a step it
    /// builds, rather than through ``Effects/run``.
    @usableFromInline
    final class RowEffects<Argument: Sendable>: Effects, @unchecked Sendable {
        /// The row's effects, in order.
        @usableFromInline let effect: TransitionRow<State, Context, Argument>.Effect

        @inlinable
        init(input: Input<Argument>, effect: @escaping TransitionRow<State, Context, Argument>.Effect) {
            self.effect = effect
            super.init { frame in
                var step = TransitionStep(from: frame.left, to: frame.state, input: input, frame: frame)
                effect(&step)
            }
        }
    }

    @inlinable
    init<Argument>(_ row: TransitionRow<State, Context, Argument>) {
        let input = row.input
        self.input = input.key
        sources = row.sources
        targetSlot = row.targetSlot
        delay = row.delay
        let guards = row.guards
        if guards.isEmpty {
            condition = nil
        } else {
            condition = { frame in
                let request = TransitionRequest(
                    from: frame.state, input: input, argument: frame.argument(Argument.self), context: frame.context)
                return guards.allSatisfy { $0(request) }
            }
        }
        switch row.target {
        case .value(let state):
            target = state
            build = nil
        case .built(let builder):
            target = nil
            build = { frame in
                builder(
                    TransitionRequest(from: frame.state, input: input, argument: frame.argument(Argument.self), context: frame.context))
            }
        }
        effects = row.effect.map { RowEffects(input: input, effect: $0) }
    }
}
