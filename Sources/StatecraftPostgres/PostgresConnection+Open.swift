import Logging
import PostgresNIO
import StatecraftStore

extension PostgresConnection {
    /// `query`, refused at once on a connection that has closed.
    ///
    /// postgres-nio (1.33) writes a query to its channel without a promise: written after the
    /// channel closed, the query never reaches the connection's handler and is never answered,
    /// and its task (with the connection's lease) waits forever. A database that stops ends
    /// its connections between two statements of a transaction, so the next statement (a
    /// `COMMIT`, a `ROLLBACK`) would be such a query: every statement goes through here. (The
    /// check runs on the caller's thread: a channel that closes in the moment between it and the
    /// write on the event loop would still lose the query.)
    @discardableResult
    func openQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws
        -> PostgresRowSequence
    {
        guard !isClosed else { throw StoreError.unavailable("the connection to the database closed") }
        return try await self.query(query, logger: logger, file: file, line: line)
    }
}
