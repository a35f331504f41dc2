import Statecraft
import Testing

/// The Swift snippets of the DocC articles about typed machines (Statecraft.docc: Statecraft.md,
/// TypedMachines.md, SavingAndRestoring.md, SeedLibraries.md), as written there, run.
struct ArticleExampleTests {
    // MARK: Statecraft.md

    @Test func theLandingPagesDoor() {
        enum Door: MachineState { case closed, open, locked }

        let open = Input("open"), close = Input("close"), lock = Input("lock", taking: String.self)

        let door = TypedStateMachine(initial: Door.closed, context: String?.none) {
            open  | .closed => .open
            close | .open   => .closed
            lock  | .closed => .locked | { $0.context = $0.argument }
        }
        #expect(door.send(lock, "Ada").transition?.to == .locked)
        #expect(door.send(open).error?.message == "no transition for 'open' from 'locked'")
        #expect(door.context == "Ada")
    }

    // MARK: TypedMachines.md

    enum Door: MachineState { case closed, open, locked }

    enum Inputs {
        static let open = Input("open")
        static let close = Input("close")
        static let lock = Input("lock", taking: String.self)   // the key's owner
    }

    struct Log: Sendable { var lockedBy: String? }

    @Test func theTypedMachinesDoor() {
        let door = TypedStateMachine(initial: Door.closed, context: Log()) {
            Inputs.open  | .closed => .open
            Inputs.close | .open   => .closed
            Inputs.lock  | .closed => .locked | { $0.context.lockedBy = $0.argument }
        }

        #expect(door.send(Inputs.lock, "Ada").isSuccess)
        let refused = door.send(Inputs.open)
        #expect(refused.error?.kind == .noTransition)
        #expect(refused.error?.message == "no transition for 'open' from 'locked'")
        #expect(door.context.lockedBy == "Ada")
    }

    @Test func theRowForms() {
        let door = TypedStateMachine(initial: Door.open, context: Log()) {
            Inputs.close | .matching { $0 != .locked } => .closed
            Inputs.open  | [.open, .closed] => .open | .when { $0.context.lockedBy == nil }
            Inputs.lock.given(.closed).transition(to: .locked).performingSideEffect { $0.context.lockedBy = $0.argument }
            FinalState(.locked)
        }
        #expect(door.send(Inputs.close).isSuccess)
        let locked = door.send(Inputs.lock, "Ada")
        #expect(locked.input.argument(of: Inputs.lock) == "Ada" && locked.input.is(Inputs.lock))
        #expect(door.send(Inputs.open).error?.kind == .finished)
    }

    // MARK: SavingAndRestoring.md

    enum Light: String, MachineState, Codable { case red, green, yellow }
    struct Cycles: Codable { var count = 0 }

    @MachineBuilder<Light, Cycles>
    static func rules() -> MachineRules<Light, Cycles> {
        After(.seconds(30)) | .red    => .green
        After(.seconds(25)) | .green  => .yellow
        After(.seconds(5))  | .yellow => .red | { $0.context.count += 1 }
    }

    @Test func theSavedLightResumes() throws {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: Cycles(), clock: clock, rules: Self.rules)
        clock.advance(by: .seconds(40))                   // green, 10 s into its 25
        let saved: [UInt8] = try light.snapshot()         // a JSON document
        let resumed = try TypedStateMachine<Light, Cycles>(restoring: saved, clock: clock, rules: Self.rules)
        #expect(resumed.state == .green)
        clock.advance(by: .seconds(15))                   // yellow: the saved timer fired
        #expect(resumed.state == .yellow)
        #expect(String(decoding: saved, as: UTF8.self).contains(#""green""#))
    }

    // MARK: SeedLibraries.md

    enum Car: MachineState {
        case unstarted, drivingAround, drivingToLocation, parked, pickingUpPassengers, droppingOffPassengers
    }

    struct Trip: Sendable {
        var numberOfPassengers = 0
        var locationRequested: String?
    }

    enum CarInputs {
        static let startEngine           = Input("startEngine")
        static let driveAround           = Input("drive")
        static let park                  = Input("park")
        static let pickUpPassengers      = Input("pickUpPassengers")
        static let passengersHaveEntered = Input("passengersHaveEntered", taking: Int.self)
        static let driveToLocation       = Input("driveToLocation", taking: String.self)
    }

    @Test func jestersCar() {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip()) {
            // Input                       | from state           => to state            | effect
            CarInputs.startEngine           | .unstarted           => .parked
            CarInputs.driveAround           | [.parked, .droppingOffPassengers] => .drivingAround
            CarInputs.park                  | [.drivingAround, .drivingToLocation] => .parked
            CarInputs.pickUpPassengers      | .parked              => .pickingUpPassengers
            CarInputs.passengersHaveEntered | .pickingUpPassengers => .pickingUpPassengers | { $0.context.numberOfPassengers = $0.argument }
            CarInputs.driveToLocation       | .pickingUpPassengers => .drivingToLocation   | { $0.context.locationRequested = $0.argument }
        }

        car.send(CarInputs.startEngine)
        car.send(CarInputs.pickUpPassengers)
        car.send(CarInputs.passengersHaveEntered, 4)      // car.context.numberOfPassengers == 4
        #expect(car.context.numberOfPassengers == 4)
    }

    enum SyncStatus: MachineState { case notSynced, inProgress, synced, failed }
    struct SyncExtraState: Sendable { var expiryDate: ContinuousClock.Instant? }

    enum SyncEvent {
        static let sync = Input("sync")
        static let synced = Input("synced", taking: Bool.self)   // the work's result
    }

    static func syncProcess(doSync: @escaping @Sendable () async -> Bool) -> TypedStateMachine<SyncStatus, SyncExtraState> {
        TypedStateMachine(initial: .notSynced, context: SyncExtraState()) {
            SyncEvent.sync | .notSynced => .inProgress
            WorkState(.inProgress, reporting: SyncEvent.synced) { _, _ in await doSync() }
            SyncEvent.synced | .inProgress => .synced | .when { $0.argument } | { $0.context.expiryDate = .now + .seconds(30) }
            SyncEvent.synced | .inProgress => .failed | .when { !$0.argument }
            SyncEvent.sync | .synced => .inProgress | .when { $0.context.expiryDate.map { $0 < .now } ?? true }
            SyncEvent.sync | .failed => .inProgress
        }
    }

    @Test func ddStateMachinesSyncProcess() async {
        let process = Self.syncProcess { true }
        var states = process.states.makeAsyncIterator()
        process.send(SyncEvent.sync)
        var seen: [SyncStatus] = []
        while let state = await states.next() {
            seen.append(state)
            if state == .synced { break }
        }
        #expect(seen == [.notSynced, .inProgress, .synced])
        #expect(process.send(SyncEvent.sync).error?.kind == .guardRejected)
    }

    enum TrafficLight: Transitionable {
        case red, yellow, green

        func shouldTransition(to next: TrafficLight) -> Bool {
            switch (self, next) {
            case (.red, .green), (.green, .yellow), (.yellow, .red): true
            default: false
            }
        }
    }

    final class Crossing {
        @PredicateStateMachine var light: TrafficLight = .red

        func timerTriggered(light: TrafficLight) {
            self.light = light                          // an invalid move is ignored
        }

        func watch() async {
            for await (from, to) in $light { print(from, "->", to) }
        }
    }

    @Test func gauntletsCrossing() {
        let crossing = Crossing()
        crossing.timerTriggered(light: .yellow)
        #expect(crossing.light == .red)
        crossing.timerTriggered(light: .green)
        #expect(crossing.light == .green)
    }

    enum Launch: MachineState { case uninitialized, initialized, indexing, loggedIn }

    enum LaunchInputs {
        static let initialize = Input("initialize")
        static let indexDatabase = Input("indexDatabase")
        static let logIn = Input("logIn")
    }

    @Test func statedsLauncher() {
        let launcher = TypedStateMachine(initial: Launch.uninitialized) {
            LaunchInputs.initialize    | .uninitialized => .initialized | { $0.send(LaunchInputs.indexDatabase) }
            LaunchInputs.indexDatabase
                .given(.initialized)
                .transition(to: .indexing)
                .performingSideEffect { $0.send(LaunchInputs.logIn) }
            LaunchInputs.logIn         | .indexing      => .loggedIn
        }
        launcher.send(LaunchInputs.initialize)   // initialize, then indexDatabase and logIn, queued
        #expect(launcher.state == .loggedIn)
    }
}
