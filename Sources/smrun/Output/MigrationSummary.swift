import SmrunCore
import Statecraft

/// What a ``SnapshotMigration`` keeps and drops, in words: `kept state 'a' and context x, y;
/// dropped z (no longer a variable); w starts at its initial value` (`done`), or the same as
/// what `--migrate` would do; and the pending timers it drops and reschedules (`kept timer after
/// 30m of awaitingPayment as after 45m, due at 2700000 ms (in 35m)`), and the `after`s of
/// active states that start only when their state is next entered.
enum MigrationSummary {
    static func text(_ migration: SnapshotMigration, machine: CompiledMachine, done: Bool) -> String {
        let snapshot = migration.snapshot
        let state = (snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration).map { machine.stateNames[$0] }
        let context = migration.kept.isEmpty ? "" : " and context " + migration.kept.joined(separator: ", ")
        var parts = ["\(done ? "kept" : "would keep") state '\(state.joined(separator: ", "))'\(context)"]
        if !migration.forgottenHistories.isEmpty {
            parts.append("\(done ? "forgot" : "would forget") history " + migration.forgottenHistories.joined(separator: ", "))
        }
        if !migration.dropped.isEmpty {
            parts.append(
                "\(done ? "dropped" : "would drop") " + migration.dropped.map { "\($0.variable) (\($0.reason))" }.joined(separator: ", "))
        }
        if !migration.droppedTimers.isEmpty {
            parts.append(
                "\(done ? "dropped" : "would drop") timer" + (migration.droppedTimers.count == 1 ? " " : "s ")
                    + migration.droppedTimers.map { "\($0.timer) (\($0.reason))" }.joined(separator: ", "))
        }
        let now = DueTime.now(snapshot.clock, time: snapshot.time)
        for timer in migration.rescheduledTimers {
            parts.append(
                "\(done ? "kept" : "would keep") timer \(timer.timer) as \(timer.after), due "
                    + DueTime.absolute(timer.due, clock: snapshot.clock, now: now))
        }
        for after in migration.unstartedAfters {
            parts.append("\(after) has no pending timer: it \(done ? "starts" : "would start") when its state is next entered")
        }
        if !migration.initialized.isEmpty {
            let verb = done ? (migration.initialized.count == 1 ? "starts" : "start") : "would start"
            parts.append(migration.initialized.joined(separator: ", ") + " \(verb) at the initial value")
        }
        return parts.joined(separator: "; ")
    }
}
