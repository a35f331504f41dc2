import PostgresNIO
import StatecraftStore

/// The PostgreSQL store's schema, in a schema of its own (`statecraft`), versioned: each
/// migration runs once, in order, in a transaction of its own, recorded in
/// `statecraft.migrations`. Servers that start at once take turns: the migrations run under a
/// session advisory lock. A database migrated by a newer smrun is refused.
enum PostgresSchema {
    /// The advisory lock the migrations run under (any constant: "statecraft" in ASCII).
    static let migrationLock: Int64 = 0x7374_6174_6563_7261

    static let migrations: [(version: Int, name: String, sql: [String])] = [
        (
            1, "instances, history, timers, idempotency, definitions",
            [
                "CREATE TABLE statecraft.settings (name text PRIMARY KEY, value text NOT NULL)",
                """
                CREATE TABLE statecraft.definitions (
                    fingerprint text PRIMARY KEY, machine text NOT NULL, format text NOT NULL,
                    source bytea NOT NULL, state_names text NOT NULL)
                """,
                "CREATE INDEX definitions_by_machine ON statecraft.definitions (machine)",
                """
                CREATE TABLE statecraft.instances (
                    machine text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, status text NOT NULL,
                    snapshot bytea NOT NULL, version bigint NOT NULL, created bigint NOT NULL, updated bigint NOT NULL,
                    PRIMARY KEY (machine, key))
                """,
                """
                CREATE TABLE statecraft.active_states (
                    machine text NOT NULL, key text NOT NULL, state text NOT NULL, PRIMARY KEY (machine, key, state))
                """,
                "CREATE INDEX active_states_by_state ON statecraft.active_states (machine, state, key)",
                // `position` is the writing transaction's id times 2^20 plus the entry's place in
                // the transaction (PostgresStore.machineHistory says why).
                """
                CREATE TABLE statecraft.history (
                    position bigint PRIMARY KEY, machine text NOT NULL, key text NOT NULL, seq bigint NOT NULL,
                    at bigint NOT NULL, kind text NOT NULL, input text, arg text, timer text, results text NOT NULL)
                """,
                "CREATE UNIQUE INDEX history_by_instance ON statecraft.history (machine, key, seq)",
                "CREATE INDEX history_by_machine ON statecraft.history (machine, position)",
                """
                CREATE TABLE statecraft.timers (
                    machine text NOT NULL, key text NOT NULL, n integer NOT NULL, due bigint NOT NULL, timer text NOT NULL,
                    PRIMARY KEY (machine, key, n))
                """,
                "CREATE INDEX timers_by_due ON statecraft.timers (due)",
                """
                CREATE TABLE statecraft.idempotency (
                    machine text NOT NULL, scope text NOT NULL, idempotency_key text NOT NULL, instance_key text NOT NULL,
                    request bytea NOT NULL, status integer NOT NULL, version bigint, location text, body bytea NOT NULL,
                    expires bigint NOT NULL, PRIMARY KEY (machine, scope, idempotency_key))
                """,
                "CREATE INDEX idempotency_by_instance ON statecraft.idempotency (machine, instance_key)",
                "CREATE INDEX idempotency_by_expiry ON statecraft.idempotency (expires)",
            ]
        ),
        // Entries written before it keep null: the API shows their state after as null.
        (2, "the state after each history entry", ["ALTER TABLE statecraft.history ADD COLUMN state_after text"]),
    ]

    /// Brings the database's schema up to date, under the migration lock; `leased` is called
    /// with the connection once it is had.
    static func migrate(_ client: PostgresClient, logger: Logger, leased: @Sendable (PostgresConnection) -> Void) async throws {
        try await client.withConnection { connection in
            leased(connection)
            try await connection.openQuery("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
            do {
                try await migrate(connection, logger: logger)
                try await connection.openQuery("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
            } catch {
                _ = try? await connection.openQuery("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
                throw error
            }
        }
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.openQuery("CREATE SCHEMA IF NOT EXISTS statecraft", logger: logger)
        try await connection.openQuery(
            "CREATE TABLE IF NOT EXISTS statecraft.migrations (version integer PRIMARY KEY, name text NOT NULL)", logger: logger)
        var applied = 0
        for try await version in try await connection.openQuery("SELECT coalesce(max(version), 0) FROM statecraft.migrations", logger: logger)
            .decode(Int.self)
        {
            applied = version
        }
        let known = migrations.last?.version ?? 0
        guard applied <= known else {
            throw StoreError.unreadable(
                "the database was migrated by a newer smrun: its schema is at version \(applied), this smrun knows \(known)")
        }
        for migration in migrations where migration.version > applied {
            try await connection.openQuery("BEGIN", logger: logger)
            do {
                for statement in migration.sql { try await connection.openQuery(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.openQuery(
                    "INSERT INTO statecraft.migrations (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
                try await connection.openQuery("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.openQuery("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
