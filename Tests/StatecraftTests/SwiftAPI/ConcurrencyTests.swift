import TestSupport
import Testing

@testable import Statecraft

/// Many tasks sending to one machine: no data races (`make test-tsan` runs these under the thread
/// sanitizer), one result per input, run to completion across senders, and observers that come
/// and go see exactly the results published while they are registered.
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

    /// A machine whose states say what it did last: `busy(with: n)` from ping `n` to its pong,
    /// then `idle(after: n)`. The states an observer saw thus name the results it saw.
    enum Relay: MachineState, Hashable, CustomStringConvertible {
        case idle(after: Int)
        case busy(with: Int)

        var description: String {
            switch self {
            case .idle(let id): "idle after \(id)"
            case .busy(let id): "busy with \(id)"
            }
        }

        enum Slot { case idle, busy }

        var slot: Slot {
            switch self {
            case .idle: .idle
            case .busy: .busy
            }
        }
    }

    /// A result, as these tests compare them: its input and argument.
    enum Step: Hashable, CustomStringConvertible {
        case ping(Int)
        case pong(Int)

        init(_ result: StateTransitionResult<Relay>) {
            if let id = result.input.argument(of: Ping.ping) {
                self = .ping(id)
            } else {
                self = .pong(result.input.argument(of: Ping.pong) ?? .min)
            }
        }

        /// The state the machine enters on this step.
        var entered: Relay {
            switch self {
            case .ping(let id): .busy(with: id)
            case .pong(let id): .idle(after: id)
            }
        }

        var description: String {
            switch self {
            case .ping(let id): "ping \(id)"
            case .pong(let id): "pong \(id)"
            }
        }
    }

    func relay() -> TypedStateMachine<Relay, Void> {
        TypedStateMachine(initial: Relay.idle(after: -1)) {
            Ping.ping.given(.idle).transition(to: .busy) { .busy(with: $0.argument) }
                .performingSideEffect { $0.send(Ping.pong, $0.argument) }
            Ping.pong.given(.busy).transition(to: .idle) { .idle(after: $0.argument) }
        }
    }

    /// One round of an observer task: the pings it sent before registering, while registered and
    /// after cancelling, and what its callbacks and streams saw.
    struct Round: Sendable {
        let before: Int
        let during: Int
        let after: Int
        let results: Log<Step>
        let states: Log<Relay>
        let streamedResults: [Step]
        let streamedStates: [Relay]
    }

    static let rounds = 20

    /// `nil` when `seen` is the unbroken run of `all` (whose elements `index` locates) that
    /// starts at `earliest` or later, at a ping or an idle state (between two runs of the
    /// machine), ends before `limit`, and includes `required`; else what is wrong.
    static func problem<T: Hashable & CustomStringConvertible>(
        with seen: [T], in all: [T], at index: [T: Int], from earliest: Int, before limit: Int, including required: [T]
    ) -> String? {
        guard let first = seen.first else { return "saw nothing" }
        guard let start = index[first] else { return "saw \(first), which the permanent observers did not" }
        if start < earliest { return "starts at \(first), from before registering" }
        if !start.isMultiple(of: 2) { return "starts at \(first), inside a run of the machine" }
        guard start + seen.count <= all.count, all[start..<(start + seen.count)].elementsEqual(seen) else {
            return "is not an unbroken run: \(seen.prefix(8).map(\.description))..."
        }
        if start + seen.count > limit { return "goes on to \(seen.last!), after cancelling" }
        if let missing = required.first(where: { !seen.contains($0) }) { return "misses \(missing)" }
        return nil
    }

    /// Waits until `condition` holds, or records an issue after ten seconds.
    static func wait(until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited ten seconds in vain", sourceLocation: sourceLocation)
                return
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// While tasks send, other tasks register callbacks and streams, send, and cancel or drop
    /// them: each observer sees one unbroken run of what the permanent observers see, in order,
    /// from its registration (never a result from before it) to its cancellation (never one
    /// published after it), and its own inputs' results in between; the registry is empty
    /// again once they are all gone.
    @Test(.timeLimit(.minutes(2)))
    func observersAndStreamsComeAndGoWhileTasksSend() async throws {
        let machine = relay()
        var everything: AsyncStream<StateTransitionResult<Relay>>? = machine.results
        let allStates = Log<Relay>()
        let permanent = machine.observeStates { allStates.append($0) }
        let rounds = Log<Round>()

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.senders {
                group.addTask {
                    for index in 0..<Self.inputsPerSender { machine.send(Ping.ping, task * 10_000 + index) }
                }
                group.addTask {
                    for round in 0..<Self.rounds {
                        let before = 1_000_000 + task * 10_000 + round * 10
                        let (during, after) = (before + 1, before + 2)
                        machine.send(Ping.ping, before)
                        let results = Log<Step>()
                        let states = Log<Relay>()
                        let resultObservation = machine.observeResults { results.append(Step($0)) }
                        let stateObservation = machine.observeStates { states.append($0) }
                        let resultStream = machine.results
                        let stateStream = machine.states
                        machine.send(Ping.ping, during)
                        let streamedResults = await resultStream.elements(through: { Step($0) == .pong(during) }).map(Step.init)
                        let streamedStates = await stateStream.elements(through: { $0 == .idle(after: during) })
                        // Another task may be calling callbacks for this task's results: they
                        // come soon, and cancelling before they come would drop them.
                        await Self.wait { results.elements.contains(.pong(during)) && states.elements.contains(.idle(after: during)) }
                        resultObservation.cancel()
                        stateObservation.cancel()
                        machine.send(Ping.ping, after)
                        rounds.append(
                            Round(
                                before: before, during: during, after: after, results: results, states: states,
                                streamedResults: streamedResults, streamedStates: streamedStates))
                    }
                }
            }
        }

        // What the permanent observers saw: each ping once, its pong right after it.
        let pings = Self.senders * (Self.inputsPerSender + 3 * Self.rounds)
        let published = await everything!.elements(count: 2 * pings)
        #expect(published.allSatisfy { $0.isSuccess })
        let steps = published.map(Step.init)
        #expect(steps.count == 2 * pings)
        #expect(Set(steps).count == steps.count)
        for pair in stride(from: 0, to: steps.count - 1, by: 2) {
            guard case .ping(let id) = steps[pair] else {
                Issue.record("result \(pair) is \(steps[pair]), not a ping")
                break
            }
            #expect(steps[pair + 1] == .pong(id))
        }
        let states = [Relay.idle(after: -1)] + steps.map(\.entered)
        let permanentStates = allStates.elements
        let statesAgree = permanentStates == states
        #expect(statesAgree, "the permanent states callback saw \(permanentStates.count) states, not the \(states.count) of the results")

        let stepAt = Dictionary(steps.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let stateAt = Dictionary(states.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let finished = rounds.elements
        #expect(finished.count == Self.senders * Self.rounds)
        for round in finished {
            let (before, during, after) = (round.before, round.during, round.after)
            // Callbacks: from the first result after registering (after `before`'s pong), with
            // `during`'s, until cancelling (before `after`'s ping; results not called back by
            // then are dropped, so the last may be any).
            let results = Self.problem(
                with: round.results.elements, in: steps, at: stepAt, from: (stepAt[.pong(before)] ?? .max) + 1,
                before: stepAt[.ping(after)] ?? -1, including: [.ping(during), .pong(during)])
            #expect(results == nil, "round \(before), results callback")
            // The state at registration (an idle one, `before`'s or later), then every state entered.
            let entered = Self.problem(
                with: round.states.elements, in: states, at: stateAt, from: stateAt[.idle(after: before)] ?? .max,
                before: stateAt[.busy(with: after)] ?? -1, including: [.busy(with: during), .idle(after: during)])
            #expect(entered == nil, "round \(before), states callback")
            // Streams: the same, up to `during`'s pong, where the round stopped reading them.
            let streamedResults = Self.problem(
                with: round.streamedResults, in: steps, at: stepAt, from: (stepAt[.pong(before)] ?? .max) + 1,
                before: (stepAt[.pong(during)] ?? -2) + 1, including: [.ping(during), .pong(during)])
            #expect(streamedResults == nil, "round \(before), results stream")
            let streamedStates = Self.problem(
                with: round.streamedStates, in: states, at: stateAt, from: stateAt[.idle(after: before)] ?? .max,
                before: (stateAt[.idle(after: during)] ?? -2) + 1, including: [.busy(with: during), .idle(after: during)])
            #expect(streamedStates == nil, "round \(before), states stream")
        }

        // Cancelled callbacks stay silent; once every observer is gone, nothing is observed.
        let counts = finished.map { ($0.results.elements.count, $0.states.elements.count) }
        machine.send(Ping.ping, -2)
        #expect(allStates.elements.suffix(2) == [.busy(with: -2), .idle(after: -2)])
        #expect(finished.map { ($0.results.elements.count, $0.states.elements.count) }.elementsEqual(counts, by: ==))
        permanent.cancel()
        everything = nil
        #expect(machine.observers.lock.withLock { !machine.observers.isObserved })
        machine.send(Ping.ping, -3)
        #expect(allStates.elements.count == states.count + 2)
    }

    @Test(.timeLimit(.minutes(2)))
    func predicateMachinesTakeConcurrentRequests() async {
        enum Light: Transitionable {
            case red, green
            func shouldTransition(to next: Light) -> Bool { self != next }
        }
        let light = PredicateStateMachine(initialState: Light.red)
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
