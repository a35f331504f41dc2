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
        let header = Array((request.headers[.authorization] ?? "").utf8)
        guard let given = Self.credentials(header), Self.equalInConstantTime(given, token) else {
            var response = APIAnswer.problem(401, "Unauthorized", "this server needs 'Authorization: Bearer TOKEN'").response
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        return try await next(request, context)
    }

    /// The credentials of an `Authorization` value of the Bearer scheme, whose name is
    /// case-insensitive (RFC 9110, section 11.1); `nil` for another scheme.
    static func credentials(_ header: [UInt8]) -> [UInt8]? {
        let scheme = Array("bearer ".utf8)
        let upperCase = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard header.count > scheme.count, zip(header, scheme).allSatisfy({ (upperCase ~= $0 ? $0 | 0x20 : $0) == $1 }) else { return nil }
        return Array(header.dropFirst(scheme.count))
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
