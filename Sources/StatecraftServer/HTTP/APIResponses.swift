import HTTPTypes
import Hummingbird
import NIOCore
import StatecraftStore

extension APIAnswer {
    /// The answer as an HTTP response: JSON (or `application/problem+json`, or its
    /// ``APIAnswer/contentType``), `ETag` and
    /// `Location` when it has them.
    var response: Response {
        // Each field appended, as the names differ: a field set by name is first looked for
        // among the others, and a `Content-Length` left to `Response` is written with
        // `String(describing:)`.
        var headers = HTTPFields()
        headers.reserveCapacity(4)
        if !body.isEmpty || status != 204 {
            headers.append(HTTPField(name: .contentType, value: isProblem ? "application/problem+json" : contentType ?? "application/json"))
            headers.append(HTTPField(name: .contentLength, value: String(body.count)))
        }
        if let version { headers.append(HTTPField(name: .eTag, value: "\"\(version)\"")) }
        if let location { headers.append(HTTPField(name: .location, value: location)) }
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns the errors thrown below it into problem+json answers: Hummingbird's own (an unknown
/// path is 404, a wrong method 405) and the store's (503 while it is closed, 500 otherwise,
/// never with an internal detail).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let status = error.status
            var answer = APIAnswer.problem(status.code, status.reasonPhrase, error.body ?? Self.detail(for: status, request: request))
            if status == .methodNotAllowed || status == .notFound {
                answer = .problem(status.code, status.reasonPhrase, Self.detail(for: status, request: request))
            }
            var response = answer.response
            for field in error.headers where field.name != .contentType && field.name != .contentLength { response.headers.append(field) }
            return response
        } catch let error as StoreError where error == .closed {
            var response = APIAnswer.problem(503, "Service Unavailable", "the server is stopping").response
            response.headers[.retryAfter] = "1"
            return response
        } catch StoreError.unavailable(let reason) {
            context.logger.error("store unavailable: \(reason)", metadata: ["path": "\(request.uri.path)"])
            var response = APIAnswer.problem(
                503, "Service Unavailable",
                "the store is unavailable (\(reason)); a change this request asked for may or may not have been made: "
                    + "send it again with the same Idempotency-Key"
            ).response
            response.headers[.retryAfter] = "1"
            return response
        } catch {
            context.logger.error("request failed: \(error)", metadata: ["path": "\(request.uri.path)"])
            return APIAnswer.problem(500, "Internal Server Error", "the request failed; nothing was answered as done").response
        }
    }

    private static func detail(for status: HTTPResponse.Status, request: Request) -> String {
        switch status {
        case .notFound: "no route for \(request.method) \(request.uri.path)"
        case .methodNotAllowed: "\(request.method) is not allowed on \(request.uri.path)"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase
        }
    }
}
