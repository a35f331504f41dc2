/// Loops that eventless transitions can go around: after one is taken, the states it enters
/// (its targets, their ancestors and what entering them enters by default) are the sources of
/// the next; one without targets stays, and can follow itself. The compiler refuses a loop of
/// unguarded ones (`eventless-cycle`, an error); the linter warns about a loop of guarded ones
/// that can all hold at once (``MachineLinter``).
package enum EventlessCycles {
    /// Loops among `included` (indices into `transitions`, eventless ones), each as its
    /// transitions in the order they follow one another: one per back edge of a depth-first
    /// search, in the order found (not every elementary loop: loops that share transitions may
    /// be found as one). `stop` ends the search early when it returns true for a loop.
    package static func find(
        in tree: StateTree, _ transitions: [StateChart.Transition], among included: [Int], until stop: ([Int]) -> Bool = { _ in false }
    ) -> [[Int]] {
        guard !included.isEmpty else { return [] }
        var bySource: [Int32: [Int]] = [:]
        for index in included { bySource[transitions[index].source, default: []].append(index) }
        // What may be taken right after each one: the included transitions of what it enters.
        func successors(_ index: Int) -> [Int] {
            guard !transitions[index].targets.isEmpty else { return [index] }
            return statesEntered(by: transitions[index], in: tree).flatMap { bySource[Int32($0)] ?? [] }
        }
        var cycles: [[Int]] = []
        var colour = [Int: Int]()  // 1: on the path, 2: done
        for start in included where colour[start] == nil {
            var path: [(node: Int, next: [Int], position: Int)] = [(start, successors(start), 0)]
            colour[start] = 1
            while !path.isEmpty {
                let top = path.count - 1
                if path[top].position == path[top].next.count {
                    colour[path[top].node] = 2
                    path.removeLast()
                    continue
                }
                let next = path[top].next[path[top].position]
                path[top].position += 1
                if colour[next] == 1 {
                    let cycle = path.drop { $0.node != next }.map(\.node)
                    cycles.append(cycle)
                    if stop(cycle) { return cycles }
                }
                if colour[next] == nil {
                    colour[next] = 1
                    path.append((next, successors(next), 0))
                }
            }
        }
        return cycles
    }

    /// The states active after `transition` that it may have entered, in ascending ids: its
    /// targets, their ancestors, and what entering them enters by default (initial children,
    /// every region of a parallel state).
    package static func statesEntered(by transition: StateChart.Transition, in tree: StateTree) -> [Int] {
        var entered: Set<Int> = []
        var pending = transition.targets.map { Int($0) }
        while let state = pending.popLast() {
            guard entered.insert(state).inserted else { continue }
            pending.append(contentsOf: tree.defaultEntries[state].map { Int($0) })
            if tree.kinds[state] == .parallel { pending.append(contentsOf: tree.children[state].map { Int($0) }) }
            var parent = Int(tree.parents[state])
            while parent >= 0 {
                entered.insert(parent)
                parent = Int(tree.parents[parent])
            }
        }
        return entered.sorted()
    }
}
