import Foundation
import StatecraftPostgres
import StatecraftStore

/// What `--store` names: a SQLite file, or a PostgreSQL database by its
/// `postgres://USER@HOST:PORT/DATABASE` URL (docs/serving.md).
enum StoreOpener {
    /// Opens the store `text` names (an existing file only: `smrun instances` creates none),
    /// runs `body` with it, then closes it.
    static func withExisting<T: Sendable>(_ text: String, _ body: @escaping @Sendable (any InstanceStore) async throws -> T) async throws -> T {
        if PostgresLocation.isURL(text) {
            return try await PostgresStore.with(try PostgresLocation(url: text)) { try await body($0) }
        }
        guard FileManager.default.fileExists(atPath: text) else { throw StoreError.unreadable("\(text): no such store") }
        let store = try SQLiteStore(path: text)
        let value: T
        do {
            value = try await body(store)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        return value
    }

    /// How messages name the store `text` names (never with a password).
    static func name(_ text: String) -> String {
        PostgresLocation.isURL(text) ? ((try? PostgresLocation(url: text))?.description ?? "the database") : text
    }
}
