import Statecraft
import TestSupport
import Testing

/// Many tasks sending to one machine: no data races (run under `swift test --sanitize=thread`),
/// one result per input, and run to completion across senders.
struct ConcurrencyTests {
    enum Counter: MachineState {
        case counting
    }

    struct Tally: Sendable {
        var pings = 0
        var pongs = 0
    }

    enum Ping {
        static let ping = Input("ping", taking: Int.self)
        static let pong = Input("pong", taking: Int.self)
    }

    static let senders = 8
    static let inputsPerSender = 250

    func machine() -> TypedStateMachine<Counter, Tally> {
        TypedStateMachine(initial: Counter.counting, context: Tally()) {
            Ping.ping | .counting => .counting | { step in
                step.context.pings += 1
                step.send(Ping.pong, step.argument)
            }
            Ping.pong | .counting => .counting | { $0.context.pongs += 1 }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func concurrentSendersEachGetExactlyOneResultAndRunToCompletion() async {
        let machine = machine()
        let stream = machine.results
        let called = Log<String>()
        let observation = machine.observeResults { called.append("\($0.input.name) \($0.input.argument)") }
        let total = Self.senders * Self.inputsPerSender

        let returned = await withTaskGroup(of: [Int].self) { group in
            for sender in 0..<Self.senders {
                group.addTask {
                    var accepted: [Int] = []
                    for index in 0..<Self.inputsPerSender {
                        let id = sender * 10_000 + index
                        if let argument = machine.send(Ping.ping, id).transition?.input.argument(of: Ping.ping) {
                            accepted.append(argument)
                        }
                        _ = machine.state
                    }
                    return accepted
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }

        #expect(returned.count == total)
        #expect(Set(returned).count == total)
        let published = await stream.elements(count: 2 * total)
        #expect(published.count == 2 * total)
        #expect(published.allSatisfy { $0.isSuccess })
        // Each ping's queued pong runs right after it, before any other sender's ping.
        for pair in stride(from: 0, to: published.count, by: 2) {
            #expect(published[pair].input.argument(of: Ping.ping) == published[pair + 1].input.argument(of: Ping.pong))
        }
        #expect(machine.context.pings == total)
        #expect(machine.context.pongs == total)
        withExtendedLifetime(observation) {}
        #expect(called.elements.count == 2 * total)
        #expect(Set(called.elements).count == 2 * total)
    }

    @Test(.timeLimit(.minutes(2)))
    func observersAndStreamsComeAndGoWhileTasksSend() async {
        let machine = machine()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<Self.senders {
                group.addTask {
                    for index in 0..<Self.inputsPerSender { machine.send(Ping.ping, sender * 10_000 + index) }
                }
                group.addTask {
                    for _ in 0..<20 {
                        let seen = Log<Counter>()
                        let observation = machine.observeStates { seen.append($0) }
                        let states = machine.states
                        #expect(await states.elements(count: 1) == [.counting])
                        observation.cancel()
                        #expect(seen.elements.allSatisfy { $0 == .counting })
                    }
                }
            }
        }
        #expect(machine.context.pings == Self.senders * Self.inputsPerSender)
    }

    @Test(.timeLimit(.minutes(2)))
    func predicateMachinesTakeConcurrentRequests() async {
        enum Light: Transitionable {
            case red, green
            func shouldTransition(to next: Light) -> Bool { self != next }
        }
        let light = StateMachine(initialState: Light.red)
        let transitions = light.transitions
        let moved = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.senders {
                group.addTask {
                    var moved = 0
                    for index in 0..<Self.inputsPerSender where light.transition(to: (task + index).isMultiple(of: 2) ? .green : .red) {
                        moved += 1
                    }
                    return moved
                }
            }
            return await group.reduce(0, +)
        }
        let published = await transitions.elements(count: moved)
        #expect(published.count == moved)
        for (index, transition) in published.enumerated() {
            #expect(transition.from != transition.to)
            if index > 0 { #expect(transition.from == published[index - 1].to) }
        }
    }
}
