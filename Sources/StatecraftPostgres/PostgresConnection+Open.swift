import Logging
import PostgresNIO
import StatecraftStore

extension PostgresConnection {
    /// `query`, refused at once on a connection that has closed.
    ///
    /// postgres-nio (1.33) writes a query to its channel without a promise: written after the
    /// channel closed (its handler removed), the query never reaches the connection's handler
    /// and is never answered, and its task (with the connection's lease) waits forever. A
    /// database that stops ends its connections between two statements of a transaction, so the
    /// next statement (a `COMMIT`, a `ROLLBACK`) would be such a query: every statement goes
    /// through here. The check and the write run in one job on the connection's event loop
    /// (`query` runs on its caller's executor up to the write), so the channel cannot close
    /// between them: either the handler gets the query, and answers it or fails it when the
    /// channel closes, or the check sees the channel closed.
    @discardableResult
    func openQuery(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws
        -> PostgresRowSequence
    {
        try await withTaskExecutorPreference(EventLoopExecutor(eventLoop)) {
            eventLoop.assertInEventLoop()
            guard !isClosed else { throw StoreError.unavailable("the connection to the database closed") }
            return try await self.query(query, logger: logger, file: file, line: line)
        }
    }
}
