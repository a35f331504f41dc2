import Hummingbird

/// The query parameters the API reads, checked: a bad one is a 400 naming it.
struct QueryParameters {
    let request: Request

    /// `limit`: 1 to 1,000, 100 when absent.
    func limit() throws -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return 100 }
        guard let value = Int(text), (1...1_000).contains(value) else {
            throw HTTPError(.badRequest, message: "'limit' must be a whole number from 1 to 1000, got '\(text.prefix(40))'")
        }
        return value
    }

    /// A whole number of at least 0, `fallback` when absent.
    func count(_ name: String, fallback: Int) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return fallback }
        guard let value = Int(text), value >= 0 else {
            throw HTTPError(.badRequest, message: "'\(name)' must be a whole number of at least 0, got '\(text.prefix(40))'")
        }
        return value
    }

    func string(_ name: String) -> String? {
        request.uri.queryParameters.get(name)
    }
}
