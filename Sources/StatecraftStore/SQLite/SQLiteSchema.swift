import GRDB

/// The SQLite store's schema, versioned: each migration runs once, in order, in a transaction
/// of its own, and GRDB records which have run (table `grdb_migrations`). A store written by a
/// newer smrun, with migrations this one does not know, is refused.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1: instances, history, timers, idempotency, definitions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE definitions (
                        fingerprint TEXT PRIMARY KEY, machine TEXT NOT NULL, format TEXT NOT NULL,
                        source BLOB NOT NULL, state_names TEXT NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX definitions_by_machine ON definitions (machine);
                    CREATE TABLE instances (
                        machine TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
                        status TEXT NOT NULL, snapshot BLOB NOT NULL, version INTEGER NOT NULL,
                        created INTEGER NOT NULL, updated INTEGER NOT NULL,
                        PRIMARY KEY (machine, key)
                    ) WITHOUT ROWID;
                    CREATE TABLE active_states (
                        machine TEXT NOT NULL, key TEXT NOT NULL, state TEXT NOT NULL,
                        PRIMARY KEY (machine, key, state)
                    ) WITHOUT ROWID;
                    CREATE INDEX active_states_by_state ON active_states (machine, state, key);
                    CREATE TABLE history (
                        position INTEGER PRIMARY KEY, machine TEXT NOT NULL, key TEXT NOT NULL,
                        seq INTEGER NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL,
                        input TEXT, arg TEXT, timer TEXT, results TEXT NOT NULL
                    );
                    CREATE UNIQUE INDEX history_by_instance ON history (machine, key, seq);
                    CREATE INDEX history_by_machine ON history (machine, position);
                    CREATE TABLE timers (
                        machine TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL,
                        due INTEGER NOT NULL, timer TEXT NOT NULL,
                        PRIMARY KEY (machine, key, n)
                    ) WITHOUT ROWID;
                    CREATE INDEX timers_by_due ON timers (due);
                    CREATE TABLE idempotency (
                        machine TEXT NOT NULL, scope TEXT NOT NULL, idempotency_key TEXT NOT NULL,
                        instance_key TEXT NOT NULL, request BLOB NOT NULL, status INTEGER NOT NULL,
                        version INTEGER, location TEXT, body BLOB NOT NULL, expires INTEGER NOT NULL,
                        PRIMARY KEY (machine, scope, idempotency_key)
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotency_by_instance ON idempotency (machine, instance_key);
                    CREATE INDEX idempotency_by_expiry ON idempotency (expires);
                    """)
        }
        migrator.registerMigration("2: the state after each history entry") { db in
            // Entries written before it keep null: the API shows their state after as null.
            try db.execute(sql: "ALTER TABLE history ADD COLUMN state_after TEXT")
        }
        migrator.registerMigration("3: history positions never reused") { db in
            // Without AUTOINCREMENT SQLite numbers a new row after the largest rowid left, so once
            // a delete took the newest entries away, the next entries took their positions again:
            // below the cursors the machine's feed had already handed out, which then skipped them.
            // The table is made again: SQLite cannot add AUTOINCREMENT to a table. A store written
            // before may have reused positions already; from here on none is.
            try db.execute(
                sql: """
                    CREATE TABLE history_numbered (
                        position INTEGER PRIMARY KEY AUTOINCREMENT, machine TEXT NOT NULL, key TEXT NOT NULL,
                        seq INTEGER NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL,
                        input TEXT, arg TEXT, timer TEXT, results TEXT NOT NULL, state_after TEXT
                    );
                    INSERT INTO history_numbered (position, machine, key, seq, at, kind, input, arg, timer, results, state_after)
                        SELECT position, machine, key, seq, at, kind, input, arg, timer, results, state_after FROM history;
                    DROP TABLE history;
                    ALTER TABLE history_numbered RENAME TO history;
                    CREATE UNIQUE INDEX history_by_instance ON history (machine, key, seq);
                    CREATE INDEX history_by_machine ON history (machine, position);
                    """)
        }
        return migrator
    }
}
