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
        case .sqlite:
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            sqlite.arguments = ["sqlite3", location, "INSERT INTO grdb_migrations (identifier) VALUES ('99: from the future')"]
            try sqlite.run()
            sqlite.waitUntilExit()
            guard sqlite.terminationStatus == 0 else { throw MissingTool(name: "sqlite3 (Debian: sqlite3)") }
        case .postgres:
            let url = try PostgresLocation(url: location)
            try PostgresCluster.shared().psql(database: url.database, "INSERT INTO statecraft.migrations VALUES (99, 'from the future')")
        }
    }

    struct MissingTool: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is needed" }
    }
}
