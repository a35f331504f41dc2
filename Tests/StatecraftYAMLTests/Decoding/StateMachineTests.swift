import Statecraft
import StatecraftYAML
import Synchronization
import TestSupport
import Testing

/// Machines loaded from files, run from Swift with the typed machines' observation API, their
/// effect names bound to closures.
struct StateMachineTests {
    static let machines = URLPath.packageRoot + "/machines/"

    /// Effect calls as `effect from->to (input)`.
    final class Calls: Sendable {
        private let calls = Mutex<[String]>([])

        func record(_ call: EffectCall) {
            calls.withLock { $0.append("\(call.effect) \(call.from)->\(call.to) (\(call.input?.description ?? "start"))") }
        }

        var all: [String] { calls.withLock { $0 } }
    }

    @Test func statedsAppLauncherFileRunsWithItsHooksBoundToSwift() throws {
        let calls = Calls()
        let record: @Sendable (EffectCall) -> Void = { calls.record($0) }
        let loggedInWith = Mutex<[String: Value]>([:])
        let launcher = try StateMachine(
            YAMLFile.load(path: Self.machines + "app-launcher.yaml"),
            effects: [
                "logIn": { call in
                    calls.record(call)
                    loggedInWith.withLock { $0 = call.context }
                },
                "logOut": record, "showLoadingAnimation": record, "hideLoadingAnimation": record,
            ])
        let results = Mutex<[String]>([])
        let observation = launcher.observeResults { result in
            let line =
                switch result {
                case .success(let transition): "\(transition.input): \(transition.from) -> \(transition.to)"
                case .failure(let error): "\(error.input): \(error.kind.rawValue)"
                }
            results.withLock { $0.append((result.input.isQueued ? "  " : "") + line) }
        }

        launcher.send("setUpgradePending", .bool(false))
        launcher.send("setCanLogIn", .bool(true))
        let initialized = launcher.send("initialize")

        withExtendedLifetime(observation) {}
        #expect(initialized.transition?.to == "initialized")
        #expect(
            results.withLock { $0 } == [
                "setUpgradePending(false): uninitialized -> uninitialized",
                "setCanLogIn(true): uninitialized -> uninitialized",
                "initialize: uninitialized -> initialized",
                "  upgrade: initialized -> initialized",
                "  indexDatabase: initialized -> indexing",
                "  logIn: indexing -> loggedIn",
            ])
        #expect(
            calls.all == [
                "showLoadingAnimation initialized->indexing (indexDatabase)",
                "hideLoadingAnimation indexing->loggedIn (logIn)",
                "logIn indexing->loggedIn (logIn)",
            ])
        #expect(loggedInWith.withLock { $0 } == ["upgradePending": .bool(false), "canLogIn": .bool(true)])
        #expect(launcher.state == "loggedIn")
        #expect(launcher.context == ["upgradePending": .bool(false), "canLogIn": .bool(true)])
    }

    @Test(.timeLimit(.minutes(1)))
    func itsStatesStreamStartsWithTheCurrentState() async throws {
        let car = try StateMachine(YAMLFile.load(path: Self.machines + "self-driving-car.yaml"))
        car.send("startEngine")
        let states = car.states
        car.send("pickUpPassengers")
        car.send("passengersHaveEntered", .int(4))
        #expect(await states.elements(count: 3) == ["parked", "pickingUpPassengers", "pickingUpPassengers"])
        #expect(car.context["passengers"] == .int(4))
    }

    @Test func logStepsReachTheLogHandler() throws {
        let machine = try StateMachine(YAMLFile.load(path: URLPath.packageRoot + "/Tests/SmrunTests/Fixtures/effect-steps.yaml"))
        let lines = Mutex<[String]>([])
        machine.logHandler = { entry in lines.withLock { $0.append("\(entry.effect): \(entry)") } }
        machine.send("measure", .int(7))
        machine.send("spell", .string("ab"))
        #expect(lines.withLock { $0 } == ["classify: size: \"medium\"", "spellOut: spelled"])
        #expect(machine.context["letters"] == .string("a0b1"))
    }

    @Test func resultsReportArgumentsAsSwiftValuesOfTheirInputs() throws {
        let car = try StateMachine(YAMLFile.load(path: Self.machines + "self-driving-car.yaml"))
        #expect(car.send("startEngine").input.is(Input("startEngine")))
        car.send("pickUpPassengers")
        let entered = car.send("passengersHaveEntered", .int(4))
        #expect(entered.transition?.input.argument(of: Input("passengersHaveEntered", taking: Int.self)) == 4)
        #expect(entered.transition?.input.is(Input("passengersHaveEntered", taking: String.self)) == false)
    }

    @Test func badInputsAreFailuresWithTheEnginesMessages() throws {
        let car = try StateMachine(YAMLFile.load(path: Self.machines + "self-driving-car.yaml"))
        let unknown = car.send("strtEngine")
        #expect(unknown.error?.kind == .unknownInput)
        #expect(unknown.error?.message == "unknown input 'strtEngine' (did you mean 'startEngine'?)")
        let missing = car.send("driveToLocation")
        #expect(missing.error?.kind == .badArgument)
        #expect(missing.error?.message == "'driveToLocation' takes one string argument")
        #expect(car.send("startEngine", .int(1)).error?.kind == .badArgument)
        #expect(car.send("park").error?.kind == .noTransition)
        #expect(car.state == "unstarted")
    }

    @Test func anIntIsAcceptedForADouble() throws {
        let scale = try StateMachine(
            YAMLFile.load(bytes: Array("""
                initial: idle
                context: { weight: 0.0 }
                inputs: { weigh: double }
                states: [idle]
                effects: { record: { set: { weight: arg } } }
                transitions:
                  - weigh | idle | record
                """.utf8), defaultName: "machine"))
        #expect(scale.send("weigh", .int(3)).isSuccess)
        #expect(scale.context["weight"] == .double(3))
    }

    @Test func boundClosuresRunAtStartAndQueueWhatTheySend() throws {
        let calls = Calls()
        let returned = Mutex<StateTransitionError<String>.Kind?>(nil)
        let machine = try StateMachine(
            YAMLFile.load(bytes: Array("""
                initial: a
                states:
                  a: { entry: [greet] }
                  b:
                  c:
                  d:
                effects:
                  start: { send: next }
                transitions:
                  - go | a => b | start, notify
                  - next | b => c
                  - last | c => d
                """.utf8), defaultName: "machine"),
            effects: [
                "greet": { calls.record($0) },
                "notify": { call in
                    calls.record(call)
                    returned.withLock { $0 = call.machine.send("last").error?.kind }
                },
            ])
        let results = Mutex<[String]>([])
        let observation = machine.observeResults { result in results.withLock { $0.append(result.input.name) } }

        machine.send("go")

        withExtendedLifetime(observation) {}
        #expect(calls.all == ["greet a->a (start)", "notify a->b (go)"])
        #expect(returned.withLock { $0 } == .queued)
        #expect(results.withLock { $0 } == ["go", "next", "last"])
        #expect(machine.state == "d")
    }

    @Test func bindingAnEffectTheMachineLacksIsAnError() {
        #expect {
            try StateMachine(YAMLFile.load(path: Self.machines + "app-launcher.yaml"), effects: ["logout": { _ in }])
        } throws: { error in
            (error as? StateMachine.BindingError)?.description
                == "machine 'app-launcher' has no effect 'logout' (did you mean 'logOut'?)"
        }
    }

    @Test func anInvalidFileIsAnErrorWithItsDiagnostics() {
        #expect {
            try StateMachine(YAMLFile.load(bytes: Array("initial: a\nstates: [a]\ntransitions:\n  - go | a => b\n".utf8), defaultName: "machine"))
        } throws: { error in
            (error as? LoadError)?.description == "4:15: transition refers to undefined state 'b'"
        }
    }

    @Test func aFileThatCannotBeReadIsAnErrorWithoutAPosition() {
        #expect {
            try StateMachine(YAMLFile.load(path: "/nonexistent/machine.yaml"))
        } throws: { error in
            (error as? LoadError)?.description == "cannot open: No such file or directory"
        }
    }
}

enum URLPath {
    /// The package's root directory, found from this file's path.
    static let packageRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)
        return components.joined(separator: "/")
    }()
}
