import Statecraft

/// The results of one step's run to completion, in buffers that a scenario reuses from step to
/// step: once they have grown, a step allocates nothing to record its results.
struct StepResults {
    private(set) var records: [StepRecord] = []
    /// The effects of every record, each record's a range.
    private(set) var effects: [Int] = []
    private(set) var transitions: [Int] = []
    private(set) var states: [Int] = []

    /// Forgets the results, keeping the buffers.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        effects.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
        states.removeAll(keepingCapacity: true)
    }

    /// Records one result; `statesActive` `nil` when they are the `statesAfter`.
    mutating func append(
        input: Int, isMain: Bool, timer: Int32, isAccepted: Bool, rejection: RejectionKind?, effects: some Sequence<Int>,
        transitions: some Sequence<Int>, statesAfter: some Sequence<Int>, statesActive: [Int]?
    ) {
        let effectsStart = self.effects.count
        self.effects.append(contentsOf: effects)
        let transitionsStart = self.transitions.count
        self.transitions.append(contentsOf: transitions)
        let afterStart = states.count
        states.append(contentsOf: statesAfter)
        let afterRange = afterStart..<states.count
        var activeRange = afterRange
        if let statesActive {
            let activeStart = states.count
            states.append(contentsOf: statesActive)
            activeRange = activeStart..<states.count
        }
        records.append(
            StepRecord(
                input: input, isMain: isMain, timer: timer, isAccepted: isAccepted, rejection: rejection,
                effects: effectsStart..<self.effects.count, transitions: transitionsStart..<self.transitions.count,
                statesAfter: afterRange, statesActive: activeRange))
    }

    /// The effects of `record`, in the order they ran.
    func effects(of record: StepRecord) -> ArraySlice<Int> { effects[record.effects] }

    /// The transitions `record` took.
    func transitions(of record: StepRecord) -> ArraySlice<Int> { transitions[record.transitions] }

    /// The active atomic states after `record`.
    func statesAfter(_ record: StepRecord) -> ArraySlice<Int> { states[record.statesAfter] }

    /// The states entered or active after `record`.
    func statesActive(_ record: StepRecord) -> ArraySlice<Int> { states[record.statesActive] }
}
