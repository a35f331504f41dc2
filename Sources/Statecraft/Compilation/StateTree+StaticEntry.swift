// What a transition enters when that does not depend on the run: no history on the way.
extension StateTree {
    /// What taking a transition enters when that is the same in every configuration.
    struct StaticEntry {
        /// The states entered, in ascending ids (outermost first).
        var entered: [Int32]
        /// The compound states among them entered through their `initial` (SCXML's default
        /// entry, which runs their ``StateDeclaration/defaultEffects``), in ascending ids.
        var enteredByDefault: [Int32]
    }

    /// The states that taking a transition to `targets` within `domain` enters, in ascending
    /// ids (outermost first), when that is the same in every configuration: SCXML's
    /// addDescendantStatesToEnter and addAncestorStatesToEnter with default entries only.
    /// `nil` when entering meets a history pseudo-state (what it enters depends on what the
    /// history recorded) or would pass `limit` states.
    ///
    /// The runner's own entry set (ChartRunner+EntrySet.swift) computes the same for any
    /// transition at run time; a test checks the two agree.
    func staticEntrySet(targets: [Int32], domain: Int, limit: Int) -> [Int32]? {
        staticEntry(targets: targets, domain: domain, limit: limit)?.entered
    }

    /// ``staticEntrySet(targets:domain:limit:)`` with the states it enters by default.
    func staticEntry(targets: [Int32], domain: Int, limit: Int) -> StaticEntry? {
        var entered: [Int32] = []
        var byDefault: [Int32] = []
        var isStatic = true
        func meets(_ low: Int, _ high: Int) -> Bool { entered.contains { Int($0) >= low && Int($0) < high } }
        func enter(_ state: Int) {
            guard !entered.contains(Int32(state)) else { return }
            entered.append(Int32(state))
            if entered.count > limit { isStatic = false }
        }
        func addDescendants(_ state: Int) {
            guard isStatic else { return }
            guard !kinds[state].isHistory else {
                isStatic = false
                return
            }
            enter(state)
            switch kinds[state] {
            case .compound:
                if !byDefault.contains(Int32(state)) { byDefault.append(Int32(state)) }
                for target in defaultEntries[state] { addDescendants(Int(target)) }
                for target in defaultEntries[state] { addAncestors(Int(target), upTo: state) }
            case .parallel:
                for child in children[state] where !meets(Int(child), end(of: Int(child))) { addDescendants(Int(child)) }
            default:
                break
            }
        }
        func addAncestors(_ state: Int, upTo ancestor: Int) {
            var current = Int(parents[state])
            while isStatic && current != ancestor && current >= 0 {
                enter(current)
                if kinds[current] == .parallel {
                    for child in children[current] where !meets(Int(child), end(of: Int(child))) { addDescendants(Int(child)) }
                }
                current = Int(parents[current])
            }
        }
        for target in targets { addDescendants(Int(target)) }
        for target in targets { addAncestors(Int(target), upTo: domain) }
        return isStatic ? StaticEntry(entered: entered.sorted(), enteredByDefault: byDefault.sorted()) : nil
    }
}
