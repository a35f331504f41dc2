import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that each send a run of `push N` inputs, one at a time, each to an instance and
/// through a server picked at random, as users behind a load balancer do. An input whose
/// outcome is unknown (no whole answer, or a 503) is sent again with the same Idempotency-Key,
/// after its `Retry-After`, through another server picked at random, until it is answered 200.
/// Each argument is unique, `client * 100_000 + number`, so that history says which input of
/// which client it is.
final class InputLoad: @unchecked Sendable {
    let machine: String
    private let lock = NSLock()
    private var answeredByKey: [String: [Int]] = [:]
    private var answeredCount = 0
    private var unavailableCount = 0
    private var unansweredCount = 0
    private var failureMessages: [String] = []
    private let done = DispatchGroup()

    /// Starts `clients` clients on threads of their own, each sending `inputsPerClient` inputs
    /// to `machine`'s instances `keys`: half of them to one of its own ten keys, so that a client
    /// sends several inputs to one instance, the others to any key.
    init(clients: Int, inputsPerClient: Int, keys: [String], machine: String = "ledger", servers: ServerGroup) {
        self.machine = machine
        for client in 0..<clients {
            done.enter()
            Thread { [self] in
                var random = SplitMix(seed: UInt64(client))
                let own = (0..<10).map { _ in keys.randomElement(using: &random)! }
                for number in 0..<inputsPerClient {
                    let key = (number % 2 == 0 ? own : keys).randomElement(using: &random)!
                    send(key: key, arg: client * 100_000 + number, idempotencyKey: "client\(client)-\(number)", servers: servers)
                }
                done.leave()
            }.start()
        }
    }

    private func send(key: String, arg: Int, idempotencyKey: String, servers: ServerGroup) {
        let deadline = ContinuousClock.now + .seconds(180)
        let body = Array(#"{"input":"push","arg":\#(arg)}"#.utf8)
        while ContinuousClock.now < deadline {
            let server = servers.random()
            do {
                let answer = try server.request(
                    "POST", "/machines/\(machine)/instances/\(key)/inputs", body: body, headers: [("Idempotency-Key", idempotencyKey)])
                if answer.status == 200 {
                    lock.withLock {
                        answeredByKey[key, default: []].append(arg)
                        answeredCount += 1
                    }
                    return
                }
                guard answer.isProblem(503), let retryAfter = answer.header("Retry-After").flatMap(Int.init) else {
                    fail("\(idempotencyKey) to \(key): \(answer.status) \(answer.text.prefix(300))")
                    return
                }
                lock.withLock { unavailableCount += 1 }
                sleep(UInt32(retryAfter))
            } catch {
                // The server died, or is down: the outcome is unknown.
                lock.withLock { unansweredCount += 1 }
                usleep(20_000)
            }
        }
        fail("\(idempotencyKey) to \(key) was never answered")
    }

    private func fail(_ message: String) {
        lock.withLock { failureMessages.append(message) }
    }

    /// Waits for every client to finish; whether they did within `timeout`.
    func wait(timeout: Duration) -> Bool {
        done.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) == .success
    }

    /// How many inputs were answered 200 so far.
    var answered: Int { lock.withLock { answeredCount } }
    /// How many answers were 503 problems with `Retry-After`.
    var unavailable: Int { lock.withLock { unavailableCount } }
    /// How many requests got no whole answer (a connection refused or cut).
    var unanswered: Int { lock.withLock { unansweredCount } }
    /// Inputs answered otherwise than 200 or 503, or never answered.
    var failures: [String] { lock.withLock { failureMessages } }

    /// Checks the instances' histories against the answers: every input answered is applied
    /// exactly once (nothing lost, nothing twice, nothing unanswered applied), and each
    /// client's inputs to an instance in the order they were answered.
    func expectAppliedExactlyOnceInOrder(_ histories: [String: [[String: Any]]], sourceLocation: SourceLocation = #_sourceLocation) {
        let answered = lock.withLock { answeredByKey }
        for (key, history) in histories {
            let pushed = history.filter { $0["input"] as? String == "push" }.compactMap { JSONValue.int($0["arg"]) }
            let sent = answered[key] ?? []
            #expect(pushed.sorted() == sent.sorted(), "\(key): answered \(sent.count) inputs, history holds \(pushed.count)", sourceLocation: sourceLocation)
            let pushedByClient = Dictionary(grouping: pushed) { $0 / 100_000 }
            let sentByClient = Dictionary(grouping: sent) { $0 / 100_000 }
            for (client, arguments) in sentByClient where pushedByClient[client] != arguments {
                Issue.record("\(key): client \(client)'s inputs answered as \(arguments), applied as \(pushedByClient[client] ?? [])", sourceLocation: sourceLocation)
            }
        }
        #expect(Set(answered.keys).isSubset(of: Set(histories.keys)), "inputs answered to instances left unchecked", sourceLocation: sourceLocation)
    }
}

/// Runs `body(index)` for each index below `count` on `threads` threads (blocking requests, so
/// not on the cooperative pool); the errors it threw.
func concurrently(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var errors: [String] = []
    }
    let shared = Shared()
    let done = DispatchGroup()
    for _ in 0..<threads {
        done.enter()
        Thread {
            while true {
                let index = shared.lock.withLock {
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard index < count else { break }
                do {
                    try body(index)
                } catch {
                    shared.lock.withLock { shared.errors.append("\(index): \(error)") }
                }
            }
            done.leave()
        }.start()
    }
    done.wait()
    return shared.lock.withLock { shared.errors }
}
