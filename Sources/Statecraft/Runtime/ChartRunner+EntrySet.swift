// The entry set (SCXML's addDescendantStatesToEnter and addAncestorStatesToEnter): what a step
// enters, default and history entries included.
extension ChartRunner {
    mutating func addDescendants(_ state: Int) {
        let tree = chart.tree
        let slot = Int(tree.historySlots[state])
        if slot >= 0 {
            let parent = Int(tree.parents[state])
            if historyCounts[slot] >= 0 {
                let start = historyStarts[slot]
                for offset in 0..<Int(historyCounts[slot]) { addDescendants(Int(historyRecords[start + offset])) }
                for offset in 0..<Int(historyCounts[slot]) { addAncestors(Int(historyRecords[start + offset]), upTo: parent) }
            } else {
                if !chart.defaultEffects.isEmpty { Self.insert(state, into: &defaultEntrySet) }
                for target in tree.defaultEntries[state] { addDescendants(Int(target)) }
                for target in tree.defaultEntries[state] { addAncestors(Int(target), upTo: parent) }
            }
            return
        }
        Self.insert(state, into: &entrySet)
        switch tree.kinds[state] {
        case .compound:
            if !chart.defaultEffects.isEmpty { Self.insert(state, into: &defaultEntrySet) }
            for target in tree.defaultEntries[state] { addDescendants(Int(target)) }
            for target in tree.defaultEntries[state] { addAncestors(Int(target), upTo: state) }
        case .parallel:
            for child in tree.children[state] where !Self.intersects(entrySet, Int(child), tree.end(of: Int(child))) {
                addDescendants(Int(child))
            }
        default:
            break
        }
    }

    mutating func addAncestors(_ state: Int, upTo ancestor: Int) {
        let tree = chart.tree
        var current = Int(tree.parents[state])
        while current != ancestor && current >= 0 {
            Self.insert(current, into: &entrySet)
            if tree.kinds[current] == .parallel {
                for child in tree.children[current] where !Self.intersects(entrySet, Int(child), tree.end(of: Int(child))) {
                    addDescendants(Int(child))
                }
            }
            current = Int(tree.parents[current])
        }
    }
}
