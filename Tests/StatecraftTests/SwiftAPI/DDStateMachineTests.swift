import Statecraft
import Synchronization
import TestSupport
import Testing

// MARK: DDStateMachine's README example, rewritten with Statecraft

/// A synchronisation process: `sync` starts the synchronisation work unless the last one
/// succeeded less than 30 seconds ago. The clock is injected, so tests drive the cache expiry.
final class SyncProcess: Sendable {
    enum SyncStatus: MachineState {
        case notSynced, inProgress, synced, failed
    }

    /// Extended state: when the synchronised data expires.
    struct SyncExtraState: Sendable {
        var expiryDate: ContinuousClock.Instant?
    }

    enum SyncEvent {
        static let sync = Input("sync")
        /// The synchronisation work's result.
        static let synced = Input("synced", taking: Bool.self)
    }

    let machine: TypedStateMachine<SyncStatus, SyncExtraState>

    init(
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        doSync: @escaping @Sendable () async -> Bool
    ) {
        machine = TypedStateMachine(initial: .notSynced, context: SyncExtraState()) {
            SyncEvent.sync | .notSynced => .inProgress

            // In progress, the work runs; its result chooses the next state.
            WorkState(.inProgress, reporting: SyncEvent.synced) { _, _ in await doSync() }
            SyncEvent.synced | .inProgress => .synced | .when { $0.argument } | { $0.context.expiryDate = now() + .seconds(30) }
            SyncEvent.synced | .inProgress => .failed | .when { !$0.argument }

            SyncEvent.sync | .synced => .inProgress | .when { $0.context.expiryDate.map { $0 < now() } ?? true }
            SyncEvent.sync | .failed => .inProgress
        }
    }

    /// For observing: the current status, then every change.
    var currentStatus: AsyncStream<SyncStatus> { machine.states }

    func sync() {
        machine.send(SyncEvent.sync)
    }
}

/// A time that moves only when told to: what the example injects as `now`.
final class SettableNow: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    func advance(by duration: Duration) {
        instant.withLock { $0 += duration }
    }
}

/// Work that finishes when a test lets it, with the result the test gives.
final class Gate: Sendable {
    private let state = Mutex<(waiting: [CheckedContinuation<Bool, Never>], results: [Bool])>(([], []))

    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready: Bool? = state.withLock { state in
                if state.results.isEmpty {
                    state.waiting.append(continuation)
                    return nil
                }
                return state.results.removeFirst()
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func finish(with result: Bool) {
        let waiting: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.results.append(result)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiting?.resume(returning: result)
    }
}

// MARK: Tests

/// DDStateMachine's README example and the scenarios of its StateMachineTests.
struct DDStateMachineTests {
    typealias SyncStatus = SyncProcess.SyncStatus

    @Test(.timeLimit(.minutes(1)))
    func theSyncProcessHonoursItsThirtySecondCache() async {
        let clock = SettableNow()
        let work = Gate()
        let process = SyncProcess(now: { clock.now }, doSync: { await work.wait() })
        let statuses = process.currentStatus

        process.sync()
        work.finish(with: true)
        #expect(await statuses.elements(through: { $0 == .synced }) == [.notSynced, .inProgress, .synced])

        clock.advance(by: .seconds(10))
        let fresh = process.machine.send(SyncProcess.SyncEvent.sync)
        #expect(fresh.error?.kind == .guardRejected)
        #expect(process.machine.state == .synced)

        clock.advance(by: .seconds(21))
        process.sync()
        work.finish(with: false)
        #expect(await statuses.elements(through: { $0 == .failed }) == [.inProgress, .failed])

        process.sync()
        work.finish(with: true)
        #expect(await statuses.elements(through: { $0 == .synced }) == [.inProgress, .synced])
        #expect(process.machine.context.expiryDate == clock.now + .seconds(30))
    }

    enum TestState: MachineState {
        case state1, state2, state3
    }

    struct TestExtendedState: Sendable {
        var testField = false
        var number = 0
        var actions = 0
    }

    enum TestEvent {
        static let goState1 = Input("goState1")
        static let goState2 = Input("goState2")
        static let goState3 = Input("goState3")
        static let workDone = Input("workDone", taking: Bool.self)
    }

    @Test func anActionSetsAFlagThatALaterGuardReads() {
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            TestEvent.goState2 | .state1 => .state2 | { $0.context.testField = true }
            TestEvent.goState1 | .state2 => .state1 | .when { $0.context.testField }
        }
        machine.send(TestEvent.goState2)
        #expect(machine.send(TestEvent.goState1).isSuccess)
        #expect(machine.state == .state1)
    }

    @Test func aFalseGuardLeavesTheStateUnchanged() {
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            TestEvent.goState2 | .state1 => .state2 | .when { _ in false }
        }
        let states = Log<TestState>()
        let observation = machine.observeStates { states.append($0) }

        let result = machine.send(TestEvent.goState2)

        withExtendedLifetime(observation) {}
        #expect(result.error?.kind == .guardRejected)
        #expect(result.error?.message == "every guard of 'goState2' from 'state1' is false")
        #expect(machine.state == .state1)
        #expect(states.elements == [.state1])
    }

    @Test func anUnknownEventLeavesTheStateUnchanged() {
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            TestEvent.goState2 | .state1 => .state2
        }
        #expect(machine.send(TestEvent.goState3).error?.kind == .noTransition)
        #expect(machine.state == .state1)
    }

    @Test func threeActionsOnOneTransitionAllRunInOrder() {
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            TestEvent.goState2.given(.state1).transition(to: .state2)
                .performingSideEffect { $0.context.number = $0.context.number * 10 + 1 }
                .performingSideEffect { $0.context.number = $0.context.number * 10 + 2 }
                .performingSideEffect { $0.context.number = $0.context.number * 10 + 3 }
        }
        machine.send(TestEvent.goState2)
        #expect(machine.context.number == 123)
    }

    @Test(.timeLimit(.minutes(1)))
    func workStatesChainWithWorkSeeingTheActionsValues() async {
        let seen = Log<Int>()
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            WorkState(.state2, reporting: TestEvent.workDone) { _, context in
                seen.append(context.number)
                return true
            }
            WorkState(.state3, reporting: TestEvent.workDone) { _, context in
                seen.append(context.number)
                return true
            }
            TestEvent.goState2 | .state1 => .state2 | { $0.context.number = 2 }
            TestEvent.workDone | .state2 => .state3 | .when { $0.argument } | { $0.context.number = 3 }
            TestEvent.workDone | .state3 => .state1 | .when { $0.argument }
        }
        let states = machine.states

        machine.send(TestEvent.goState2)

        #expect(await states.elements(count: 4) == [.state1, .state2, .state3, .state1])
        #expect(seen.elements == [2, 3])
    }

    @Test(.timeLimit(.minutes(1)))
    func anInitialWorkStateRunsItsWork() async {
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            WorkState(.state1, reporting: TestEvent.workDone) { _, _ in true }
            TestEvent.workDone | .state1 => .state2
        }
        #expect(await machine.states.elements(through: { $0 == .state2 }).last == .state2)
    }

    @Test(.timeLimit(.minutes(1)))
    func theLastStateOfAnAcyclicMachineRunsItsWork() async {
        let ran = Gate()
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            WorkState(.state2, reporting: TestEvent.workDone) { _, _ in
                ran.finish(with: true)
                return true
            }
            TestEvent.goState2 | .state1 => .state2
        }
        machine.send(TestEvent.goState2)
        #expect(await ran.wait())
        #expect(machine.state == .state2)
    }

    @Test(.timeLimit(.minutes(1)))
    func workWhoseStateWasLeftIsCancelledAndItsResultDiscarded() async {
        let release = Gate()
        let cancelled = Gate()
        let machine = TypedStateMachine(initial: TestState.state1, context: TestExtendedState()) {
            WorkState(.state2, reporting: TestEvent.workDone) { _, _ in
                let result = await release.wait()
                cancelled.finish(with: Task.isCancelled)
                return result
            }
            TestEvent.goState2 | .state1 => .state2
            TestEvent.goState1 | .state2 => .state1
            TestEvent.workDone | .state2 => .state3
        }
        let results = machine.results
        machine.send(TestEvent.goState2)
        machine.send(TestEvent.goState1)
        release.finish(with: true)
        #expect(await cancelled.wait())

        // Back in state2, whose new work's result is the only one taken.
        machine.send(TestEvent.goState2)
        release.finish(with: true)
        #expect(await cancelled.wait() == false)

        let inputs = await results.elements(through: { $0.input.is(TestEvent.workDone) }).map(\.input.name)
        #expect(inputs == ["goState2", "goState1", "goState2", "workDone"])
        #expect(machine.state == .state3)
    }
}
