import Statecraft
import TestSupport
import Testing

/// Jester's README example, rewritten with Statecraft: the car's counters are the machine's
/// context, and its effects receive the typed argument.
final class ShopKeepSelfDrivingCar: Sendable {
    enum State: MachineState {
        case unstarted, drivingAround, drivingToLocation, parked, pickingUpPassengers, droppingOffPassengers
    }

    struct Trip: Sendable {
        var numberOfPassengers = 0
        var locationRequested: String?
    }

    enum Inputs {
        static let startEngine = Input("startEngine")
        static let driveAround = Input("drive")
        static let park = Input("park")
        static let pickUpPassengers = Input("pickUpPassengers")
        static let passengersHaveEntered = Input("passengersHaveEntered", taking: Int.self)
        static let driveToLocation = Input("driveToLocation", taking: String.self)
        static let dropOffPassengers = Input("dropOffPassengers")

        static let noMapInput = Input("noMapInput")
        static let noFailInput = Input("noFailInput")
    }

    let machine: TypedStateMachine<State, Trip>

    var numberOfPassengers: Int { machine.context.numberOfPassengers }
    var locationRequested: String? { machine.context.locationRequested }

    init() {
        machine = TypedStateMachine(initial: .unstarted, context: Trip()) {
            // Input                   | from state           => to state            | effect
            Inputs.startEngine           | .unstarted           => .parked
            Inputs.driveAround           | [.parked, .droppingOffPassengers] => .drivingAround
            Inputs.park                  | [.drivingAround, .drivingToLocation] => .parked
            Inputs.pickUpPassengers      | .parked              => .pickingUpPassengers
            Inputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.numberOfPassengers = $0.argument }
            Inputs.driveToLocation       | .pickingUpPassengers => .drivingToLocation   | { $0.context.locationRequested = $0.argument }
            Inputs.dropOffPassengers     | .parked              => .droppingOffPassengers | { $0.context.numberOfPassengers = 0 }

            for state in [State.unstarted, .drivingAround, .drivingToLocation, .parked, .pickingUpPassengers, .droppingOffPassengers] {
                Inputs.noFailInput | state => state
            }
        }
    }
}

/// Jester's README example and its StateMachineSpec scenarios.
struct JesterTests {
    typealias Inputs = ShopKeepSelfDrivingCar.Inputs
    typealias State = ShopKeepSelfDrivingCar.State

    @Test func theCarDrivesItsJourneyWatchedByACallback() {
        let car = ShopKeepSelfDrivingCar()
        let states = Log<State>()
        let watcher = car.machine.observeStates { states.append($0) }
        #expect(states.elements == [.unstarted])

        car.machine.send(Inputs.startEngine)
        #expect(states.last == .parked)
        car.machine.send(Inputs.driveAround)
        #expect(states.last == .drivingAround)
        car.machine.send(Inputs.park)
        #expect(states.last == .parked)
        car.machine.send(Inputs.pickUpPassengers)
        #expect(states.last == .pickingUpPassengers)

        #expect(car.numberOfPassengers == 0)
        car.machine.send(Inputs.passengersHaveEntered, 4)
        #expect(states.last == .pickingUpPassengers)
        #expect(car.numberOfPassengers == 4)

        #expect(car.locationRequested == nil)
        car.machine.send(Inputs.driveToLocation, "The Witches Brew")
        #expect(states.last == .drivingToLocation)
        #expect(car.locationRequested == "The Witches Brew")

        car.machine.send(Inputs.park)
        #expect(states.last == .parked)
        car.machine.send(Inputs.dropOffPassengers)
        #expect(states.last == .droppingOffPassengers)
        #expect(car.numberOfPassengers == 0)
        withExtendedLifetime(watcher) {}
    }

    @Test func anUnmappedInputIsAFailureWithTheCurrentStateAndTheInput() throws {
        let car = ShopKeepSelfDrivingCar()
        car.machine.send(Inputs.startEngine)
        let results = Log<StateTransitionResult<State>>()
        let watcher = car.machine.observeResults { results.append($0) }

        let returned = car.machine.send(Inputs.noMapInput)

        let error = try #require(results.last?.error)
        #expect(error.state == .parked)
        #expect(error.input.is(Inputs.noMapInput))
        #expect(error.kind == .noTransition)
        #expect(error.message == "no transition for 'noMapInput' from 'parked'")
        #expect(returned.error?.kind == .noTransition)
        #expect(car.machine.state == .parked)
        withExtendedLifetime(watcher) {}
    }

    @Test func aSelfMappedInputSucceedsWithTheOldStateEqualToTheNew() throws {
        let car = ShopKeepSelfDrivingCar()
        car.machine.send(Inputs.startEngine)
        let results = Log<StateTransitionResult<State>>()
        let watcher = car.machine.observeResults { results.append($0) }

        car.machine.send(Inputs.noFailInput)

        let transition = try #require(results.last?.transition)
        #expect(transition.from == .parked)
        #expect(transition.to == .parked)
        #expect(transition.input.is(Inputs.noFailInput))
        #expect(!transition.isIgnored)
        withExtendedLifetime(watcher) {}
    }

    @Test func successesCarryTheTypedArgument() {
        let car = ShopKeepSelfDrivingCar()
        for input in [Inputs.startEngine, Inputs.pickUpPassengers] { car.machine.send(input) }

        let result = car.machine.send(Inputs.passengersHaveEntered, 3)

        #expect(result.transition?.input.argument(of: Inputs.passengersHaveEntered) == 3)
        #expect(result.transition?.input.argument(of: Inputs.driveToLocation) == nil)
        #expect(result.input.description == "passengersHaveEntered(3)")
    }

    @Test func inputsAreIdentifiedByNameAndArgumentTypeNotByInstance() {
        let car = ShopKeepSelfDrivingCar()
        car.machine.send(Input("startEngine"))
        #expect(car.machine.state == .parked)
        // Same name, another argument type: another input, which no row maps.
        let result = car.machine.send(Input("pickUpPassengers", taking: Int.self), 1)
        #expect(result.error?.kind == .noTransition)
    }

    @Test func theResultStreamHasEveryResultInOrder() async {
        let car = ShopKeepSelfDrivingCar()
        let results = car.machine.results
        car.machine.send(Inputs.startEngine)
        car.machine.send(Inputs.noMapInput)
        car.machine.send(Inputs.pickUpPassengers)

        var seen: [String] = []
        for await result in results {
            seen.append("\(result.input.name):\(result.isSuccess)")
            if seen.count == 3 { break }
        }
        #expect(seen == ["startEngine:true", "noMapInput:false", "pickUpPassengers:true"])
    }
}
