import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SmrunCore
import StatecraftStore

/// The instances API's routes (docs/serving.md), on the ``InstanceService``.
struct InstanceRoutes: Sendable {
    let service: InstanceService
    let feed: EventsFeed
    let maximumBodyBytes: Int
    let metrics: ServerMetrics
    /// The definitions' SVG drawings.
    let diagrams = DiagramCache()

    func add<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("/machines") { _, _ in machines().response }
        router.post("/machines/:machine/instances") { request, context in
            let machine = try Self.parameter("machine", context)
            let body = try await RequestBodyReader.read(request, maximumBytes: maximumBodyBytes)
            let answer = try await service.create(machine: machine, body: body, idempotencyKey: try idempotencyKey(request))
            return answer.response
        }
        router.get("/machines/:machine/definitions/:fingerprint") { _, context in
            try await service.definitionJSON(machine: try Self.parameter("machine", context), fingerprint: try Self.parameter("fingerprint", context))
                .response
        }
        router.get("/machines/:machine/definitions/:fingerprint/diagram.svg") { _, context in
            try await service.svg(
                machine: try Self.parameter("machine", context), fingerprint: try Self.parameter("fingerprint", context), diagrams: diagrams
            ).response
        }
        router.get("/machines/:machine/definitions/:fingerprint/diagram.mmd") { _, context in
            try await service.mermaid(machine: try Self.parameter("machine", context), fingerprint: try Self.parameter("fingerprint", context))
                .response
        }
        router.get("/machines/:machine/instances") { request, context in
            let query = QueryParameters(request: request)
            return try await service.list(
                machine: try Self.parameter("machine", context), state: query.string("state"), status: query.string("status"),
                cursor: query.string("cursor"), limit: try query.limit()
            ).response
        }
        router.get("/machines/:machine/instances/:key") { _, context in
            try await service.instance(machine: try Self.parameter("machine", context), key: try Self.parameter("key", context)).response
        }
        router.delete("/machines/:machine/instances/:key") { request, context in
            try await service.delete(
                machine: try Self.parameter("machine", context), key: try Self.parameter("key", context), ifMatch: try ifMatch(request)
            ).response
        }
        router.post("/machines/:machine/instances/:key/inputs") { request, context in try await send(request, context: context) }
        router.get("/machines/:machine/instances/:key/inputs") { _, context in
            try await service.inputs(machine: try Self.parameter("machine", context), key: try Self.parameter("key", context)).response
        }
        router.post("/machines/:machine/instances/:key/clock") { request, context in
            let body = try await RequestBodyReader.read(request, maximumBytes: maximumBodyBytes)
            return try await service.moveClock(
                machine: try Self.parameter("machine", context), key: try Self.parameter("key", context), body: body,
                ifMatch: try ifMatch(request), idempotencyKey: try idempotencyKey(request)
            ).response
        }
        router.get("/machines/:machine/instances/:key/history") { request, context in
            let query = QueryParameters(request: request)
            return try await service.history(
                machine: try Self.parameter("machine", context), key: try Self.parameter("key", context),
                after: try query.count("after", fallback: 0), limit: try query.limit()
            ).response
        }
        router.get("/machines/:machine/instances/:key/events") { request, context in
            let machine = try Self.parameter("machine", context)
            let key = try Self.parameter("key", context)
            let check = try await service.instance(machine: machine, key: key)
            guard check.status == 200, let version = check.version else { return check.response }
            // An id beyond the instance's version is no place in its history: one of an instance
            // deleted since and made again under its key. Its feed starts from its first entry.
            let start = try lastEventID(request).map { $0 > Int64(version) ? 0 : $0 } ?? Int64(version)
            return feed.response(.instance(InstanceID(machine: machine, key: key)), after: start)
        }
        router.get("/machines/:machine/events") { request, context in
            let machine = try Self.parameter("machine", context)
            guard service.catalog.current(machine) != nil else { return InstanceService.unknownMachine(machine).response }
            let start: Int64
            if let given = try lastEventID(request) {
                start = given
            } else {
                start = try await service.store.lastPosition(machine: machine)
            }
            return feed.response(.machine(machine), after: start)
        }
    }

    /// `POST /machines/{m}/instances/{key}/inputs`, given the route's parameters in `context`.
    func send<Context: RequestContext>(_ request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let body = try await RequestBodyReader.read(request, maximumBytes: maximumBodyBytes)
        let answer = try await service.send(
            machine: try Self.parameter("machine", context), key: try Self.parameter("key", context), body: body,
            ifMatch: try ifMatch(request), idempotencyKey: try idempotencyKey(request))
        metrics.recordInput(answer, since: started)
        return answer.response
    }

    /// `GET /machines`.
    private func machines() -> APIAnswer {
        var out: [UInt8] = Array("{\"machines\":[".utf8)
        for (index, runtime) in service.catalog.current.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("{\"name\":".utf8)
            InstanceJSON.string(runtime.machine.name, &out)
            out += Array(",\"fingerprint\":\"\(runtime.fingerprint)\",\"kind\":\"\(runtime.kind)\",\"inputs\":".utf8)
            InstanceJSON.inputs(of: runtime.machine, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out += Array("]}".utf8)
        return APIAnswer(status: 200, body: out)
    }

    /// `Idempotency-Key`: 1 to 255 characters.
    private func idempotencyKey(_ request: Request) throws -> String? {
        guard let key = request.headers[.idempotencyKey] else { return nil }
        guard (1...255).contains(key.utf8.count) else {
            throw HTTPError(.badRequest, message: "Idempotency-Key must have 1 to 255 characters, not \(key.utf8.count)")
        }
        return key
    }

    /// A path parameter, percent-decoded: a client may encode any character of a path segment
    /// (`a%3Ab` is the key `a:b`). Malformed percent-encoding is left as it is (and, in a key,
    /// refused as such).
    private static func parameter<Context: RequestContext>(_ name: String, _ context: Context) throws -> String {
        let raw = try context.parameters.require(name)
        // Foundation's decoding costs 2% of a send's time: most segments have nothing to decode.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }

    private func ifMatch(_ request: Request) throws -> IfMatch? {
        guard let header = request.headers[.ifMatch] else { return nil }
        guard let parsed = IfMatch(header: header) else {
            throw HTTPError(.badRequest, message: "If-Match must be * or a list of \"VERSION\"s, got '\(header.prefix(60))'")
        }
        return parsed
    }

    private func lastEventID(_ request: Request) throws -> Int64? {
        guard let header = request.headers[.lastEventID] else { return nil }
        guard let value = Int64(header), value >= 0 else {
            throw HTTPError(.badRequest, message: "Last-Event-ID must be an id this server sent, got '\(header.prefix(60))'")
        }
        return value
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let lastEventID = Self("Last-Event-ID")!
}
