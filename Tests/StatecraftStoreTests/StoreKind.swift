import Foundation
import StatecraftPostgres
import StatecraftStore
import TestSupport

/// The stores the contract tests run against, each on a new file or database of its own.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    var description: String { rawValue }

    /// A new, empty place for a store: a file's path, or a database's URL on the test cluster.
    func newLocation() throws -> String {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("store.sqlite").path
        case .postgres:
            let cluster = try PostgresCluster.shared()
            return cluster.url(try cluster.createDatabase())
        }
    }

    /// Opens the store at `location`, runs `body` with it, then closes it.
    func open(_ location: String, _ body: @escaping @Sendable (any InstanceStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let store = try SQLiteStore(path: location)
            do {
                try await body(store)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        case .postgres:
            try await PostgresStore.with(try PostgresLocation(url: location)) { store in try await body(store) }
        }
    }

    /// Runs `body` with a store of this kind on a new file or database.
    func withStore(_ body: @escaping @Sendable (any InstanceStore) async throws -> Void) async throws {
        try await open(try newLocation(), body)
    }

    /// Records a schema migration this smrun does not know, as a newer one would.
    func recordMigrationFromTheFuture(at location: String) throws {
        switch self {
        case .sqlite: try execute("INSERT INTO grdb_migrations (identifier) VALUES ('99: from the future')", at: location)
        case .postgres: try execute("INSERT INTO statecraft.migrations VALUES (99, 'from the future')", at: location)
        }
    }

    /// Takes the schema back to version 1, as an older smrun left it: without the history's
    /// `state_after` column, nor the record of the migrations that added it (and, on SQLite,
    /// that numbered its positions for good, which the next open makes again).
    func undoStateAfterMigration(at location: String) throws {
        switch self {
        case .sqlite:
            try execute(
                "ALTER TABLE history DROP COLUMN state_after; DELETE FROM grdb_migrations WHERE identifier LIKE '2:%' OR identifier LIKE '3:%'",
                at: location)
        case .postgres:
            try execute("ALTER TABLE statecraft.history DROP COLUMN state_after; DELETE FROM statecraft.migrations WHERE version = 2", at: location)
        }
    }

    /// Runs `sql` on the store at `location` with the database's own client (`sqlite3`, `psql`).
    func execute(_ sql: String, at location: String) throws {
        switch self {
        case .sqlite:
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            sqlite.arguments = ["sqlite3", location, sql]
            try sqlite.run()
            sqlite.waitUntilExit()
            guard sqlite.terminationStatus == 0 else { throw MissingTool(name: "sqlite3 (Debian: sqlite3)") }
        case .postgres:
            let url = try PostgresLocation(url: location)
            try PostgresCluster.shared().psql(database: url.database, sql)
        }
    }

    struct MissingTool: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is needed" }
    }
}
