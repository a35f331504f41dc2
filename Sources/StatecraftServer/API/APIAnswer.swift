import Statecraft
import SmrunCore
import StatecraftStore

/// An answer of the instances API, before HTTP: a status, the headers it sets, and a JSON body
/// (an RFC 9457 problem when ``isProblem``), or a diagram's (``contentType``).
package struct APIAnswer: Sendable {
    package var status: Int
    /// `ETag: "VERSION"`.
    package var version: Int?
    /// `Location`.
    package var location: String?
    package var body: [UInt8]
    package var isProblem = false
    /// The body's media type when it is no JSON (a diagram).
    package var contentType: String?
    /// Where a send's `results` array starts in ``body``, when the answer was made by the send
    /// (``ServerMetrics`` reads the outcome there, without scanning the instance before it).
    package var resultsStart: Int?
    /// Makes ``body`` and ``resultsStart`` once the transaction is durable, on the caller's
    /// thread rather than the store's writer, the one serial stage (a send's answer, unless an
    /// `Idempotency-Key` keeps it in the transaction): ``rendered()``.
    var pendingBody: (@Sendable () -> (body: [UInt8], resultsStart: Int?))?
    /// When the timers that fired in a send's transaction (those due before it, and those it
    /// started due at once) were due, on the real clock: ``ServerMetrics`` records how late
    /// each fired.
    var timersFired: [Int] = []

    package init(status: Int, version: Int? = nil, location: String? = nil, body: [UInt8], isProblem: Bool = false, contentType: String? = nil) {
        self.status = status
        self.version = version
        self.location = location
        self.body = body
        self.isProblem = isProblem
        self.contentType = contentType
    }

    /// This answer with its body made, when it was pending.
    consuming func rendered() -> APIAnswer {
        guard let make = pendingBody else { return self }
        (body, resultsStart) = make()
        pendingBody = nil
        return self
    }

    init(recorded: RecordedAnswer) {
        self.init(status: recorded.status, version: recorded.version, location: recorded.location, body: recorded.body)
    }

    var recorded: RecordedAnswer { RecordedAnswer(status: status, version: version, location: location, body: body) }

    /// A problem (`application/problem+json`): `title` says what kind, `detail` what exactly;
    /// `extra` holds more members as JSON text (`"instance":{...}`).
    static func problem(_ status: Int, _ title: String, _ detail: String, extra: String? = nil) -> APIAnswer {
        var body: [UInt8] = Array("{\"type\":\"about:blank\",\"title\":".utf8)
        JSONText.appendQuoted(Array(title.utf8), to: &body)
        body += Array(",\"status\":\(status),\"detail\":".utf8)
        JSONText.appendQuoted(Array(detail.utf8), to: &body)
        if let extra { body += Array(",\(extra)".utf8) }
        body.append(UInt8(ascii: "}"))
        return APIAnswer(status: status, body: body, isProblem: true)
    }

    static func badRequest(_ detail: String) -> APIAnswer { problem(400, "Bad Request", detail) }
    static func notFound(_ detail: String) -> APIAnswer { problem(404, "Not Found", detail) }
    static func preconditionFailed(_ detail: String) -> APIAnswer { problem(412, "Precondition Failed", detail) }
}
