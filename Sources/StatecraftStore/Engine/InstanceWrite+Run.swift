extension InstanceWrite {
    /// What `run` writes after `previous` (the instance's row as stored; `nil` for a create):
    /// the new row at `now` on definition `fingerprint`, and the run's entries numbered on from
    /// `previous`'s version.
    package init(_ run: InstanceRun, id: InstanceID, fingerprint: String, after previous: StoredInstance?, now: Int) {
        var seq = previous?.version ?? 0
        let entries = run.entries.map { entry in
            seq += 1
            return HistoryEntry(
                id: id, seq: seq, at: entry.at, kind: entry.kind, input: entry.input, argument: entry.argument, timer: entry.timer,
                results: entry.results, stateAfter: entry.stateAfter)
        }
        let instance = StoredInstance(
            id: id, fingerprint: fingerprint, status: run.isFinal ? .final : .running, snapshot: run.document, version: seq,
            created: previous?.created ?? now, updated: now)
        self.init(
            instance: instance, isNew: previous == nil, entries: entries, activeStates: run.activeStates, timers: run.timers, snapshot: run.snapshot)
        activeStatesBefore = run.activeStatesBefore
    }

    /// Adds a later write of the same instance, so that one write stores both: the later row,
    /// every entry, and the index rows last changed.
    package mutating func append(_ later: InstanceWrite) {
        instance = later.instance
        snapshot = later.snapshot
        entries += later.entries
        // The stored rows are those before this write's change, or (when it changed none)
        // those before the later one's.
        if activeStates == nil { activeStatesBefore = later.activeStatesBefore }
        activeStates = later.activeStates ?? activeStates
        timers = later.timers ?? timers
    }
}
