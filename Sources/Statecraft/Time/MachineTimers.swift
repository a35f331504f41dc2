/// What a compiled machine needs to run its timers: each state's `after` transitions, the
/// synthetic input each one is taken on, and the ids that delayed sends and cancels use.
package struct MachineTimers: Sendable {
    /// One `after` transition of a state, in document order.
    package struct After: Sendable {
        /// The internal input that the transition is taken on when its timer fires.
        package let input: Int
        /// The delay in milliseconds.
        package let milliseconds: Int
    }

    /// Per state id, its `after` transitions in document order.
    package let afters: [[After]]
    /// Per state id, whether it has any `after` transition.
    package let hasAfters: [Bool]
    /// The states that have `after` transitions, in document order.
    package let timedStates: [Int]
    /// Per input id, the delay as written (`30s`) for the input of an `after` transition, else `nil`.
    package let afterTexts: [String?]
    /// The ids that `send` and `cancel` use, by timer id.
    package let timerNames: [String]

    package init(afters: [[After]], inputCount: Int, afterTexts: [Int: String], timerNames: [String]) {
        self.afters = afters
        hasAfters = afters.map { !$0.isEmpty }
        timedStates = afters.indices.filter { !afters[$0].isEmpty }
        var texts = [String?](repeating: nil, count: inputCount)
        for (input, text) in afterTexts { texts[input] = text }
        self.afterTexts = texts
        self.timerNames = timerNames
    }

    /// Whether `input` is the internal input of an `after` transition.
    package func isAfter(_ input: Int) -> Bool { input >= 0 && afterTexts[input] != nil }
}
