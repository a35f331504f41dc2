import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP relay on a loopback port to a server on another, that can freeze: it then keeps every
/// connection open and passes nothing on, either way, as a network that drops the server's
/// packets (or a server that stopped, its host still up) looks to a client: what it writes is
/// taken, and no answer ever comes. New connections are taken too, and hang the same way.
public final class FreezableRelay: @unchecked Sendable {
    /// The port clients connect to.
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var frozen = false
    private var stopped = false

    /// Starts relaying connections on a new loopback port to loopback port `target`.
    public init(to target: Int) throws {
        self.target = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RelayError(call: "socket") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw RelayError(call: "bind")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { self.accepting() }.start()
    }

    /// Stops passing anything on (or passes on again).
    public func setFrozen(_ frozen: Bool) {
        lock.withLock { self.frozen = frozen }
    }

    /// Closes the port, and every connection within a few milliseconds.
    public func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var isFrozen: Bool { lock.withLock { frozen } }
    private var isStopped: Bool { lock.withLock { stopped } }

    private func accepting() {
        while !isStopped {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                usleep(10_000)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(client)
                close(server)
                continue
            }
            let pair = Pair(client, server)
            Thread { self.pump(from: client, to: server, pair) }.start()
            Thread { self.pump(from: server, to: client, pair) }.start()
        }
        close(listener)
    }

    /// A relayed connection's two sockets, closed by the second of its pumps to end (so that
    /// neither pump reads a number the process has given to another file meanwhile).
    private final class Pair: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = 0
        private let sockets: (Int32, Int32)

        init(_ first: Int32, _ second: Int32) {
            sockets = (first, second)
        }

        func end() {
            guard lock.withLock({ () -> Bool in
                ended += 1
                return ended == 2
            }) else { return }
            close(sockets.0)
            close(sockets.1)
        }
    }

    /// Copies what `source` sends to `sink` while not frozen, until either closes or the relay
    /// stops.
    private func pump(from source: Int32, to sink: Int32, _ pair: Pair) {
        defer { pair.end() }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !isStopped {
            if isFrozen {
                usleep(20_000)
                continue
            }
            var ready = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            // Frozen while this waited: what arrived was sent after the freeze, so it stays
            // unread (else a request sent just after `setFrozen(true)` could still be answered).
            if isFrozen { continue }
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { write(sink, $0.baseAddress! + sent, count - sent) }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == count else { break }
        }
        shutdown(sink, Int32(SHUT_RDWR))
        shutdown(source, Int32(SHUT_RDWR))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket call that failed, with the system's reason.
    public struct RelayError: Error, CustomStringConvertible {
        public let description: String

        init(call: String) {
            description = "relay: \(call) failed: \(String(cString: strerror(errno)))"
        }
    }
}
