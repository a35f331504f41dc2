import Statecraft
import TestSupport
import Testing

/// Saving and restoring typed machines whose State and Context are `Codable`
/// (`snapshot()`, `init(restoring:...)`), in the document `smrun --state` writes.
struct TypedSnapshotTests {
    enum Car: String, MachineState, Codable { case unstarted, parked, pickingUp, driving, stopped }

    struct Trip: Codable, Equatable {
        var passengers = 0
        var stops: [String] = []
    }

    enum Inputs {
        static let start = Input("start")
        static let board = Input("board", taking: Int.self)
        static let drive = Input("drive")
        static let stop = Input("stop", taking: String.self)
        static let park = Input("park")
        static let halt = Input("halt")
    }

    /// The car's rows: a guard on the context, effects that change it, and an effect that sends.
    @MachineBuilder<Car, Trip>
    static func carRules() -> MachineRules<Car, Trip> {
        Inputs.start | .unstarted => .parked
        Inputs.board | .parked => .pickingUp | { $0.context.passengers += $0.argument }
        Inputs.board | .pickingUp => .pickingUp | { $0.context.passengers += $0.argument }
        Inputs.drive.given(.pickingUp).transition(to: .driving).when { $0.context.passengers > 0 }
        Inputs.stop | .driving => .stopped | { step in
            step.context.stops.append(step.argument)
            if step.context.stops.count >= 3 { step.send(Inputs.park) }
        }
        Inputs.drive | .stopped => .driving
        Inputs.park | [.stopped, .driving] => .parked
    }

    /// A result as `input: from -> to`, or `input: kind`.
    static func line(_ result: StateTransitionResult<Car>) -> String {
        switch result {
        case .success(let step): "\(step.input): \(step.from) -> \(step.to)"
        case .failure(let error): "\(error.input): \(error.kind.rawValue)"
        }
    }

    /// The same inputs sent to `machine`, as lines.
    static func continueTrip(_ machine: TypedStateMachine<Car, Trip>) -> [String] {
        [
            line(machine.send(Inputs.stop, "museum")), line(machine.send(Inputs.drive)),
            line(machine.send(Inputs.stop, "museum")), line(machine.send(Inputs.drive)),
            line(machine.send(Inputs.stop, "park")), line(machine.send(Inputs.drive)),
        ]
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func restoreError(_ bytes: [UInt8]) -> SnapshotError? {
        do {
            _ = try TypedStateMachine<Car, Trip>(restoring: bytes, rules: carRules)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Round trips

    @Test func aRestoredMachineContinuesAsTheOneThatSavedIt() throws {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip(), rules: Self.carRules)
        car.send(Inputs.start)
        car.send(Inputs.board, 2)
        car.send(Inputs.board, 1)
        car.send(Inputs.drive)
        car.send(Inputs.stop, "school")
        let saved = try car.snapshot()

        let restored = try TypedStateMachine<Car, Trip>(restoring: saved, rules: Self.carRules)
        #expect(restored.state == .stopped)
        #expect(restored.context == Trip(passengers: 3, stops: ["school"]))
        let expected = Self.continueTrip(car)
        #expect(Self.continueTrip(restored) == expected)
        // The third stop's effect sends park, which runs before `send` returns.
        #expect(
            expected == [
                "stop(museum): no-transition", "drive: stopped -> driving", "stop(museum): driving -> stopped",
                "drive: stopped -> driving", "stop(park): driving -> stopped", "drive: no-transition",
            ])
        #expect(restored.state == .parked)
        #expect(restored.state == car.state)
        #expect(restored.context == car.context)
        // A snapshot of the restored machine is the original's.
        #expect(try restored.snapshot() == car.snapshot())
    }

    @Test func theDocumentsStateAndContextAreTheEncodedStateAndContext() throws {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip(), rules: Self.carRules)
        car.send(Inputs.start)
        car.send(Inputs.board, 2)
        let lines = Self.text(try car.snapshot()).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 12)
        #expect(lines[0] == "{")
        #expect(lines[1] == "  \"format\": \"statecraft-snapshot\",")
        #expect(lines[2] == "  \"version\": 1,")
        #expect(lines[3] == "  \"machine\": \"Car\",")
        #expect(lines[4].hasPrefix("  \"fingerprint\": \"sha256:") && lines[4].count == "  \"fingerprint\": \"sha256:\",".count + 64)
        #expect(lines[5] == "  \"state\": \"pickingUp\",")
        #expect(Array(lines[6...]) == ["  \"context\": {", "    \"passengers\": 2,", "    \"stops\": []", "  }", "}", ""])
    }

    /// A Stated-style state carrying data, built by its row from the input's argument.
    enum Session: MachineState, Codable, Equatable {
        case loggedOut
        case loggedIn(account: String, attempts: Int)

        enum Slot { case loggedOut, loggedIn }
        var slot: Slot {
            switch self {
            case .loggedOut: .loggedOut
            case .loggedIn: .loggedIn
            }
        }

        static let logIn = Input("logIn", taking: String.self)
        static let logOut = Input("logOut")

        @MachineBuilder<Session, [String]>
        static func rules() -> MachineRules<Session, [String]> {
            logIn.given(.loggedOut).transition(to: .loggedIn) { .loggedIn(account: $0.argument, attempts: 1) }
                .performingSideEffect { $0.context.append($0.argument) }
            logOut | .loggedIn => .loggedOut
        }
    }

    @Test func aStateWithDataIsSavedAsItEncodesAndRestoredWithIt() throws {
        let session = TypedStateMachine(initial: Session.loggedOut, context: [String](), rules: Session.rules)
        session.send(Session.logIn, "ada")
        let saved = try session.snapshot()
        let text = Self.text(saved)
        #expect(text.contains("  \"state\": {\"loggedIn\": {\"account\": \"ada\", \"attempts\": 1}},\n"))
        #expect(text.contains("  \"context\": [\"ada\"]\n"))
        #expect(text.contains("  \"machine\": \"Session\",\n"))

        let restored = try TypedStateMachine<Session, [String]>(restoring: saved, rules: Session.rules)
        #expect(restored.state == .loggedIn(account: "ada", attempts: 1))
        #expect(restored.context == ["ada"])
        #expect(restored.send(Session.logOut).isSuccess)
        #expect(restored.send(Session.logIn, "grace").isSuccess)
        #expect(restored.context == ["ada", "grace"])
    }

    // MARK: - The fingerprint

    @Test func aSnapshotOfAnotherTableIsRefusedNamingBothFingerprints() throws {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip(), rules: Self.carRules)
        car.send(Inputs.start)
        let saved = try car.snapshot()
        let fingerprintLine = try #require(Self.text(saved).split(separator: "\n").first { $0.hasPrefix("  \"fingerprint\": ") })
        let savedFingerprint = String(fingerprintLine.split(separator: "\"")[3])
        #expect(savedFingerprint.hasPrefix("sha256:"))

        var error: SnapshotError?
        do throws(SnapshotError) {
            _ = try TypedStateMachine<Car, Trip>(restoring: saved) {
                Inputs.start | .unstarted => .parked
                Inputs.board | .parked => .pickingUp
                Inputs.board | .pickingUp => .pickingUp
                Inputs.drive | .pickingUp => .driving
                Inputs.stop | .driving => .stopped
                Inputs.drive | .stopped => .driving
                Inputs.park | [.stopped, .driving] => .parked
                Inputs.halt | .driving => .stopped  // one row more
            }
        } catch let refusal {
            error = refusal
        }
        let refusal = try #require(error)
        #expect(refusal.kind == .differentMachine)
        #expect(refusal.message.hasPrefix("the snapshot was saved by a different definition of machine 'Car' (fingerprint \(savedFingerprint.prefix(23))..., this definition's is sha256:"))

        // A row sent elsewhere, or rows in another order, is another table too.
        #expect(throws: SnapshotError.self) {
            _ = try TypedStateMachine<Car, Trip>(restoring: saved) {
                Inputs.start | .unstarted => .stopped
                Inputs.park | [.stopped, .driving] => .parked
            }
        }

        // A machine over another State type names the machine the snapshot belongs to.
        let other = TypedStateMachine(initial: Session.loggedOut, context: [String](), rules: Session.rules)
        let foreign = try other.snapshot()
        let foreignRefusal = try #require(Self.restoreError(foreign))
        #expect(foreignRefusal.kind == .differentMachine)
        #expect(foreignRefusal.message.hasPrefix("the snapshot belongs to machine 'Session' (fingerprint sha256:"))
        #expect(foreignRefusal.message.contains("not to 'Car' (fingerprint sha256:"))
    }

    @Test func guardsAndEffectsAreLeftOutOfTheFingerprint() throws {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip(), rules: Self.carRules)
        car.send(Inputs.start)
        car.send(Inputs.board, 1)
        let saved = try car.snapshot()
        // The same rows with other closures: different effects, another guard, one guard more.
        let restored = try TypedStateMachine<Car, Trip>(restoring: saved) {
            Inputs.start | .unstarted => .parked
            Inputs.board | .parked => .pickingUp
            Inputs.board | .pickingUp => .pickingUp | { $0.context.passengers += 10 * $0.argument }
            Inputs.drive.given(.pickingUp).transition(to: .driving).when { $0.context.passengers > 20 }
            Inputs.stop.given(.driving).transition(to: .stopped).when { _ in true }
            Inputs.drive | .stopped => .driving
            Inputs.park | [.stopped, .driving] => .parked
        }
        #expect(restored.state == .pickingUp)
        restored.send(Inputs.board, 2)
        #expect(restored.context.passengers == 21)
        #expect(restored.send(Inputs.drive).isSuccess)
    }

    @Test func theInitialStateIsLeftOutOfTheFingerprint() throws {
        let car = TypedStateMachine(initial: Car.parked, context: Trip(), rules: Self.carRules)
        car.send(Inputs.board, 1)
        let restored = try TypedStateMachine<Car, Trip>(restoring: try car.snapshot(), rules: Self.carRules)
        #expect(restored.state == .pickingUp)
    }

    // MARK: - Damaged documents

    @Test func aTruncatedOrDamagedSnapshotIsRefusedSayingWhatIsWrong() throws {
        let car = TypedStateMachine(initial: Car.unstarted, context: Trip(), rules: Self.carRules)
        let saved = try car.snapshot()

        let truncated = try #require(Self.restoreError(Array(saved.prefix(saved.count / 2))))
        #expect(truncated.kind == .syntax)
        #expect(truncated.message.hasPrefix("not valid JSON: "))
        #expect(truncated.message.contains(" at line "))

        let garbage = try #require(Self.restoreError(Array("\u{1}garbage".utf8)))
        #expect(garbage.kind == .syntax)
        #expect(try #require(Self.restoreError([])).kind == .syntax)

        let notASnapshot = try #require(Self.restoreError(Array("{\"state\": \"parked\"}".utf8)))
        #expect(notASnapshot.kind == .notASnapshot)
        #expect(notASnapshot.message == "not a Statecraft snapshot: no \"format\": \"statecraft-snapshot\" member")

        let text = Self.text(saved)
        func edited(_ old: String, _ new: String) -> [UInt8] {
            #expect(text.contains(old))
            return Array(text.replacing(old, with: new).utf8)
        }
        let noContext = try #require(Self.restoreError(edited(",\n  \"context\": {\n    \"passengers\": 0,\n    \"stops\": []\n  }", "")))
        #expect(noContext.kind == .invalidField)
        #expect(noContext.message == "missing member \"context\"")

        let badState = try #require(Self.restoreError(edited("\"state\": \"unstarted\"", "\"state\": \"flying\"")))
        #expect(badState.kind == .unknownState)
        #expect(badState.message.hasPrefix("\"state\" is not a Car: "))

        let badContext = try #require(Self.restoreError(edited("\"passengers\": 0", "\"passengers\": \"zero\"")))
        #expect(badContext.kind == .invalidContext)
        #expect(badContext.message == "\"context\" is not a Trip: at context.passengers: expected an integer, found the string \"zero\"")

        let missingField = try #require(Self.restoreError(edited("\"passengers\": 0,", "")))
        #expect(missingField.kind == .invalidContext)
        #expect(missingField.message == "\"context\" is not a Trip: at context: no member \"passengers\"")

        let unknownMember = try #require(Self.restoreError(edited("\"version\": 1,", "\"version\": 1, \"history\": {},")))
        #expect(unknownMember.kind == .invalidField)
        #expect(unknownMember.message == "unknown member \"history\"")
    }

    // MARK: - Timers

    enum Light: String, MachineState, Codable { case red, green, yellow }

    struct Cycles: Codable, Equatable { var count = 0 }

    static let button = Input("button")

    @MachineBuilder<Light, Cycles>
    static func lightRules() -> MachineRules<Light, Cycles> {
        After(.seconds(30)) | .red => .green
        After(.seconds(25)) | .green => .yellow
        After(.seconds(5)) | .yellow => .red | { $0.context.count += 1 }
        button | .green => .yellow
    }

    @Test func pendingTimersAreSavedAndFireAfterRestoringAsTheyWouldHave() throws {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: Cycles(), clock: clock, rules: Self.lightRules)
        clock.advance(by: .seconds(100))  // red 30, green 25, yellow 5: a cycle at 60s, then green at 90s
        #expect(light.state == .green)
        let saved = try light.snapshot()
        let text = Self.text(saved)
        #expect(text.contains("  \"state\": \"green\",\n  \"context\": {\n    \"count\": 1\n  },\n"))
        #expect(text.hasSuffix("  \"clock\": \"virtual\",\n  \"time\": 100000,\n  \"timers\": [\n    {\"due\": 115000, \"after\": \"25s\", \"state\": \"green\"}\n  ]\n}\n"))

        // Restored on another clock, which reads the snapshot's time from now.
        let other = ManualClock(start: ManualClock.Instant(offset: .seconds(7)))
        let restored = try TypedStateMachine<Light, Cycles>(restoring: saved, clock: other, rules: Self.lightRules)
        let log = Log<String>()
        let observation = restored.observeResults { result in
            if case .success(let step) = result { log.append("\(step.input): \(step.from) -> \(step.to)") }
        }
        other.advance(by: .seconds(14))
        #expect(restored.state == .green)
        other.advance(by: .seconds(1))
        #expect(restored.state == .yellow)
        other.advance(by: .seconds(5))
        withExtendedLifetime(observation) {}
        #expect(restored.state == .red)
        #expect(restored.context == Cycles(count: 2))
        #expect(log.elements == ["after 25s: green -> yellow", "after 5s: yellow -> red"])

        // The original, moved as far, is where the restored one is.
        clock.advance(by: .seconds(20))
        #expect(light.state == .red)
        #expect(try light.snapshot() == restored.snapshot())
    }

    @Test func aSnapshotOfATimedMachineWithoutPendingTimersKeepsItsTime() throws {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: Cycles(), clock: clock) {
            After(.seconds(30)) | .red => .green
        }
        clock.advance(by: .seconds(45))
        #expect(light.state == .green)
        let text = Self.text(try light.snapshot())
        #expect(text.hasSuffix("  \"time\": 45000,\n  \"timers\": []\n}\n"))
    }

    @Test func aTimerTheTableCannotHaveIsRefused() throws {
        let clock = ManualClock()
        let light = TypedStateMachine(initial: Light.red, context: Cycles(), clock: clock, rules: Self.lightRules)
        clock.advance(by: .seconds(10))
        let text = Self.text(try light.snapshot())
        #expect(text.contains("{\"due\": 30000, \"after\": \"30s\", \"state\": \"red\"}"))

        func refusal(_ old: String, _ new: String) -> SnapshotError? {
            do {
                _ = try TypedStateMachine<Light, Cycles>(
                    restoring: Array(text.replacing(old, with: new).utf8), clock: ManualClock(), rules: Self.lightRules)
                return nil
            } catch {
                return error
            }
        }
        let wrongState = try #require(refusal("\"state\": \"red\"}", "\"state\": \"green\"}"))
        #expect(wrongState.kind == .invalidTimer)
        #expect(wrongState.message == "the pending timer after 30s of green names an 'after: 30s' transition from 'green', which machine 'Light' does not have")
        let early = try #require(refusal("\"due\": 30000", "\"due\": 5000"))
        #expect(early.kind == .invalidTimer)
        #expect(early.message == "timer 1 in \"timers\", after 30s of red, is due at 5000, before \"time\" 10000")
    }
}
