/// A statechart's states as a tree, compiled once (a class: the runner reads it in every step
/// without copying its arrays): ids are in document order (the file's
/// states flattened depth first, a parent before its children), so a state's descendants are
/// the ids right after it, up to ``end(of:)``, and exiting innermost first is descending ids.
package final class StateTree: Sendable {
    /// What a state is in the tree.
    package enum Kind: UInt8, Sendable {
        /// No children (a final state is atomic too; see ``isFinal``).
        case atomic
        /// Children of which one is active.
        case compound
        /// Children (regions) that are all active together.
        case parallel
        /// A history pseudo-state: remembers the parent's active child (shallow) or active
        /// atomic descendants (deep); never active itself.
        case shallowHistory, deepHistory
    }

    package let kinds: [Kind]
    package let isFinal: [Bool]
    /// Each state's parent, or -1 at the top level.
    package let parents: [Int32]
    /// One past each state's last descendant: its descendants are `id + 1 ..< end`.
    let ends: [Int32]
    /// Each state's depth: 0 at the top level.
    package let depths: [Int32]
    /// The children that are states (not history), in document order; the top level's under
    /// ``topLevel``.
    package let children: [[Int32]]
    package let topLevel: [Int32]
    /// The history pseudo-states among each state's children.
    package let histories: [[Int32]]
    /// What entering each compound state enters: its `initial` (descendants, one per region)
    /// or its first child. What a history leads to before its parent was left: its `default`,
    /// else its parent's initial. Empty for the others.
    package let defaultEntries: [[Int32]]
    /// The configuration the machine starts in is entered from the machine's `initial`.
    package let initial: [Int32]
    /// Per history pseudo-state, its slot in the history records (``historyCapacities``);
    /// -1 for the other states.
    package let historySlots: [Int32]
    /// Per history slot: the most states it may record (the parent's children for a shallow
    /// history, its atomic descendants for a deep one).
    package let historyCapacities: [Int32]
    /// The atomic states (final ones included), one bit per state: a configuration ANDed with
    /// it gives the active atomic states.
    package let atomicMask: [UInt64]

    package var count: Int { kinds.count }
    package var wordCount: Int { atomicMask.count }

    init(
        kinds: [Kind], isFinal: [Bool], parents: [Int], initialOf: [[Int]], historyDefaults: [[Int]], initial: [Int]
    ) {
        let count = kinds.count
        self.kinds = kinds
        self.isFinal = isFinal
        self.parents = parents.map { Int32($0) }
        var children = [[Int32]](repeating: [], count: count)
        var histories = [[Int32]](repeating: [], count: count)
        var topLevel: [Int32] = []
        var depths = [Int32](repeating: 0, count: count)
        for state in 0..<count {
            let parent = parents[state]
            if parent < 0 {
                if !kinds[state].isHistory { topLevel.append(Int32(state)) }
                continue
            }
            depths[state] = depths[parent] + 1
            if kinds[state].isHistory { histories[parent].append(Int32(state)) } else { children[parent].append(Int32(state)) }
        }
        // Document order puts every descendant right after its ancestor: a state's range ends
        // where the next state at its depth or shallower starts.
        var ends = [Int32](repeating: Int32(count), count: count)
        var open: [Int] = []
        for state in 0..<count {
            while let last = open.last, depths[last] >= depths[state] {
                ends[last] = Int32(state)
                open.removeLast()
            }
            open.append(state)
        }
        self.ends = ends
        self.depths = depths
        self.children = children
        self.histories = histories
        self.topLevel = topLevel
        var defaultEntries = [[Int32]](repeating: [], count: count)
        var historySlots = [Int32](repeating: -1, count: count)
        var capacities: [Int32] = []
        for state in 0..<count {
            switch kinds[state] {
            case .compound:
                defaultEntries[state] = initialOf[state].isEmpty ? [children[state][0]] : initialOf[state].map { Int32($0) }
            case .shallowHistory, .deepHistory:
                historySlots[state] = Int32(capacities.count)
                let parent = parents[state]
                if kinds[state] == .shallowHistory {
                    capacities.append(Int32(children[parent].count))
                } else {
                    capacities.append(Int32((parent + 1..<Int(ends[parent])).count { kinds[$0] == .atomic }))
                }
            default:
                break
            }
        }
        for state in 0..<count where kinds[state].isHistory {
            let parent = parents[state]
            if !historyDefaults[state].isEmpty {
                defaultEntries[state] = historyDefaults[state].map { Int32($0) }
            } else if kinds[parent] == .parallel || defaultEntries[parent].contains(where: { kinds[Int($0)].isHistory }) {
                // A parent whose initial is a history state enters through it: without a
                // default of its own, the history leads to the parent's first child.
                defaultEntries[state] = kinds[parent] == .parallel ? children[parent] : [children[parent][0]]
            } else {
                defaultEntries[state] = defaultEntries[parent]
            }
        }
        self.defaultEntries = defaultEntries
        self.historySlots = historySlots
        self.historyCapacities = capacities
        self.initial = initial.map { Int32($0) }
        var mask = [UInt64](repeating: 0, count: (count + 63) / 64)
        for state in 0..<count where kinds[state] == .atomic { mask[state >> 6] |= 1 << UInt64(state & 63) }
        atomicMask = mask
    }

    /// One past the last descendant of `state`; for -1 (the whole machine), the state count.
    @inline(__always)
    package func end(of state: Int) -> Int { state < 0 ? count : Int(ends[state]) }

    /// Whether `state` is a proper descendant of `ancestor` (-1: the whole machine).
    @inline(__always)
    package func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        state > ancestor && state < end(of: ancestor)
    }

    /// The least compound (not parallel) state that is a proper ancestor of every state in
    /// `states`, or -1 for the machine itself (SCXML's LCCA, the domain of a transition).
    package func leastCommonCompoundAncestor(_ states: [Int]) -> Int {
        guard let first = states.first else { return -1 }
        var ancestor = parents[first] >= 0 ? Int(parents[first]) : -1
        while ancestor >= 0 {
            if kinds[ancestor] == .compound && states.allSatisfy({ isDescendant($0, of: ancestor) }) { return ancestor }
            ancestor = Int(parents[ancestor])
        }
        return -1
    }

    /// The least common ancestor of two states, compound or parallel (-1: the machine).
    package func leastCommonAncestor(_ a: Int, _ b: Int) -> Int {
        var ancestor = Int(parents[a])
        while ancestor >= 0 && !isDescendant(b, of: ancestor) { ancestor = Int(parents[ancestor]) }
        return ancestor
    }

    /// The whole configuration (as a bitset) whose atomic states are `atomic`: the atomic states
    /// and their ancestors; or why `atomic` is no configuration the machine can be in (a state
    /// that is not atomic, two children of one compound state, a region of a parallel state
    /// without an active state, two top-level states).
    package func configuration(ofAtomicStates atomic: [Int]) -> (configuration: [UInt64]?, problem: String?) {
        var set = [UInt64](repeating: 0, count: wordCount)
        func has(_ state: Int) -> Bool { set[state >> 6] & (1 << UInt64(state & 63)) != 0 }
        for state in atomic {
            guard kinds[state] == .atomic else { return (nil, "holds a state that is not atomic") }
            var current = state
            while current >= 0 {
                set[current >> 6] |= 1 << UInt64(current & 63)
                current = Int(parents[current])
            }
        }
        guard topLevel.count(where: { has(Int($0)) }) == 1 else { return (nil, "holds no or several top-level states") }
        for state in 0..<count where has(state) {
            let active = children[state].count { has(Int($0)) }
            if kinds[state] == .compound && active != 1 { return (nil, "holds \(active) children of a compound state") }
            if kinds[state] == .parallel && active != children[state].count { return (nil, "leaves a region of a parallel state inactive") }
        }
        return (set, nil)
    }

    /// Why `states` is no record that `history` can hold, or `nil`: what leaving its parent
    /// from some configuration would record (its active child, or each region, for a shallow
    /// history; its active atomic descendants for a deep one), in document order.
    package func historyRecordProblem(_ history: Int, _ states: [Int]) -> String? {
        let parent = Int(parents[history])
        guard states == states.sorted(), Set(states).count == states.count else { return "is not in document order without repeats" }
        var set = [UInt64](repeating: 0, count: wordCount)
        func has(_ state: Int) -> Bool { set[state >> 6] & (1 << UInt64(state & 63)) != 0 }
        for state in states {
            if kinds[history] == .shallowHistory {
                guard parents[state] == parent, !kinds[state].isHistory else { return "holds a state that is not a child of the history's parent" }
            } else {
                guard kinds[state] == .atomic, isDescendant(state, of: parent) else { return "holds a state that is not an atomic state inside the history's parent" }
            }
            var current = state
            while current != parent {
                set[current >> 6] |= 1 << UInt64(current & 63)
                current = Int(parents[current])
            }
        }
        set[parent >> 6] |= 1 << UInt64(parent & 63)
        let checked = kinds[history] == .shallowHistory ? parent..<parent + 1 : parent..<end(of: parent)
        for state in checked where has(state) {
            let active = children[state].count { has(Int($0)) }
            if kinds[state] == .compound && active != 1 { return "holds \(active) children of a compound state" }
            if kinds[state] == .parallel && active != children[state].count { return "leaves a region of a parallel state out" }
        }
        return nil
    }

    /// The region of a parallel state that holds `state`, or `nil` when `state` is in none.
    package func region(of state: Int) -> Int? {
        var child = state
        var parent = Int(parents[state])
        while parent >= 0 {
            if kinds[parent] == .parallel { return child }
            child = parent
            parent = Int(parents[parent])
        }
        return nil
    }
}

extension StateTree.Kind {
    package var isHistory: Bool { self == .shallowHistory || self == .deepHistory }
}
