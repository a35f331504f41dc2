// A runner saved and resumed: a flat machine's state; a statechart's configuration and history
// records. (The context and the timers are the same for both: SnapshotCodec.)
extension TableRunner {
    /// What a snapshot holds beside the context: the state (no configuration or histories).
    @usableFromInline package var savedState: (state: Int, configuration: [Int], histories: [Int: [Int]]) {
        (current, [], [:])
    }

    /// Resumes from a snapshot decoded for this runner's machine, without running entry
    /// effects: its state, context, clock and pending timers (none of which fire until the
    /// clock moves, ``advance(to:into:)``).
    @usableFromInline package mutating func restore(_ snapshot: MachineSnapshot) {
        restore(state: snapshot.state, context: snapshot.context)
        if machine.hasTimers { restoreTimers(time: snapshot.time, pending: snapshot.timers.map(\.queued)) }
    }
}

extension ChartRunner {
    /// What a snapshot holds beside the context: the active atomic states (the first as the
    /// state), and what each history state recorded (by history state id; none for a parent
    /// never left).
    @usableFromInline package var savedState: (state: Int, configuration: [Int], histories: [Int: [Int]]) {
        var histories: [Int: [Int]] = [:]
        let tree = chart.tree
        for state in 0..<tree.count where tree.historySlots[state] >= 0 {
            let slot = Int(tree.historySlots[state])
            guard historyCounts[slot] >= 0 else { continue }
            let start = historyStarts[slot]
            histories[state] = (0..<Int(historyCounts[slot])).map { Int(historyRecords[start + $0]) }
        }
        let configuration = activeAtomicStates
        return (configuration[0], configuration, histories)
    }

    /// Resumes from a snapshot decoded for this runner's machine (``SnapshotCodec`` checks its
    /// configuration, history records and timers), without running entry effects; its
    /// pending timers fire when the clock moves (``advance(to:into:)``).
    @usableFromInline package mutating func restore(_ snapshot: MachineSnapshot) {
        let tree = chart.tree
        guard let restored = tree.configuration(ofAtomicStates: snapshot.configuration).configuration else {
            preconditionFailure("a snapshot's configuration is checked when it is decoded")
        }
        configuration = restored
        previousConfiguration = restored
        for slot in historyCounts.indices { historyCounts[slot] = -1 }
        for (history, states) in snapshot.histories {
            let slot = Int(tree.historySlots[history])
            for (offset, state) in states.enumerated() { historyRecords[historyStarts[slot] + offset] = Int32(state) }
            historyCounts[slot] = Int32(states.count)
        }
        for (slot, value) in snapshot.context.enumerated() { values[slot] = value }
        updateActivity()
        isFinished = tree.topLevel.contains { tree.isFinal[Int($0)] && isActive(Int($0)) }
        contextVersion &+= 1
        if machine.hasTimers { restoreTimers(time: snapshot.time, pending: snapshot.timers.map(\.queued)) }
    }
}
