import Statecraft
import Synchronization
import TestSupport
import Testing

// MARK: Gauntlet's README examples, rewritten with Statecraft

enum TrafficLight: Transitionable {
    case red, yellow, green

    func shouldTransition(to next: TrafficLight) -> Bool {
        switch (self, next) {
        case (.red, .green), (.green, .yellow), (.yellow, .red): true
        default: false
        }
    }
}

/// Gauntlet's `MyClass`: reacts to the light's changes.
final class Crossing: Sendable {
    let stateMachine = PredicateStateMachine(initialState: TrafficLight.red)
    let signals = Log<String>()
    private let subscription: Observation

    init() {
        let signals = signals
        subscription = stateMachine.observeTransitions { _, to in
            switch to {
            case .red: signals.append("stop")
            case .yellow: signals.append("slow")
            case .green: signals.append("go")
            }
        }
    }

    func timerTriggered(light: TrafficLight) {
        stateMachine.transition(to: light)
    }
}

/// The same, with the property wrapper: assignments go through `transition(to:)`, and `$light`
/// is the stream of transitions.
final class WrappedCrossing {
    @PredicateStateMachine var light: TrafficLight = .red

    func timerTriggered(light: TrafficLight) {
        self.light = light
    }
}

/// A JSON payload and an error that can cross threads.
struct JSON: Sendable, Equatable {
    let fields: [String: String]
}

struct ConnectionError: Error, Equatable {
    let reason: String
}

/// Gauntlet's `Connection`: states with associated values.
enum Connection: Transitionable {
    case fetch(taskID: Int), success(JSON), failure(ConnectionError), cancel

    func shouldTransition(to next: Connection) -> Bool {
        switch (self, next) {
        case (.fetch, .success), (.fetch, .failure), (_, .cancel): true
        default: false
        }
    }
}

/// What a connection's observer did with each change.
enum Handled: Equatable {
    case processed(JSON), alerted(ConnectionError), cancelledTask(Int)
}

// MARK: Tests

/// Gauntlet's README examples and the scenarios of its tests.
struct GauntletTests {
    @Test func theTrafficLightCyclesAndIgnoresInvalidChanges() {
        let crossing = Crossing()
        crossing.timerTriggered(light: .green)
        crossing.timerTriggered(light: .red)  // green -> red is not allowed
        crossing.timerTriggered(light: .yellow)
        crossing.timerTriggered(light: .red)
        #expect(crossing.stateMachine.state == .red)
        #expect(crossing.signals.elements == ["go", "slow", "stop"])
    }

    @Test func transitionAppliesValidTargetsAtOnceAndReportsWhetherItMoved() {
        let machine = PredicateStateMachine(initialState: TrafficLight.red)
        #expect(machine.transition(to: .green))
        #expect(machine.state == .green)
        #expect(!machine.transition(to: .red))
        #expect(machine.state == .green)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSequenceWithInvalidTargetsPublishesOnlyTheValidOnesInOrder() async {
        let machine = PredicateStateMachine(initialState: TrafficLight.red)
        let transitions = machine.transitions
        for light in [TrafficLight.green, .green, .red, .yellow, .green, .red, .red, .green] {
            machine.transition(to: light)
        }
        let published = await transitions.elements(count: 4)
        #expect(published.map(\.from) == [.red, .green, .yellow, .red])
        #expect(published.map(\.to) == [.green, .yellow, .red, .green])
        #expect(machine.state == .green)
    }

    @Test func aTransitionRequestedByAnObserverIsPublishedAfterTheObserverReturns() {
        let machine = PredicateStateMachine(initialState: TrafficLight.red)
        let inObserver = Mutex(false)
        let calls = Log<String>()
        let observation = machine.observeTransitions { from, to in
            let nested = inObserver.withLock { nested in
                defer { nested = true }
                return nested
            }
            calls.append("\(from)->\(to)\(nested ? " nested" : "")")
            if to == .green {
                machine.transition(to: .yellow)
                // Applied at once, published later.
                calls.append("state \(machine.state)")
            }
            inObserver.withLock { $0 = false }
        }
        machine.transition(to: .green)
        withExtendedLifetime(observation) {}
        #expect(calls.elements == ["red->green", "state yellow", "green->yellow"])
    }

    /// A connection fetching task 7, handling its changes as Gauntlet's README does.
    func connection() -> (PredicateStateMachine<Connection>, Log<Handled>, Observation) {
        let stateMachine = PredicateStateMachine(initialState: Connection.fetch(taskID: 7))
        let handled = Log<Handled>()
        let subscription = stateMachine.observeTransitions { from, to in
            switch (from, to) {
            case (_, .success(let json)): handled.append(.processed(json))
            case (_, .failure(let error)): handled.append(.alerted(error))
            case (.fetch(let task), .cancel): handled.append(.cancelledTask(task))
            default: break
            }
        }
        return (stateMachine, handled, subscription)
    }

    @Test func aFetchThatSucceedsHandsOverItsJSON() {
        let (stateMachine, handled, subscription) = connection()
        let json = JSON(fields: ["user": "ada"])
        #expect(stateMachine.transition(to: .success(json)))
        #expect(!stateMachine.transition(to: .fetch(taskID: 8)))  // success -> fetch is not allowed
        #expect(!stateMachine.transition(to: .failure(ConnectionError(reason: "late"))))
        withExtendedLifetime(subscription) {}
        #expect(handled.elements == [.processed(json)])
        guard case .success(let kept) = stateMachine.state else {
            Issue.record("not success: \(stateMachine.state)")
            return
        }
        #expect(kept == json)
    }

    @Test func aFetchThatFailsHandsOverItsError() {
        let (stateMachine, handled, subscription) = connection()
        stateMachine.transition(to: .failure(ConnectionError(reason: "offline")))
        stateMachine.transition(to: .cancel)  // allowed from anywhere; no task left to cancel
        withExtendedLifetime(subscription) {}
        #expect(handled.elements == [.alerted(ConnectionError(reason: "offline"))])
    }

    @Test func cancellingAFetchCancelsItsTask() {
        let (stateMachine, handled, subscription) = connection()
        stateMachine.transition(to: .cancel)
        #expect(!stateMachine.transition(to: .success(JSON(fields: [:]))))
        withExtendedLifetime(subscription) {}
        #expect(handled.elements == [.cancelledTask(7)])
    }

    @Test(.timeLimit(.minutes(1)))
    func thePropertyWrapperTransitionsOnAssignmentAndProjectsTheStream() async {
        let crossing = WrappedCrossing()
        let changes = crossing.$light
        #expect(crossing.light == .red)

        crossing.timerTriggered(light: .yellow)  // red -> yellow is not allowed
        #expect(crossing.light == .red)
        crossing.timerTriggered(light: .green)
        #expect(crossing.light == .green)
        crossing.light = .yellow

        let published = await changes.elements(count: 2)
        #expect(published.map(\.to) == [.green, .yellow])
    }
}
