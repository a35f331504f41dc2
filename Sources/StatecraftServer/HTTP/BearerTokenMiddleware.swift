import Hummingbird

/// With a token, every path but the open ones needs `Authorization: Bearer TOKEN` (compared in
/// constant time), else 401 with `WWW-Authenticate: Bearer`. Tokens are never read from a
/// query string or a cookie.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]
    /// Paths served without a token.
    let openPaths: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if openPaths.contains(request.uri.path) { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), Self.equalInConstantTime(Array(header.utf8.dropFirst(prefix.utf8.count)), token) else {
            var response = APIAnswer.problem(401, "Unauthorized", "this server needs 'Authorization: Bearer TOKEN'").response
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        return try await next(request, context)
    }

    /// Whether `a` equals `b`, in a time that depends on their lengths only.
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
