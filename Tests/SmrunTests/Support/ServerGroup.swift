import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Several `smrun serve` processes on one store (a PostgreSQL database), as behind a load
/// balancer that knows nothing of their health: each request goes to one picked at random, a
/// dead one included.
final class ServerGroup: @unchecked Sendable {
    private let lock = NSLock()
    private var members: [ServerProcess]

    /// Starts `count` servers of `machines` on `store`, one after the other.
    init(count: Int, machines: [String], store: String) throws {
        members = try (0..<count).map { _ in try ServerProcess(machines, store: store) }
    }

    var count: Int { lock.withLock { members.count } }

    subscript(index: Int) -> ServerProcess { lock.withLock { members[index] } }

    /// Any of the servers, picked at random.
    func random() -> ServerProcess {
        lock.withLock { members.randomElement()! }
    }

    /// Starts server `index` again on the same store and machines (after a kill), in its place.
    func restart(_ index: Int) throws {
        let restarted = try self[index].restarted()
        lock.withLock { members[index] = restarted }
    }

    /// The histories of `machine`'s instances `keys`, each read through a server picked at random.
    func histories(_ machine: String, _ keys: [String]) throws -> [String: [[String: Any]]] {
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var histories: [String: [[String: Any]]] = [:]
        }
        let collected = Collected()
        let errors = concurrently(keys.count, threads: 8) { index in
            let history = try self.random().history(machine, keys[index])
            collected.lock.withLock { collected.histories[keys[index]] = history }
        }
        guard errors.isEmpty else { throw HistoriesUnread(errors: errors) }
        return collected.histories
    }

    /// Every instance of `machine`, by key, listed through a server picked at random.
    func instances(_ machine: String) throws -> [String: [String: Any]] {
        let listed = try random().instances(machine, query: "limit=1000")
        return Dictionary(listed.map { ($0["key"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    struct HistoriesUnread: Error, CustomStringConvertible {
        var errors: [String]
        var description: String { "\(errors.count) histories could not be read: \(errors.prefix(5))" }
    }

    /// Stops every server with SIGTERM; the errors of those that did not exit 0 within 30 s.
    func stopAll() -> [String] {
        lock.withLock { members }.compactMap { server in
            let end = server.stop(SIGTERM)
            guard let end, !end.signalled, end.status == 0 else { return "\(server.pid): \(String(describing: end)) \(server.errorText)" }
            return nil
        }
    }
}
