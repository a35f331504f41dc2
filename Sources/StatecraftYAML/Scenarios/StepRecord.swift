import Statecraft

/// One result of a step as a scenario checks it, whichever runner produced it: the input, how
/// it ended, and where its effects, transitions and states are in the step's ``StepResults``.
struct StepRecord {
    /// The input's id; -1 for the start and for a statechart's eventless step.
    var input: Int
    /// Whether it is the step's own result (its input's, or the start's), not a queued or timed one.
    var isMain: Bool
    /// For the result of a fired timer: -2, or the delayed send's id; -1 for any other result.
    var timer: Int32
    var isAccepted: Bool
    var rejection: RejectionKind?
    /// Effect ids, in the order they ran (in ``StepResults/effects``).
    var effects: Range<Int>
    /// Transition ids (into ``CompiledMachine/transitions``) taken, or selected to refuse the
    /// input (in ``StepResults/transitions``).
    var transitions: Range<Int>
    /// The active atomic states after it, in id order (in ``StepResults/states``).
    var statesAfter: Range<Int>
    /// The states entered or active after it, for coverage (in ``StepResults/states``).
    var statesActive: Range<Int>
}
