import Statecraft

/// The typed Swift API's cases of the engine benchmark: Jester's car with enum states and typed
/// inputs (as in its README), as a shared ``TypedStateMachine`` and as a single-owner
/// ``OwnedStateMachine`` built from the same rows, driven by the same walk as the file-loaded
/// machine.
enum TypedBenchmark {
    /// Declared in the file's order, so that raw values are the file machine's state ids and
    /// the checksum matches the file-loaded cases.
    enum State: Int, MachineState {
        case unstarted, drivingAround, drivingToLocation, parked, pickingUpPassengers, droppingOffPassengers
    }

    struct Trip: Sendable {
        var passengers = 0
        var location: String?
    }

    enum Inputs {
        static let startEngine = Input("startEngine")
        static let driveAround = Input("driveAround")
        static let park = Input("park")
        static let pickUpPassengers = Input("pickUpPassengers")
        static let passengersHaveEntered = Input("passengersHaveEntered", taking: Int.self)
        static let driveToLocation = Input("driveToLocation", taking: String.self)
        static let dropOffPassengers = Input("dropOffPassengers")
        static let noMapInput = Input("noMapInput")
        static let noFailInput = Input("noFailInput")
    }

    @MachineBuilder<State, Trip>
    static func rows() -> MachineRules<State, Trip> {
        Inputs.startEngine | .unstarted => .parked
        Inputs.driveAround | [.parked, .droppingOffPassengers] => .drivingAround
        Inputs.park | [.drivingAround, .drivingToLocation] => .parked
        Inputs.pickUpPassengers | .parked => .pickingUpPassengers
        Inputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.passengers = $0.argument }
        Inputs.driveToLocation | .pickingUpPassengers => .drivingToLocation | { $0.context.location = $0.argument }
        Inputs.dropOffPassengers | .parked => .droppingOffPassengers | { $0.context.passengers = 0 }
        for state in [State.unstarted, .drivingAround, .drivingToLocation, .parked, .pickingUpPassengers, .droppingOffPassengers] {
            Inputs.noFailInput | state => state
        }
    }

    /// A walk step as a caller of the typed API holds it: the typed input and its argument.
    /// The inputs are read from `Inputs` when the walk is built, not on every send, as a caller
    /// with its inputs in hand would send them.
    enum Step {
        case plain(Input<Void>)
        case passengersHaveEntered(Input<Int>, Int)
        case driveToLocation(Input<String>, String)

        init(_ step: EngineBenchmark.Step, named name: String) {
            switch (name, step.argument) {
            case ("passengersHaveEntered", .int(let count)): self = .passengersHaveEntered(Inputs.passengersHaveEntered, count)
            case ("driveToLocation", .string(let place)): self = .driveToLocation(Inputs.driveToLocation, place)
            case ("startEngine", _): self = .plain(Inputs.startEngine)
            case ("driveAround", _): self = .plain(Inputs.driveAround)
            case ("park", _): self = .plain(Inputs.park)
            case ("pickUpPassengers", _): self = .plain(Inputs.pickUpPassengers)
            case ("dropOffPassengers", _): self = .plain(Inputs.dropOffPassengers)
            case ("noFailInput", _): self = .plain(Inputs.noFailInput)
            default: self = .plain(Inputs.noMapInput)
            }
        }

        func send(to car: TypedStateMachine<State, Trip>) -> StateTransitionResult<State> {
            switch self {
            case .plain(let input): car.send(input)
            case .passengersHaveEntered(let input, let count): car.send(input, count)
            case .driveToLocation(let input, let place): car.send(input, place)
            }
        }

        func send(to car: inout OwnedStateMachine<State, Trip>) -> OwnedTransitionResult<State> {
            switch self {
            case .plain(let input): car.send(input)
            case .passengersHaveEntered(let input, let count): car.send(input, count)
            case .driveToLocation(let input, let place): car.send(input, place)
            }
        }
    }

    /// The shared machine's case.
    @inline(never)
    static func run(_ machine: CompiledMachine, _ walk: EngineBenchmark.Walk, _ cycles: Int) -> EngineBenchmark.Checksum {
        let car = TypedStateMachine(initial: State.unstarted, context: Trip(), rules: rows)
        return drive(machine, walk, cycles, finalState: { car.state }) { $0.send(to: car) }
    }

    /// The single-owner machine's case.
    @inline(never)
    static func runOwned(_ machine: CompiledMachine, _ walk: EngineBenchmark.Walk, _ cycles: Int) -> EngineBenchmark.Checksum {
        var car = OwnedStateMachine(initial: State.unstarted, context: Trip(), rules: rows)
        let prefix = walk.prefix.map { Step($0, named: machine.inputNames[$0.input]) }
        let cycle = walk.cycle.map { Step($0, named: machine.inputNames[$0.input]) }
        for step in prefix { _ = step.send(to: &car) }
        var checksum = EngineBenchmark.Checksum()
        for _ in 0..<cycles {
            for step in cycle {
                checksum.results &+= 1
                if case .moved(_, let to) = step.send(to: &car) {
                    checksum.accepted &+= 1
                    checksum.targets &+= to.rawValue
                }
            }
        }
        checksum.finalState = car.state.rawValue
        return checksum
    }

    @inline(__always)
    static func drive(
        _ machine: CompiledMachine, _ walk: EngineBenchmark.Walk, _ cycles: Int, finalState: () -> State,
        send: (Step) -> StateTransitionResult<State>
    ) -> EngineBenchmark.Checksum {
        let prefix = walk.prefix.map { Step($0, named: machine.inputNames[$0.input]) }
        let cycle = walk.cycle.map { Step($0, named: machine.inputNames[$0.input]) }
        for step in prefix { _ = send(step) }
        var checksum = EngineBenchmark.Checksum()
        for _ in 0..<cycles {
            for step in cycle {
                checksum.results &+= 1
                if case .success(let transition) = send(step) {
                    checksum.accepted &+= 1
                    checksum.targets &+= transition.to.rawValue
                }
            }
        }
        checksum.finalState = finalState().rawValue
        return checksum
    }
}
