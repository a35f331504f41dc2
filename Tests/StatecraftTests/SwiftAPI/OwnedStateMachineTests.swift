import Statecraft
import TestSupport
import Testing

/// The typed API's scenarios, run against both machines built from the same rows: the shared
/// ``TypedStateMachine`` and the single-owner ``OwnedStateMachine`` must give the same results,
/// states and contexts.
struct OwnedStateMachineTests {
    enum Kind: CaseIterable, Sendable { case shared, owned }

    /// Drives either machine and records every result in order: the external input's and, for
    /// the shared machine through an observer, for the owned one through its queued-result
    /// handler, those of the inputs effects sent.
    final class Driver<State: MachineState, Context: Sendable> {
        private var shared: TypedStateMachine<State, Context>?
        private var owned: OwnedBox?
        private var observation: Observation?
        /// The owned machine's queued results, as its handler receives them.
        private let queued = Log<String>()
        let transcript = Log<String>()

        init(
            _ kind: Kind, initial: State, context: Context, onUnhandled: MachineDefinition.UnhandledPolicy = .reject,
            stepLimit: Int = RunLimits.defaultStepLimit, @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
        ) {
            switch kind {
            case .shared:
                let machine = TypedStateMachine(initial: initial, context: context, onUnhandled: onUnhandled, stepLimit: stepLimit, rules: rules)
                let transcript = transcript
                observation = machine.observeResults { transcript.append(Self.describe($0)) }
                shared = machine
            case .owned:
                var machine = OwnedStateMachine(initial: initial, context: context, onUnhandled: onUnhandled, stepLimit: stepLimit, rules: rules)
                let queued = queued
                machine.queuedResultHandler = { queued.append(Self.describe($0)) }
                owned = OwnedBox(machine: machine)
            }
        }

        /// What both machines' results say, in one shape.
        struct Outcome {
            var isSuccess: Bool
            var to: State?
            var isIgnored = false
            var kind: RejectionKind?
        }

        @discardableResult
        func send<A>(_ input: Input<A>, _ argument: A) -> Outcome {
            if let shared {
                let result = shared.send(input, argument)
                return Outcome(
                    isSuccess: result.isSuccess, to: result.transition?.to, isIgnored: result.transition?.isIgnored ?? false,
                    kind: result.error?.kind)
            }
            // The shared machine's observer sees the external input's result first, then its
            // queued inputs'; the owned machine returns the first after handing over the others.
            let mark = queued.elements.count
            let result = owned!.machine.send(input, argument)
            let name = A.self == Void.self ? input.name : "\(input.name)(\(argument))"
            switch result {
            case .moved(let from, let to): transcript.append("\(name): \(from) -> \(to)")
            case .ignored(let state): transcript.append("\(name): \(state) -> \(state) (ignored)")
            case .rejected(let rejection):
                let message = owned!.machine.message(for: rejection)
                transcript.append("\(name): \(rejection.state): \(rejection.kind.rawValue): \(message)")
            }
            for line in queued.elements[mark...] { transcript.append(line) }
            if case .moved(_, let to) = result { return Outcome(isSuccess: true, to: to) }
            if case .ignored(let state) = result { return Outcome(isSuccess: true, to: state, isIgnored: true) }
            return Outcome(isSuccess: false, kind: result.rejection?.kind)
        }

        @discardableResult
        func send(_ input: Input<Void>) -> Outcome { send(input, ()) }

        var state: State { shared?.state ?? owned!.machine.state }
        var context: Context { shared?.context ?? owned!.machine.context }

        /// A noncopyable machine in a class, so that it is borrowed in place.
        final class OwnedBox {
            var machine: OwnedStateMachine<State, Context>
            init(machine: consuming OwnedStateMachine<State, Context>) { self.machine = machine }
        }

        static func describe(_ result: StateTransitionResult<State>) -> String {
            switch result {
            case .success(let step):
                "\(step.input): \(step.from) -> \(step.to)\(step.isIgnored ? " (ignored)" : "")"
            case .failure(let error):
                "\(error.input): \(error.state): \(error.kind.rawValue): \(error.message)"
            }
        }
    }

    enum Phase: MachineState { case idle, a, b, c, d, done }

    enum Go {
        static let a = Input("a")
        static let b = Input("b")
        static let c = Input("c")
        static let d = Input("d")
        static let finish = Input("finish")
        static let count = Input("count", taking: Int.self)
        static let loop = Input("loop", taking: Int.self)
    }

    @Test(arguments: Kind.allCases)
    func jestersCarDrivesItsJourney(_ kind: Kind) {
        typealias Inputs = ShopKeepSelfDrivingCar.Inputs
        let car = Driver(kind, initial: ShopKeepSelfDrivingCar.State.unstarted, context: ShopKeepSelfDrivingCar.Trip()) {
            Inputs.startEngine           | .unstarted           => .parked
            Inputs.driveAround           | [.parked, .droppingOffPassengers] => .drivingAround
            Inputs.park                  | [.drivingAround, .drivingToLocation] => .parked
            Inputs.pickUpPassengers      | .parked              => .pickingUpPassengers
            Inputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.numberOfPassengers = $0.argument }
            Inputs.driveToLocation       | .pickingUpPassengers => .drivingToLocation   | { $0.context.locationRequested = $0.argument }
            Inputs.dropOffPassengers     | .parked              => .droppingOffPassengers | { $0.context.numberOfPassengers = 0 }
        }
        car.send(Inputs.startEngine)
        car.send(Inputs.pickUpPassengers)
        car.send(Inputs.passengersHaveEntered, 4)
        #expect(car.context.numberOfPassengers == 4)
        car.send(Inputs.driveToLocation, "The Witches Brew")
        car.send(Inputs.park)
        car.send(Inputs.dropOffPassengers)
        car.send(Inputs.noMapInput)
        #expect(car.state == .droppingOffPassengers)
        #expect(car.context.numberOfPassengers == 0)
        #expect(car.context.locationRequested == "The Witches Brew")
        #expect(
            car.transcript.elements == [
                "startEngine: unstarted -> parked",
                "pickUpPassengers: parked -> pickingUpPassengers",
                "passengersHaveEntered(4): pickingUpPassengers -> pickingUpPassengers",
                "driveToLocation(The Witches Brew): pickingUpPassengers -> drivingToLocation",
                "park: drivingToLocation -> parked",
                "dropOffPassengers: parked -> droppingOffPassengers",
                "noMapInput: droppingOffPassengers: no-transition: no transition for 'noMapInput' from 'droppingOffPassengers'",
            ])
    }

    @Test(arguments: Kind.allCases)
    func guardsAreTriedInWrittenOrderAndEffectsSeeTheNewState(_ kind: Kind) {
        let seen = Log<String>()
        let machine = Driver(kind, initial: Phase.idle, context: 0) {
            Go.count | .idle => .a | .when { $0.argument > 10 } | { $0.context = $0.argument }
            Go.count | .idle => .b | .when { $0.argument > 0 } | { step in seen.append("\(step.from)->\(step.to)"); step.context = -step.argument }
        }
        let rejected = machine.send(Go.count, 0)
        #expect(rejected.kind == .guardRejected)
        #expect(machine.send(Go.count, 3).to == .b)
        #expect(machine.context == -3)
        #expect(seen.elements == ["idle->b"])
        #expect(machine.transcript.elements.first == "count(0): idle: guard-rejected: every guard of 'count' from 'idle' is false")
    }

    @Test(arguments: Kind.allCases)
    func queuedInputsRunFirstInFirstOutBeforeSendReturns(_ kind: Kind) {
        let machine = Driver(kind, initial: Phase.idle, context: [String]()) {
            Go.a | .idle => .a | { $0.context.append("a"); $0.send(Go.b) } | { $0.send(Go.c) }
            Go.b | .a => .b | { $0.context.append("b"); $0.send(Go.d) }
            Go.c | .b => .c | { $0.context.append("c") }
            Go.d | .c => .d | { $0.context.append("d") }
        }
        let result = machine.send(Go.a)
        #expect(result.to == .a)
        #expect(machine.state == .d)
        #expect(machine.context == ["a", "b", "c", "d"])
        #expect(machine.transcript.elements == ["a: idle -> a", "b: a -> b", "c: b -> c", "d: c -> d"])
    }

    @Test(arguments: Kind.allCases)
    func queuedInputsAfterAGuardedTransitionRunToo(_ kind: Kind) {
        let machine = Driver(kind, initial: Phase.idle, context: 0) {
            Go.count | .idle => .a | .when { $0.argument > 0 } | { $0.context = $0.argument; $0.send(Go.b) }
            Go.b | .a => .b | { $0.context += 1 }
        }
        #expect(machine.send(Go.count, 5).to == .a)
        #expect(machine.state == .b)
        #expect(machine.context == 6)
        #expect(machine.transcript.elements == ["count(5): idle -> a", "b: a -> b"])
    }

    @Test(arguments: Kind.allCases)
    func aLivelockIsAStepLimitErrorAndTheMachineGoesOn(_ kind: Kind) {
        let machine = Driver(kind, initial: Phase.idle, context: (), stepLimit: 100) {
            Go.loop | .idle => .idle | { $0.send(Go.loop, $0.argument + 1) }
            Go.a | .idle => .a
        }
        #expect(machine.send(Go.loop, 0).isSuccess)
        let transcript = machine.transcript.elements
        #expect(transcript.count == 102)
        #expect(transcript.last?.hasPrefix("loop(101): idle: step-limit: more than 100 queued inputs for one external input") == true)
        #expect(machine.send(Go.a).to == .a)
    }

    @Test(arguments: Kind.allCases)
    func unhandledInputsAreIgnoredByPolicyAndFinalStatesFinish(_ kind: Kind) {
        let machine = Driver(kind, initial: Phase.idle, context: (), onUnhandled: .ignore) {
            Go.finish | .idle => .done
            FinalState<Phase>(.done)
        }
        #expect(machine.send(Go.a).isIgnored == true)
        #expect(machine.send(Go.finish).to == .done)
        #expect(machine.send(Go.finish).kind == .finished)
        #expect(machine.transcript.elements == ["a: idle -> idle (ignored)", "finish: idle -> done", "finish: done: finished: 'done' is a final state"])
    }

    @Test(arguments: Kind.allCases)
    func statesBuiltFromTheInputCarryItsData(_ kind: Kind) {
        let machine = Driver(kind, initial: Download.idle, context: ()) {
            Download.Inputs.start.given(.idle).transition(to: .loading) { .loading(url: $0.argument) }
            Download.Inputs.finish.given(.loading).transition(to: .done) { request in
                guard case .loading(let url) = request.from else { return .done(bytes: 0) }
                return .done(bytes: url.count)
            }
        }
        machine.send(Download.Inputs.start, "https://example.com")
        #expect(machine.state == .loading(url: "https://example.com"))
        machine.send(Download.Inputs.finish)
        #expect(machine.state == .done(bytes: 19))
    }

    enum Download: MachineState, Equatable {
        case idle, loading(url: String), done(bytes: Int)

        enum Slot: Hashable, Sendable { case idle, loading, done }
        var slot: Slot {
            switch self {
            case .idle: .idle
            case .loading: .loading
            case .done: .done
            }
        }

        enum Inputs {
            static let start = Input("start", taking: String.self)
            static let finish = Input("finish")
        }
    }

    @MachineBuilder<Phase, Int>
    static func guardedAndFinishing() -> MachineRules<Phase, Int> {
        Go.count | .idle => .a | .when { $0.argument > 0 }
        Go.a | .idle => .a
        Go.finish | .a => .done
        FinalState<Phase>(.done)
    }

    @Test func aRejectionIsPlainValuesThatTheMachineWordsAsTheSharedMachineWould() {
        let rows = Self.guardedAndFinishing
        let shared = TypedStateMachine(initial: Phase.idle, context: 0, rules: rows)
        var owned = OwnedStateMachine(initial: Phase.idle, context: 0, rules: rows)
        // An input made after the machines, which neither has a row for: its serial is past
        // every serial the owned machine's table knows.
        let later = Input("madeAfterTheMachine", taking: String.self)
        for (result, error) in [
            (owned.send(Go.b), shared.send(Go.b).error),
            (owned.send(later, "x"), shared.send(later, "x").error),
            (owned.send(Go.count, 0), shared.send(Go.count, 0).error),
        ] {
            let rejection = try! #require(result.rejection)
            let error = try! #require(error)
            #expect(rejection.kind == error.kind)
            #expect(rejection.state == error.state)
            #expect(rejection.inputName == error.input.name)
            #expect(owned.message(for: rejection) == error.message)
            #expect(!result.isSuccess && result.state == .idle)
        }
        #expect(owned.send(later, "x").rejection?.is(later) == true)
        #expect(owned.send(Go.b).rejection?.is(later) == false)
        owned.send(Go.a)
        owned.send(Go.finish)
        let finished = try! #require(owned.send(Go.a).rejection)
        #expect(finished.kind == .finished)
        #expect(owned.message(for: finished) == "'done' is a final state")
        #expect(owned.message(for: try! #require(owned.send(later, "y").rejection)) == "'done' is a final state")
    }

    @Test func effectsOfOneRowRunInTheOrderWrittenWithTheArgumentOfTheirInput() {
        var machine = OwnedStateMachine(initial: Phase.idle, context: [String]()) {
            Go.count.given([.idle, .a]).transition(to: .a)
                .performingSideEffect { $0.context.append("first \($0.argument) \($0.from)->\($0.to)") }
                .performingSideEffect { $0.context.append("second \($0.argument)") }
                .performingSideEffect { $0.context.append("third") }
            Input("name", taking: String.self) | .a => .b | { $0.context.append($0.argument) }
        }
        #expect(machine.send(Go.count, 7).state == .a)
        #expect(machine.send(Go.count, 8).state == .a)
        #expect(machine.send(Input("name", taking: String.self), "Ada").state == .b)
        #expect(machine.context == ["first 7 idle->a", "second 7", "third", "first 8 a->a", "second 8", "third", "Ada"])
    }

    /// Plain data larger than the owned machine's scratch for arguments: its effects read it
    /// where the sender holds it.
    struct Reading: Sendable, Equatable {
        var a = 1, b = 2, c = 3, d = 4, e = 5
    }

    @Test func effectsReadArgumentsOfEveryShapeOnTheDirectPath() {
        let small = Input("small", taking: Int32.self)
        let large = Input("large", taking: Reading.self)
        let text = Input("text", taking: String.self)
        var machine = OwnedStateMachine(initial: Phase.idle, context: [String]()) {
            small | .idle => .a | { $0.context.append("\($0.argument)") }
            large | .a => .b | { $0.context.append("\($0.argument.a + $0.argument.e)") }
            text | .b => .c | { $0.context.append($0.argument) }
        }
        machine.send(small, -7)
        machine.send(large, Reading(a: 10, e: 32))
        machine.send(text, String(repeating: "long text, not a small string ", count: 2))
        #expect(machine.state == .c)
        #expect(machine.context == ["-7", "42", String(repeating: "long text, not a small string ", count: 2)])
    }

    @Test func anInputSentByAnEffectOfARowTakenDirectlyCountsTowardsTheStepLimit() {
        let queued = Log<String>()
        var machine = OwnedStateMachine(initial: Phase.idle, context: 0, stepLimit: 3) {
            Go.loop | .idle => .idle | { $0.context += 1; $0.send(Go.loop, $0.argument + 1) }
            Go.a | .idle => .a
        }
        machine.queuedResultHandler = { result in
            queued.append(result.error.map { "\($0.input): \($0.kind.rawValue)" } ?? "\(result.input)")
        }
        #expect(machine.send(Go.loop, 0).state == .idle)
        #expect(machine.context == 4)
        #expect(queued.elements == ["loop(1)", "loop(2)", "loop(3)", "loop(4): step-limit"])
        #expect(machine.send(Go.a).state == .a)
    }

    @Test func anOwnedMachineLivesInAnActor() async {
        actor Counter {
            private var machine = OwnedStateMachine(initial: Phase.idle, context: 0) {
                Go.count | [.idle, .a] => .a | { $0.context += $0.argument }
            }
            func add(_ n: Int) -> Int {
                machine.send(Go.count, n)
                return machine.context
            }
        }
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { _ = await counter.add(1) } }
        }
        #expect(await counter.add(0) == 100)
    }

    @Test func readingTheSharedMachineFromAnOwnedMachinesEffectStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var machine = OwnedStateMachine(initial: Phase.idle) {
                Go.a | .idle => .a | { _ = $0.machine }
            }
            machine.send(Go.a)
        }
    }

    /// The DocC article's example (Statecraft.docc/TypedMachines.md), as written there.
    @Test func theArticlesDoorControllerLocksOnce() async {
        #expect(await DoorController().lock(by: "Ada"))
        let controller = DoorController()
        #expect(await controller.lock(by: "Ada"))
        #expect(await !controller.lock(by: "Grace"))
        #expect(await controller.state == .locked)
        #expect(await controller.open() == "no transition for 'open' from 'locked'")
        #expect(await DoorController().open() == "now open")
    }
}

enum Door: MachineState { case closed, open, locked }

enum DoorInputs {
    static let open = Input("open")
    static let close = Input("close")
    static let lock = Input("lock", taking: String.self)
}

actor DoorController {
    private var door = OwnedStateMachine(initial: Door.closed, context: String?.none) {
        DoorInputs.open  | .closed => .open
        DoorInputs.close | .open   => .closed
        DoorInputs.lock  | .closed => .locked | { $0.context = $0.argument }
    }

    func lock(by owner: String) -> Bool {
        door.send(DoorInputs.lock, owner).isSuccess
    }

    var state: Door { door.state }
}

extension DoorController {
    func open() -> String {
        switch door.send(DoorInputs.open) {
        case .moved(_, let to): "now \(to)"
        case .ignored: "ignored"
        case .rejected(let rejection): door.message(for: rejection)  // no transition for 'open' from 'locked'
        }
    }
}
