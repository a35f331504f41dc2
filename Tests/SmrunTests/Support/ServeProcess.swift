import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A running `smrun serve` (the built binary) on a loopback port of its own, and plain HTTP
/// requests to it.
final class ServeProcess: @unchecked Sendable {
    let port: Int
    private let process: SmrunProcess

    /// Starts `smrun serve ARGUMENTS --listen 127.0.0.1:PORT` on a free port and waits until its
    /// `/healthz` answers 200. (It counts attempts rather than time: the whole suite runs at
    /// once, and its synchronous tests may hold this task off the cooperative pool a while.)
    init(_ arguments: [String]) async throws {
        port = try Self.freePort()
        process = try SmrunProcess(["serve"] + arguments + ["--listen", "127.0.0.1:\(port)"], input: nil)
        for _ in 0..<1_200 {
            if let (status, _, _) = try? await request("GET", "/healthz"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(process.pid, SIGKILL)
        let output = try process.finish(output: nil, timeout: .seconds(10))
        throw NotServing(arguments: arguments, errors: output.errorText)
    }

    /// Sends a request; the status, the body parsed as JSON (`nil` when empty) and the headers.
    func request(_ method: String, _ path: String, body: [String: Any]? = nil, headers: [String: String] = [:]) async throws
        -> (Int, Any?, [String: String])
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 30
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in http?.allHeaderFields ?? [:] { fields[name.lowercased()] = value }
        return (http?.statusCode ?? 0, data.isEmpty ? nil : try JSONSerialization.jsonObject(with: data), fields)
    }

    /// Stops the server with SIGTERM and waits for it; how it ended.
    func stop() throws -> SmrunOutput {
        kill(process.pid, SIGTERM)
        return try process.finish(output: nil, timeout: .seconds(30))
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    /// A loopback port nothing listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw SpawnFailed(executable: "bind", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct NotServing: Error, CustomStringConvertible {
        var arguments: [String]
        var errors: String
        var description: String { "smrun serve \(arguments.joined(separator: " ")) did not answer /healthz: \(errors)" }
    }
}
