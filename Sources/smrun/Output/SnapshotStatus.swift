import SmrunCore
import Statecraft

/// What `smrun status` shows about a state file: the saved state, context and pending queue,
/// and, given a machine, whether the snapshot resumes it and what `--migrate` would do if not.
struct SnapshotStatus {
    /// Whether the snapshot resumes the machine given, and if not, why and what `--migrate`
    /// would make of it.
    enum Match {
        case matches
        case differs(reason: String, migration: Result<SnapshotMigration, SnapshotError>)
    }

    var file: String
    var saved: SavedSnapshot
    /// The machine file given and its machine, with the answer; `nil` without one.
    var machine: (file: String, machine: CompiledMachine, match: Match)?

    /// Checks `saved` against `machine`.
    static func match(_ saved: SavedSnapshot, bytes: [UInt8], machine: CompiledMachine) -> Match {
        let codec = SnapshotCodec(machine)
        do {
            _ = try codec.check(saved)
            return .matches
        } catch {
            return .differs(
                reason: error.message,
                migration: Result { () throws(SnapshotError) in try codec.migrate(bytes, now: saved.clock == .real ? WallClock.now() : nil) })
        }
    }

    /// A JSON array of names.
    private static func names(_ list: [String]) -> String { "[" + list.map(JSONText.quoted).joined(separator: ",") + "]" }

    static let pendingNote = "none (a snapshot is saved between inputs, when nothing is queued)"

    var text: String {
        var lines = [
            "state file: \(file)",
            "machine: \(JSONText.escapingControls(saved.machineName))",
            "fingerprint: \(JSONText.escapingControls(saved.fingerprint))",
            "state: \(JSONText.escapingControls(saved.stateText))",
        ]
        if let histories = saved.histories {
            if histories.isEmpty {
                lines.append("history: none recorded")
            } else {
                lines.append("history:")
                lines += histories.map { "  \(JSONText.escapingControls($0.name)): \(JSONText.escapingControls($0.states.joined(separator: ", ")))" }
            }
        }
        if saved.contextJSON.isEmpty {
            lines.append("context: none")
        } else {
            lines.append("context:")
            lines += saved.contextJSON.map { "  \(JSONText.escapingControls($0.name)): \($0.json)" }
        }
        lines.append("pending: \(Self.pendingNote)")
        if saved.hasClock {
            lines.append(saved.clock == .virtual ? "clock: virtual, at \(saved.time) ms" : "clock: real")
            if saved.timers.isEmpty {
                lines.append("timers: none")
            } else {
                lines.append("timers:")
                let now = DueTime.now(saved.clock, time: saved.time)
                lines += saved.timers.map {
                    "  \(JSONText.escapingControls($0.label)), due \(DueTime.status($0.due, clock: saved.clock, now: now))"
                }
            }
        }
        if let machine {
            switch machine.match {
            case .matches:
                lines.append("matches \(machine.file): yes")
            case .differs(let reason, let migration):
                lines.append("matches \(machine.file): no: \(reason)")
                switch migration {
                case .success(let migration):
                    lines.append("--migrate \(MigrationSummary.text(migration, machine: machine.machine, done: false))")
                case .failure(let error):
                    lines.append("--migrate would refuse: \(error.message)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{timer, reason}` objects for the timers a migration drops.
    private func droppedTimers(_ migration: SnapshotMigration) -> [String] {
        migration.droppedTimers.map { "{\"timer\":\(JSONText.quoted($0.timer)),\"reason\":\(JSONText.quoted($0.reason))}" }
    }

    /// `{timer, as, state, due}` objects for the timers a migration reschedules.
    private func rescheduledTimers(_ migration: SnapshotMigration) -> [String] {
        migration.rescheduledTimers.map {
            "{\"timer\":\(JSONText.quoted($0.timer)),\"as\":\(JSONText.quoted($0.after)),\"state\":\(JSONText.quoted($0.state)),\"due\":\($0.due)}"
        }
    }

    var json: String {
        var members = [
            "\"file\":\(JSONText.quoted(file))",
            "\"machine\":\(JSONText.quoted(saved.machineName))",
            "\"fingerprint\":\(JSONText.quoted(saved.fingerprint))",
            "\"state\":" + (saved.isConfiguration ? Self.names(saved.stateNames) : JSONText.quoted(saved.stateText)),
        ]
        if let histories = saved.histories {
            members.append("\"history\":{" + histories.map { "\(JSONText.quoted($0.name)):\(Self.names($0.states))" }.joined(separator: ",") + "}")
        }
        members += [
            "\"context\":{" + saved.contextJSON.map { "\(JSONText.quoted($0.name)):\($0.json)" }.joined(separator: ",") + "}",
            "\"pending\":[]",
        ]
        if saved.hasClock {
            members.append("\"clock\":\(JSONText.quoted(saved.clock.rawValue))")
            if saved.clock == .virtual { members.append("\"time\":\(saved.time)") }
            members.append("\"timers\":[" + saved.timers.map(\.json).joined(separator: ",") + "]")
            let now = DueTime.now(saved.clock, time: saved.time)
            members.append("\"due_in\":[" + saved.timers.map { String($0.due - now) }.joined(separator: ",") + "]")
        }
        if let machine {
            members.append("\"machine_file\":\(JSONText.quoted(machine.file))")
            switch machine.match {
            case .matches:
                members.append("\"matches\":true")
            case .differs(let reason, let migration):
                members.append("\"matches\":false")
                members.append("\"reason\":\(JSONText.quoted(reason))")
                switch migration {
                case .success(let migration):
                    let snapshot = migration.snapshot
                    let nests = machine.machine.chart?.tree.parents.contains(where: { $0 >= 0 }) ?? false
                    let state =
                        !nests
                        ? JSONText.quoted(machine.machine.stateNames[snapshot.state])
                        : Self.names(snapshot.configuration.map { machine.machine.stateNames[$0] })
                    let names = Self.names
                    let dropped = migration.dropped.map { "{\"variable\":\(JSONText.quoted($0.variable)),\"reason\":\(JSONText.quoted($0.reason))}" }
                    members.append(
                        "\"migration\":{\"possible\":true,\"state\":\(state),"
                            + "\"kept\":\(names(migration.kept)),\"dropped\":[\(dropped.joined(separator: ","))],"
                            + "\"initialized\":\(names(migration.initialized))"
                            + (migration.forgottenHistories.isEmpty ? "" : ",\"forgotten_history\":\(names(migration.forgottenHistories))")
                            + (migration.droppedTimers.isEmpty ? "" : ",\"dropped_timers\":[\(droppedTimers(migration).joined(separator: ","))]")
                            + (migration.rescheduledTimers.isEmpty
                                ? "" : ",\"rescheduled_timers\":[\(rescheduledTimers(migration).joined(separator: ","))]")
                            + (migration.unstartedAfters.isEmpty ? "" : ",\"unstarted_afters\":\(names(migration.unstartedAfters))") + "}")
                case .failure(let error):
                    members.append("\"migration\":{\"possible\":false,\"reason\":\(JSONText.quoted(error.message))}")
                }
            }
        }
        return "{" + members.joined(separator: ",") + "}\n"
    }
}
