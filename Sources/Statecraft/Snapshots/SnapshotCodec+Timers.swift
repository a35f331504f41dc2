// The pending timers in a snapshot (docs/snapshots.md): written by name, so that a document
// says what each timer fires, and resolved against the machine when read.
extension SnapshotCodec {
    // MARK: - Writing

    /// `"timers"`' array: one object per line, in the order they would fire.
    func appendTimers(_ timers: [SnapshotTimer], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, timer) in timers.enumerated() {
            out.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
            appendTimer(timer, due: nil, compact: false, to: &out)
        }
        out.append(contentsOf: (timers.isEmpty ? "]" : "\n  ]").utf8)
    }

    /// One pending timer as the snapshot lists it: `{"due": 30000, "after": "30s", "state":
    /// "red"}`, its due time in milliseconds or, when `due` is given, as that JSON string (a
    /// time on the real clock, as the instances' API shows it); `compact` leaves out the blanks.
    package func appendTimer(_ timer: SnapshotTimer, due: String?, compact: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        func member(_ key: String, _ first: Bool = false) {
            if !first { out.append(contentsOf: (compact ? "," : ", ").utf8) }
            JSONText.appendQuoted(key.utf8, to: &out)
            out.append(contentsOf: (compact ? ":" : ": ").utf8)
        }
        func string(_ s: String) { JSONText.appendQuoted(s.utf8, to: &out) }
        member("due", true)
        if let due { string(due) } else { out.append(contentsOf: String(timer.due).utf8) }
        if timer.isAfter {
            let (duration, nth) = afterName(of: timer)
            member("after")
            string(duration)
            member("state")
            string(machine.stateNames[timer.state])
            if nth > 1 {
                member("nth")
                out.append(contentsOf: String(nth).utf8)
            }
        } else {
            member("input")
            string(machine.inputNames[timer.input])
            if machine.argumentTypes[timer.input] != nil || timer.argument.type == .record {
                member("arg")
                Self.append(timer.argument, to: &out)
            }
            if timer.sentBy >= 0 {
                member("sent_by")
                string(machine.effectNames[timer.sentBy])
            }
            if timer.timer >= 0, let names = machine.timers?.timerNames {
                member("timer")
                string(names[timer.timer])
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// An `after` timer's duration as written, and which of its state's `after`s of that
    /// duration it is (from 1, in document order).
    private func afterName(of timer: SnapshotTimer) -> (duration: String, nth: Int) {
        guard let info = machine.timers, let duration = info.afterTexts[timer.input] else {
            preconditionFailure("an after timer's input is an after transition's")
        }
        let same = info.afters[timer.state].filter { info.afterTexts[$0.input] == duration }
        return (duration, (same.firstIndex { $0.input == timer.input } ?? 0) + 1)
    }

    // MARK: - Reading

    /// The saved timers resolved against the machine, in the file's order. `lenient` (a
    /// migration) drops each timer that names what the machine no longer has, or an `after` of
    /// a state that is not active, and returns it with the reason, instead of refusing the
    /// snapshot.
    func savedTimers(_ saved: SavedSnapshot, configuration: [Int], lenient: Bool = false) throws(SnapshotError) -> (
        timers: [SnapshotTimer], dropped: [SnapshotMigration.DroppedTimer]
    ) {
        try savedTimers(saved.timers, clock: saved.clock, time: saved.time, configuration: configuration, lenient: lenient)
    }

    /// The saved `timers`, on `clock` at `time`, resolved against the machine, as
    /// ``savedTimers(_:configuration:lenient:)`` does.
    func savedTimers(
        _ savedTimers: [SavedTimer], clock: MachineSnapshot.Clock, time: Int, configuration: [Int], lenient: Bool = false
    ) throws(SnapshotError) -> (timers: [SnapshotTimer], dropped: [SnapshotMigration.DroppedTimer]) {
        var timers: [SnapshotTimer] = []
        var dropped: [SnapshotMigration.DroppedTimer] = []
        let active = activeStates(configuration)
        var started = Set<Int>()  // the after inputs of each state already restored, as state * inputs + input
        for (position, entry) in savedTimers.enumerated() {
            do throws(SnapshotError) {
                let timer = try resolve(entry, active: active)
                if timer.isAfter {
                    let key = timer.state * machine.inputCount + timer.input
                    guard started.insert(key).inserted else {
                        throw SnapshotError(.invalidTimer, "timer \(position + 1) in \"timers\", \(entry.label), is there twice")
                    }
                }
                if clock == .virtual && timer.due < time {
                    throw SnapshotError(
                        .invalidTimer, "timer \(position + 1) in \"timers\", \(entry.label), is due at \(timer.due), before \"time\" \(time)")
                }
                timers.append(timer)
            } catch {
                guard lenient else { throw error }
                dropped.append(.init(timer: entry.label, reason: error.reason))
            }
        }
        return (timers, dropped)
    }

    /// The saved timers carried over to an edited machine (`--migrate`, docs/snapshots.md):
    /// each timer that still resolves is kept as saved; a state's `after` timers that no longer
    /// do (their duration changed, or their place among the state's `after`s), when the state
    /// is still active and has `after` transitions, are rescheduled: the state's k-th such
    /// timer, in the file's order, becomes its k-th `after` that no kept timer has, in document
    /// order, entered when the old duration says (its due time less the old duration) and due
    /// the new duration after that, or at `now` if that has passed. The others are dropped,
    /// with the reason. `now` is the snapshot's `"time"` on the virtual clock, and the time
    /// given (else the entry time plus the new duration) on the real clock.
    func migratedTimers(_ saved: SavedSnapshot, configuration: [Int], now: Int?) throws(SnapshotError) -> (
        timers: [SnapshotTimer], dropped: [SnapshotMigration.DroppedTimer], rescheduled: [SnapshotMigration.RescheduledTimer],
        unstarted: [String]
    ) {
        let active = activeStates(configuration)
        var kept: [SavedTimer] = []
        // The after timers to reschedule, by state, in the file's order.
        var unmatched: [(state: Int, entries: [SavedTimer])] = []
        var dropped: [SnapshotMigration.DroppedTimer] = []
        for entry in saved.timers {
            if case .after(_, let stateName, _) = entry.kind, let info = machine.timers,
                let state = machine.stateNames.firstIndex(of: stateName), active.contains(state), !info.afters[state].isEmpty,
                (try? resolve(entry, active: active)) == nil
            {
                if let index = unmatched.firstIndex(where: { $0.state == state }) {
                    unmatched[index].entries.append(entry)
                } else {
                    unmatched.append((state, [entry]))
                }
            } else {
                kept.append(entry)
            }
        }
        let (keptTimers, keptDropped) = try savedTimers(
            kept, clock: saved.clock, time: saved.time, configuration: configuration, lenient: true)
        dropped += keptDropped
        var timers = keptTimers
        var rescheduled: [SnapshotMigration.RescheduledTimer] = []
        let now = saved.clock == .virtual ? saved.time : now
        for (state, entries) in unmatched {
            let free = machine.timers!.afters[state].filter { after in !timers.contains { $0.state == state && $0.input == after.input } }
            for (k, entry) in entries.enumerated() {
                guard case .after(let duration, let stateName, _) = entry.kind else { continue }
                guard k < free.count else {
                    let count = machine.timers!.afters[state].count
                    dropped.append(
                        .init(
                            timer: entry.label,
                            reason: "state '\(stateName)' has \(count) 'after' transition\(count == 1 ? "" : "s"), each with a timer already"))
                    continue
                }
                let after = free[k]
                let old = (try? Delay.milliseconds(duration.utf8)) ?? 0
                let entered = entry.due - old
                var due = entered + after.milliseconds
                if let now, due < now { due = now }
                timers.append(SnapshotTimer(due: due, state: state, input: after.input, sentBy: -1))
                let (text, nth) = afterName(of: timers.last!)
                rescheduled.append(
                    .init(timer: entry.label, after: "after \(text)\(nth > 1 ? " #\(nth)" : "")", state: stateName, due: due))
            }
        }
        // Stable: timers due at one instant keep the order they were started in.
        timers = timers.enumerated().sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.map(\.element)
        var unstarted: [String] = []
        if let info = machine.timers {
            for state in info.timedStates where active.contains(state) {
                for after in info.afters[state] where !timers.contains(where: { $0.state == state && $0.input == after.input }) {
                    let (text, nth) = afterName(of: SnapshotTimer(due: 0, state: state, input: after.input, sentBy: -1))
                    unstarted.append("after \(text)\(nth > 1 ? " #\(nth)" : "") of \(machine.stateNames[state])")
                }
            }
        }
        return (timers, dropped, rescheduled, unstarted)
    }

    /// The states active in `configuration`: its atomic states and their ancestors.
    private func activeStates(_ configuration: [Int]) -> Set<Int> {
        var active = Set<Int>()
        let parents = machine.chart?.tree.parents
        for atomic in configuration {
            var state = atomic
            while state >= 0, active.insert(state).inserted {
                state = parents.map { Int($0[state]) } ?? -1
            }
        }
        return active
    }

    /// One saved timer as the machine's timer; throws ``SnapshotError/Kind/invalidTimer`` with
    /// a ``SnapshotError/reason`` when it names what the machine does not have.
    private func resolve(_ entry: SavedTimer, active: Set<Int>) throws(SnapshotError) -> SnapshotTimer {
        func refusal(_ reason: String) -> SnapshotError {
            SnapshotError(.invalidTimer, "the pending timer \(entry.label) \(reason)", reason: reason)
        }
        guard machine.hasTimers else { throw refusal("is pending, and machine '\(machine.name)' has no timers") }
        switch entry.kind {
        case .after(let duration, let stateName, let nth):
            guard let state = machine.stateNames.firstIndex(of: stateName) else {
                throw refusal("belongs to state '\(Self.escaped(stateName))', which machine '\(machine.name)' does not have")
            }
            let afters = machine.timers?.afters[state].filter { machine.timers?.afterTexts[$0.input] == duration } ?? []
            guard nth <= afters.count else {
                throw refusal(
                    afters.isEmpty
                        ? "names an 'after: \(Self.escaped(duration))' transition from '\(stateName)', which machine '\(machine.name)' does not have"
                        : "names 'after: \(Self.escaped(duration))' transition \(nth) from '\(stateName)', but there are \(afters.count)")
            }
            guard active.contains(state) else { throw refusal("belongs to state '\(stateName)', which is not active") }
            return SnapshotTimer(due: entry.due, state: state, input: afters[nth - 1].input, sentBy: -1)
        case .send(let inputName, let argumentJSON, let sentByName, let timerName):
            guard let input = machine.inputNames.firstIndex(of: inputName), machine.timers?.isAfter(input) != true else {
                throw refusal("sends '\(Self.escaped(inputName))', which is not an input of machine '\(machine.name)'")
            }
            var argument = Value.null
            switch (machine.argumentTypes[input], argumentJSON) {
            case (let type?, let json?):
                do {
                    argument = try Self.value(json, of: ExpressionType(type), variable: "")
                } catch {
                    throw refusal("has the argument \(json.jsonText.prefix(40)), not of type \(type) as input '\(inputName)' takes")
                }
            case (let type?, nil): throw refusal("has no \"arg\", and input '\(inputName)' takes an argument of type \(type)")
            case (nil, .object(let members)?):
                // An input's data with named fields, given by the send's `data`.
                guard let data = Self.record(members) else {
                    throw refusal("has the data \(argumentJSON!.jsonText.prefix(40)), whose fields are not all ints, doubles, bools or strings")
                }
                argument = data
            case (nil, _?): throw refusal("has an \"arg\", and input '\(inputName)' takes none")
            case (nil, nil): break
            }
            guard let sentByName else { throw refusal("has no \"sent_by\": a delayed send is sent by an effect") }
            guard let sentBy = machine.effectNames.firstIndex(of: sentByName) else {
                throw refusal("was sent by effect '\(Self.escaped(sentByName))', which machine '\(machine.name)' does not have")
            }
            var timer = -1
            if let timerName {
                guard let id = machine.timers?.timerNames.firstIndex(of: timerName) else {
                    throw refusal("has the id '\(Self.escaped(timerName))', which no delayed send of machine '\(machine.name)' uses")
                }
                timer = id
            }
            let sends = machine.effects[sentBy].sentInputs
            guard sends.contains(where: { $0.isDelayed && $0.input == input && $0.timer == timer }) else {
                let id = timerName.map { " with id '\(Self.escaped($0))'" } ?? " without an id"
                throw refusal("was sent by effect '\(sentByName)', which has no delayed send of '\(inputName)'\(id)")
            }
            return SnapshotTimer(due: entry.due, state: -1, input: input, argument: argument, sentBy: sentBy, timer: timer)
        }
    }
}
