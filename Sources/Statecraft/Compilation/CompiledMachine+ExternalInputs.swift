extension CompiledMachine {
    /// The inputs a client may send from outside, by id in input order: not the internal ones,
    /// the `after` timers' or the done events a statechart raises itself.
    package var externalInputs: [Int] {
        let doneInputs = Set(chart?.doneInputs.filter { $0 >= 0 }.map(Int.init) ?? [])
        return inputNames.indices.filter { input in
            !inputIsInternal[input] && timers?.afterTexts[input] == nil && !doneInputs.contains(input)
        }
    }
}
