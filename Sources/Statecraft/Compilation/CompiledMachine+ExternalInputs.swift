extension CompiledMachine {
    /// The inputs a client may send from outside, by id in input order: not the internal ones
    /// (the `after` timers' among them), nor a statechart's done events (``isDoneEvent``).
    package var externalInputs: [Int] {
        let isDoneEvent = self.isDoneEvent
        return inputNames.indices.filter { input in
            !inputIsInternal[input] && timers?.afterTexts[input] == nil && !isDoneEvent(inputNames[input])
        }
    }

    /// Whether an input named `name` is one of the done events `done.state.NAME` of a
    /// statechart's states, which the machine raises itself (whether or not a transition takes
    /// it); a flat machine raises none.
    package var isDoneEvent: (String) -> Bool {
        guard chart != nil else { return { _ in false } }
        let states = Set(stateNames)
        let prefix = "done.state."
        return { name in name.hasPrefix(prefix) && states.contains(String(name.dropFirst(prefix.count))) }
    }
}
