import Foundation
import GRDB
import Testing

@testable import StatecraftStore

/// A write that SQLite itself refuses (a file that cannot be written, a full disk, a broken
/// page) is thrown as a store error that names the file: `smrun serve` prints it as it stops,
/// and a running server logs it, where SQLite's message alone did not say which file.
struct SQLiteRefusedWriteTests {
    @Test func aWriteSQLiteRefusesIsAnErrorNamingTheFile() async throws {
        let path = try StoreKind.sqlite.newLocation()
        let store = try SQLiteStore(path: path)
        // Another connection makes every new definition fail, as SQLite would any write to a
        // file it may not change.
        let other = try DatabaseQueue(path: path)
        try await other.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON definitions BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        try other.close()
        let definition = StoredDefinition(fingerprint: "sha256:1", machine: "m", format: .yaml, source: Array("machine: m".utf8), stateNames: ["a"])
        await #expect {
            try await store.saveDefinition(definition)
        } throws: { error in
            guard case StoreError.unreadable(let message) = error else { return false }
            return message.hasPrefix("\(path): ") && message.contains("refused by the test")
        }
        // The store goes on serving other writes.
        try await store.write([SQLiteCloseTests.creation("k")])
        #expect(try await store.counts().instances == 1)
        try await store.close()
    }
}
