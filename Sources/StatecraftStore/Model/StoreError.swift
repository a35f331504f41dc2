/// Why a store could not do what was asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store was closed (the server is stopping).
    case closed
    /// The store's instances run on one clock and this process on the other.
    case otherClock(stored: String, wanted: String)
    /// The store file was written by a newer smrun, or is no Statecraft store, or the
    /// database refused an operation (a file it may not write, say); the message names the
    /// store.
    case unreadable(String)
    /// The store cannot be reached now (a database server that is away): an input's outcome
    /// is unknown, and the same request may be sent again with its idempotency key.
    case unavailable(String)

    public var description: String {
        switch self {
        case .closed: "the store is closed"
        case .otherClock(let stored, let wanted):
            "the store's instances run on the \(stored) clock, and this run uses the \(wanted) clock"
        case .unreadable(let message), .unavailable(let message): message
        }
    }
}
