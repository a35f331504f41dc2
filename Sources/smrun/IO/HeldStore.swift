import StatecraftPostgres
import StatecraftStore

/// A store held open by a command's synchronous code (`smrun run --by-key --store`): each
/// call waits for the store on the calling thread (``BlockingTask``). A PostgreSQL store's
/// connections run in a task of their own until ``close()``.
final class HeldStore {
    let store: any InstanceStore
    /// How messages name the store (never with a password).
    let name: String
    private let connections: Task<Void, Never>?

    /// Opens the store `text` names: a PostgreSQL database by its URL, or a SQLite file,
    /// created when missing.
    init(_ text: String) throws {
        name = StoreOpener.name(text)
        guard PostgresLocation.isURL(text) else {
            store = try SQLiteStore(path: text)
            connections = nil
            return
        }
        let database = PostgresStore(location: try PostgresLocation(url: text))
        let connections = Task { await database.run() }
        do {
            try BlockingTask.run { try await database.open() }
        } catch {
            connections.cancel()
            throw error
        }
        store = database
        self.connections = connections
    }

    /// Runs `body` on the store and waits for it.
    func run<T: Sendable>(_ body: @escaping @Sendable (any InstanceStore) async throws -> T) throws -> T {
        let store = store
        return try BlockingTask.run { try await body(store) }
    }

    /// Finishes the writes in flight and closes the store.
    func close() throws {
        defer { connections?.cancel() }
        try run { try await $0.close() }
    }
}
