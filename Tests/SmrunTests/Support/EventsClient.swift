import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client of an events feed (Server-Sent Events) over a plain socket: it keeps every `data:`
/// line's JSON object.
final class EventsClient: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var events: [[String: Any]] = []
    private var opened = false

    /// Connects to `path` on the server at `port` and reads on a thread of its own; returns
    /// once the feed has started.
    init(port: Int, path: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw SpawnFailed(executable: "connect", errno: errno) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        Thread { [self] in read() }.start()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if lock.withLock({ opened }) { return }
            usleep(10_000)
        }
        throw SpawnFailed(executable: "the events feed", errno: ETIMEDOUT)
    }

    /// The events received so far.
    var received: [[String: Any]] { lock.withLock { events } }

    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private func read() {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            pending += chunk[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.hasPrefix(": statecraft events") { lock.withLock { opened = true } }
                if line.hasPrefix("data: "), let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any] {
                    lock.withLock { events.append(object) }
                }
            }
        }
        Glibc.close(fd)
    }
}
