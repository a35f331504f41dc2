@testable import Statecraft
import TestSupport
import Testing

/// The order of state changes, effects, queued inputs and observers, as the typed API
/// documents it.
struct OrderingTests {
    enum Phase: MachineState {
        case idle, a, b, c, d, done
    }

    enum Go {
        static let a = Input("a")
        static let b = Input("b")
        static let c = Input("c")
        static let d = Input("d")
        static let finish = Input("finish")
        static let reset = Input("reset")
        static let loop = Input("loop", taking: Int.self)
    }

    @Test func theStateChangesBeforeEffectsRun() {
        let seen = Log<String>()
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a | { step in seen.append("\(step.from)->\(step.to) while \(step.machine.state)") }
        }
        machine.send(Go.a)
        #expect(seen.elements == ["idle->a while a"])
    }

    @Test func effectsChangeTheLiveContextInOrder() {
        let seen = Log<String>()
        let machine = TypedStateMachine(initial: Phase.idle, context: [String]()) {
            Go.a | .idle => .a | { $0.context.append("first") } | { step in
                seen.append("step sees \(step.context), machine sees \(step.machine.context)")
                step.context.append("second")
            }
            Go.b | .a => .b | .when { $0.context == ["first", "second"] }
        }
        machine.send(Go.a)
        #expect(seen.elements == [#"step sees ["first"], machine sees ["first"]"#])
        #expect(machine.context == ["first", "second"])
        #expect(machine.send(Go.b).isSuccess)
    }

    @Test func inputsAreTheSameWhereverTheyAreMade() {
        let made = Input("loop", taking: Int.self)
        #expect(made == Go.loop)
        #expect(made.hashValue == Go.loop.hashValue)
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.loop | .idle => .a
        }
        let result = machine.send(made, 3)
        #expect(result.transition?.to == .a)
        #expect(result.input.is(Go.loop) && result.input.argument(of: Go.loop) == 3)
        #expect(!result.input.is(Input("loop")) && !result.input.is(Input("loop", taking: String.self)))
        #expect(machine.send(Input("never declared")).error?.kind == .noTransition)
    }

    @Test func queuedInputsRunFirstInFirstOutBeforeSendReturns() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a | { $0.send(Go.b) } | { $0.send(Go.c) }
            Go.b | .a => .b | { $0.send(Go.d) }
            Go.c | .b => .c
            Go.d | .c => .d
        }
        let results = Log<String>()
        let observation = machine.observeResults { results.append("\($0.input.name):\($0.transition.map { "\($0.to)" } ?? "failed")") }

        let result = machine.send(Go.a)

        withExtendedLifetime(observation) {}
        #expect(result.transition?.to == .a)
        #expect(machine.state == .d)
        #expect(results.elements == ["a:a", "b:b", "c:c", "d:d"])
    }

    @Test func aLivelockIsAStepLimitErrorAndTheMachineGoesOn() {
        let machine = TypedStateMachine(initial: Phase.idle, stepLimit: 100) {
            Go.loop | .idle => .idle | { $0.send(Go.loop, $0.argument + 1) }
            Go.a | .idle => .a
        }
        let results = Log<StateTransitionResult<Phase>>()
        let observation = machine.observeResults { results.append($0) }

        #expect(machine.send(Go.loop, 0).isSuccess)

        withExtendedLifetime(observation) {}
        #expect(results.elements.count == 102)
        let error = results.last?.error
        #expect(error?.kind == .stepLimit)
        #expect(error?.input.argument(of: Go.loop) == 101)
        #expect(error?.message.hasPrefix("more than 100 queued inputs for one external input") == true)
        #expect(machine.send(Go.a).transition?.to == .a)
    }

    @Test func aSendThroughTheMachineFromAnEffectIsQueuedNotNested() {
        let returned = Log<StateTransitionError<Phase>.Kind?>()
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a | { step in returned.append(step.machine.send(Go.b).error?.kind) }
            Go.b | .a => .b
        }
        let states = Log<Phase>()
        let observation = machine.observeStates { states.append($0) }

        machine.send(Go.a)

        withExtendedLifetime(observation) {}
        #expect(returned.elements == [.queued])
        #expect(states.elements == [.idle, .a, .b])
    }

    @Test(.timeLimit(.minutes(1)))
    func aNewStateObserverGetsTheCurrentStateFirst() async {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a
            Go.b | .a => .b
        }
        machine.send(Go.a)
        let states = Log<Phase>()
        let observation = machine.observeStates { states.append($0) }
        let stream = machine.states
        machine.send(Go.b)

        withExtendedLifetime(observation) {}
        #expect(states.elements == [.a, .b])
        #expect(await stream.elements(count: 2) == [.a, .b])
    }

    @Test func anObserverSeesResultsOutsideTheLockAndItsSendsAfterItReturns() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a
            Go.b | .a => .b
        }
        let seen = Log<String>()
        let observation = machine.observeResults { result in
            seen.append("\(result.input.name) begins in \(machine.state)")
            if result.input.is(Go.a) { machine.send(Go.b) }
            seen.append("\(result.input.name) ends in \(machine.state)")
        }
        machine.send(Go.a)
        withExtendedLifetime(observation) {}
        #expect(seen.elements == ["a begins in a", "a ends in b", "b begins in b", "b ends in b"])
    }

    @Test func inAFinalStateEveryInputIsFinished() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.finish | .idle => .done
            Go.reset | .done => .idle
            FinalState(.done)
        }
        machine.send(Go.finish)
        let result = machine.send(Go.reset)
        #expect(result.error?.kind == .finished)
        #expect(result.error?.message == "'done' is a final state")
        #expect(machine.send(Go.a).error?.kind == .finished)
    }

    @Test func aRowMayLeaveFromEveryStateAPredicateMatches() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a
            Go.b | .a => .b
            Go.reset | .matching { $0 != .idle } => .idle
        }
        #expect(machine.send(Go.reset).error?.kind == .noTransition)
        machine.send(Go.a)
        machine.send(Go.b)
        #expect(machine.send(Go.reset).transition?.from == .b)
        #expect(machine.state == .idle)
    }

    @Test func rowsOfOneInputAndStateAreTriedInTheOrderWritten() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.loop | .idle => .a | .when { $0.argument > 10 }
            Go.loop | .idle => .b | .when { $0.argument > 1 }
            Go.loop | .idle => .c
        }
        #expect(machine.send(Go.loop, 5).transition?.to == .b)
    }

    @Test func aCancelledObservationIsNotCalledAgain() {
        let machine = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a
            Go.b | .a => .b
        }
        let seen = Log<String>()
        let observation = machine.observeResults { seen.append($0.input.name) }
        machine.send(Go.a)
        observation.cancel()
        machine.send(Go.b)
        #expect(seen.elements == ["a"])
    }

    @Test(.timeLimit(.minutes(1)))
    func releasingTheMachineEndsItsStreams() async {
        var machine: TypedStateMachine<Phase, Void>? = TypedStateMachine(initial: Phase.idle) {
            Go.a | .idle => .a
        }
        let states = machine!.states
        let results = machine!.results
        machine?.send(Go.a)
        machine = nil
        #expect(await states.elements(count: 3) == [.idle, .a])
        #expect(await results.elements(count: 2).count == 1)
    }
}
