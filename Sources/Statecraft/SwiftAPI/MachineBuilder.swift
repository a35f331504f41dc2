/// Builds a ``TypedStateMachine``'s rules from rows, work states and final states, one per line;
/// `if`, `if`/`else` and `for` work as in any Swift block.
@resultBuilder
public enum MachineBuilder<State: MachineState, Context: Sendable> {
    /// A row.
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
    enum Rule {
        case row(ErasedRow<State, Context>)
        case work(WorkState<State, Context>)
        case final(State.Slot)
    }

    let rules: [Rule]
}

/// States that accept no more input: in one, every input is rejected as `finished`.
public struct FinalState<State: MachineState> {
    let slots: [State.Slot]

    /// Makes `slots` final.
    public init(_ slots: State.Slot...) {
        self.slots = slots
    }
}

/// A row with its argument type erased, as the machine runs it: every closure takes the
/// argument as `any Sendable`, which is always the row's `Argument`, since an input is
/// identified by its name and argument type.
struct ErasedRow<State: MachineState, Context: Sendable> {
    let input: InputKey
    let sources: StateMatch<State.Slot>
    let targetSlot: State.Slot
    /// The guards, all of which must hold; nil when there are none.
    let condition: (@Sendable (_ from: State, _ argument: any Sendable, _ context: Context) -> Bool)?
    /// The state entered: the row's target, or the state its builder makes.
    let target: @Sendable (_ from: State, _ argument: any Sendable, _ context: Context) -> State
    /// Runs the effects in order; nil when there are none.
    let effects:
        (@Sendable (
            _ machine: TypedStateMachine<State, Context>, _ from: State, _ to: State, _ argument: any Sendable,
            _ context: inout Context
        ) -> Void)?

    init<Argument>(_ row: TransitionRow<State, Context, Argument>) {
        let input = row.input
        self.input = input.key
        sources = row.sources
        targetSlot = row.targetSlot
        let guards = row.guards
        if guards.isEmpty {
            condition = nil
        } else {
            condition = { from, argument, context in
                let request = TransitionRequest(from: from, input: input, argument: argument as! Argument, context: context)
                return guards.allSatisfy { $0(request) }
            }
        }
        switch row.target {
        case .value(let state):
            target = { _, _, _ in state }
        case .built(let build):
            target = { from, argument, context in
                build(TransitionRequest(from: from, input: input, argument: argument as! Argument, context: context))
            }
        }
        let effects = row.effects
        if effects.isEmpty {
            self.effects = nil
        } else {
            self.effects = { machine, from, to, argument, context in
                var step = TransitionStep(
                    from: from, to: to, input: input, argument: argument as! Argument, context: context, machine: machine)
                for effect in effects { effect(&step) }
                context = step.context
            }
        }
    }
}
