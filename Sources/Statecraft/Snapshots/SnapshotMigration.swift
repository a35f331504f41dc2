/// What carrying a snapshot over to an edited definition of its machine keeps and drops
/// (``SnapshotCodec/migrate(_:now:)``, `smrun --state FILE --migrate`).
package struct SnapshotMigration: Sendable {
    /// A saved context value that did not carry over, and why.
    package struct Dropped: Hashable, Sendable {
        /// The variable's name.
        package let variable: String
        /// Why: it is no longer a variable of the machine, or its value is not of the type the
        /// variable has now.
        package let reason: String
    }

    /// The snapshot to resume from: the saved state, the saved values that still fit, and the
    /// initial value of every other variable.
    package let snapshot: MachineSnapshot
    /// The variables whose saved value was kept, in the machine's order.
    package let kept: [String]
    /// The saved values that were dropped, in the file's order.
    package let dropped: [Dropped]
    /// The machine's variables that start at their initial value, having no saved value that
    /// fits, in the machine's order.
    package let initialized: [String]
    /// A statechart's history states whose saved record no longer fits the machine, forgotten
    /// (as if their parent had never been left), in the file's order.
    package let forgottenHistories: [String]
    /// Whether the snapshot was already one of this very definition (nothing was migrated).
    package let wasCurrent: Bool
    /// A saved pending timer that did not carry over, and why.
    package struct DroppedTimer: Hashable, Sendable {
        /// The timer in words: `after 30s of red`, `cross (sent by requestCrossing, timer crossing)`.
        package let timer: String
        /// Why: it names an `after` transition, input, effect or send id the machine no longer
        /// has, or its argument no longer fits its input.
        package let reason: String
    }
    /// The saved pending timers that were dropped, in the file's order (the others are kept).
    package let droppedTimers: [DroppedTimer]
    /// A saved `after` timer carried over to another `after` of its state (its duration
    /// changed): entered when the saved due time less the old duration says, due the new
    /// duration after that, or at once if that has passed.
    package struct RescheduledTimer: Hashable, Sendable {
        /// The timer as saved, in words: `after 30m of awaitingPayment`.
        package let timer: String
        /// The `after` it is now, in words: `after 45m` (`after 45m #2` for the second of that
        /// duration).
        package let after: String
        /// The state it belongs to.
        package let state: String
        /// Its new due time, in milliseconds on the snapshot's clock.
        package let due: Int
    }
    /// The saved `after` timers rescheduled, by state in the file's order.
    package let rescheduledTimers: [RescheduledTimer]
    /// The `after` transitions of active states that have no pending timer after the
    /// migration, in words (`after 45m of shipping`): each starts when its state is next
    /// entered.
    package let unstartedAfters: [String]
}

extension SnapshotCodec {
    /// Reads a snapshot saved by this machine or by an earlier definition of it (same name,
    /// another fingerprint), keeping its state and the context values whose variables still
    /// exist with the same type; the other variables start at their initial values. A
    /// statechart keeps its configuration when it is still one the machine can be in, and each
    /// history record that still fits; the others are forgotten. Each pending timer is kept
    /// when what it names (its `after` transition and state, or its input, argument type,
    /// effect and id) is still the machine's; an `after` timer of an active state whose `after`
    /// changed is rescheduled (``SnapshotMigration/rescheduledTimers``); the others are dropped.
    ///
    /// - Parameter now: on the real clock, the time now, in milliseconds since the Unix epoch:
    ///   a rescheduled timer is due no earlier (without it, a timer whose new due time has
    ///   passed keeps it, and fires as soon as a run resumes). Unused on the virtual clock,
    ///   whose time is the snapshot's.
    /// - Parameter clock: the clock of a snapshot that records none (a machine without timers
    ///   saves no clock): the store's, for the instances of `smrun serve`. Without it, such a
    ///   snapshot is on the virtual clock, as `--state` files are.
    /// - Throws: ``SnapshotError`` when the document is not a snapshot (as ``decode(_:)``), when
    ///   it belongs to a machine of another name (``SnapshotError/Kind/differentMachine``), or
    ///   when its state (or configuration) is no longer one of the machine's
    ///   (``SnapshotError/Kind/unknownState``, naming it).
    package func migrate(_ bytes: [UInt8], now: Int? = nil, clock: MachineSnapshot.Clock? = nil) throws(SnapshotError) -> SnapshotMigration {
        let saved = try SavedSnapshot.read(bytes)
        let clock = saved.hasClock ? saved.clock : clock ?? saved.clock
        if saved.fingerprint == fingerprint.text, let current = try? check(saved) {
            return SnapshotMigration(
                snapshot: current, kept: machine.variableNames, dropped: [], initialized: [], forgottenHistories: [], wasCurrent: true,
                droppedTimers: [], rescheduledTimers: [], unstartedAfters: [])
        }
        guard saved.machineName == machine.name else {
            throw SnapshotError(
                .differentMachine,
                "the snapshot belongs to machine '\(Self.escaped(saved.machineName))', not to '\(machine.name)'; only a snapshot of an earlier definition of the same machine can be migrated")
        }
        let configuration = try savedConfiguration(saved, migrating: true)
        let (histories, forgottenHistories) = try savedHistories(saved, lenient: true)
        var context = machine.initialContext
        var kept: [String] = []
        var dropped: [SnapshotMigration.Dropped] = []
        var taken = Set<Int>()
        for (name, json) in saved.context {
            guard let slot = machine.variableNames.firstIndex(of: name), !taken.contains(slot) else {
                dropped.append(.init(variable: name, reason: "no longer a variable"))
                continue
            }
            let type = machine.variableTypes[slot]
            do {
                context[slot] = try Self.value(json, of: type, variable: name)
                taken.insert(slot)
            } catch {
                dropped.append(.init(variable: name, reason: "now \(type == .null ? "always null" : "of type \(type)"), and the saved value is \(json.jsonText.count > 40 ? json.kind : json.jsonText)"))
            }
        }
        for slot in machine.variableNames.indices where taken.contains(slot) { kept.append(machine.variableNames[slot]) }
        let initialized = machine.variableNames.indices.filter { !taken.contains($0) }.map { machine.variableNames[$0] }
        let (timers, droppedTimers, rescheduled, unstarted) = try migratedTimers(saved, configuration: configuration, now: now)
        return SnapshotMigration(
            snapshot: MachineSnapshot(
                machineName: machine.name, fingerprint: fingerprint, state: configuration[0], context: context,
                configuration: machine.isStatechart ? configuration : [], histories: histories, clock: clock, time: saved.time,
                timers: timers),
            kept: kept, dropped: dropped, initialized: initialized, forgottenHistories: forgottenHistories, wasCurrent: false,
            droppedTimers: droppedTimers, rescheduledTimers: rescheduled, unstartedAfters: unstarted)
    }
}
