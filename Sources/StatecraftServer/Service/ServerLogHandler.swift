import Logging

/// The server's log handler: swift-log's `StreamLogHandler` on standard error, given the
/// logger's metadata only when a message goes out. Hummingbird gives each request a logger with
/// a request id in its metadata, and a `StreamLogHandler` formats its metadata whenever it
/// changes: for every request, though at the server's level (notice) nearly nothing is logged.
struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        stream.log(event: event)
    }
}
