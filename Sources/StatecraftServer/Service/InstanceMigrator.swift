import Statecraft
import StatecraftStore

/// `smrun instances migrate`: moves a machine's instances to a new definition by the rules of
/// `smrun --migrate` (docs/snapshots.md), each instance in its own transaction. A migration is
/// no history entry: the instance keeps its version and history, and its next entries run on
/// the new definition.
package struct InstanceMigrator: Sendable {
    package let store: any InstanceStore
    package let catalog: DefinitionCatalog
    package let target: MachineRuntime

    package init(catalog: DefinitionCatalog, target: MachineRuntime) {
        store = catalog.store
        self.catalog = catalog
        self.target = target
    }

    /// How one instance fared.
    package enum Outcome: Sendable {
        /// It runs on the target definition already.
        case current
        case migrated(SnapshotMigration)
        /// Its snapshot does not fit the new definition; it was left as it was.
        case refused(String)
    }

    /// Migrates every instance of the target's machine, calling `report` for each in key order.
    package func migrateAll(report: (InstanceID, Outcome) -> Void) async throws {
        try await store.saveDefinition(target.definition)
        let clock = try await storeClock()
        var after: String? = nil
        while true {
            let page = try await store.instances(machine: target.machine.name, state: nil, status: nil, afterKey: after, limit: 500)
            for instance in page { report(instance.id, try await migrate(instance.id, clock: clock)) }
            guard let last = page.last, page.count == 500 else { return }
            after = last.id.key
        }
    }

    /// The clock the store's instances run on (a snapshot of a machine without timers records
    /// none).
    private func storeClock() async throws -> MachineSnapshot.Clock {
        try await store.recordedClock().flatMap(MachineSnapshot.Clock.init(rawValue:)) ?? .real
    }

    /// Migrates one instance, under its lock; `clock` is the store's.
    package func migrate(_ id: InstanceID, clock: MachineSnapshot.Clock) async throws -> Outcome {
        let target = target
        return try await store.transact(id, idempotency: nil) { found in
            guard let stored = found.instance else { return TransactionOutput(answer: .refused("it was deleted meanwhile")) }
            guard stored.fingerprint != target.fingerprint else { return TransactionOutput(answer: .current) }
            let migration: SnapshotMigration
            do {
                migration = try target.codec.migrate(stored.snapshot, now: found.now, clock: clock)
            } catch {
                return TransactionOutput(answer: .refused("\(error)"))
            }
            let run = target.settle(migration.snapshot)
            var instance = stored
            instance.fingerprint = target.fingerprint
            instance.snapshot = run.document
            instance.status = run.isFinal ? .final : .running
            // On the virtual clock an instance's times are its log's (smrun --by-key's clock
            // goes on from the latest): a migration, no entry, leaves them as they were.
            if clock == .real { instance.updated = found.now }
            let write = InstanceWrite(instance: instance, isNew: false, entries: [], activeStates: run.activeStates, timers: run.timers)
            return TransactionOutput(write: write, answer: .migrated(migration))
        }
    }
}
