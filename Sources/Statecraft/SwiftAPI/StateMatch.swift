/// The states a row leaves from: one slot, several, or those that match a predicate.
public struct StateMatch<Slot: Hashable & Sendable> {
    enum Kind {
        case slots([Slot])
        case predicate((Slot) -> Bool)
    }

    let kind: Kind

    /// Every slot of the machine for which `predicate` holds (a slot is any state the machine's
    /// rows, work states, final states or initial state name).
    public static func matching(_ predicate: @escaping (Slot) -> Bool) -> StateMatch {
        StateMatch(kind: .predicate(predicate))
    }
}
