import Statecraft

/// One result of a step as a scenario checks it, whichever runner produced it: the input, how
/// it ended, the effects it ran, the transitions it took and the states after it.
struct StepRecord {
    /// The input's id; -1 for the start and for a statechart's eventless step.
    var input: Int
    /// Whether it is the step's own result (its input's, or the start's), not a queued or timed one.
    var isMain: Bool
    /// For the result of a fired timer: -2, or the delayed send's id; -1 for any other result.
    var timer: Int32
    var isAccepted: Bool
    var rejection: RejectionKind?
    /// Effect ids, in the order they ran.
    var effects: [Int]
    /// Transition ids (into ``CompiledMachine/transitions``) taken, or selected to refuse the input.
    var transitions: [Int]
    /// The active atomic states after it, in id order.
    var statesAfter: [Int]
    /// The states entered or active after it, for coverage.
    var statesActive: [Int]
}
