import Foundation
import Statecraft
import StatecraftYAML
import Synchronization
import Testing

/// The Swift snippets of the DocC articles about machine files (Statecraft.docc:
/// Statecraft.md, RunningMachineFiles.md, Time.md, SavingAndRestoring.md,
/// TestingWithScenarioFiles.md), as written there, run from the package root as `swift test` runs.
struct ArticleExampleTests {
    // MARK: RunningMachineFiles.md and Statecraft.md

    @Test func thePlayerRunsWithItsConfiguration() throws {
        let shown = Mutex<[String]>([])
        let player = try StateMachine(YAMLFile.load(path: "machines/media-player.yaml"), effects: [
            "showControls": { call in shown.withLock { $0.append("controls shown, from \(call.from)") } },
        ])
        #expect(player.send("play").transition.map { "\($0.from) -> \($0.to)" } == "stopped -> sound, hd")
        #expect(player.configuration == ["sound", "hd"])
        #expect(player.send("mute").transition?.to == "muted, hd")
        #expect(player.send("rewind").error?.message == "unknown input 'rewind'")
        #expect(shown.withLock { $0 } == ["controls shown, from stopped"])

        #expect(player.state == "muted, hd")
        #expect(player.configuration == ["muted", "hd"])
        #expect(player.isActive("playing"))
        #expect(!player.isActive("paused"))

        let lines = Mutex<[String]>([])
        let observation = player.observeResults { result in
            switch result {
            case .success(let transition): lines.withLock { $0.append("\(transition.input): \(transition.from) -> \(transition.to)") }
            case .failure(let error): lines.withLock { $0.append("\(error.input): \(error)") }
            }
        }
        player.send("unmute")
        player.send("unmute")
        withExtendedLifetime(observation) {}
        #expect(
            lines.withLock { $0 } == [
                "unmute: muted, hd -> sound, hd", "unmute: no-transition: no transition for 'unmute' from 'sound, hd'",
            ])
    }

    @Test func theCarTakesArguments() throws {
        let car = try StateMachine(YAMLFile.load(path: "machines/self-driving-car.yaml"))
        car.send("startEngine")
        car.send("pickUpPassengers")
        let entered = car.send("passengersHaveEntered", .int(4))
        #expect(entered.transition?.to == "pickingUpPassengers")
        #expect(car.context["passengers"] == .int(4))

        let error = try #require(car.send("noMapInput").error)
        #expect("\(error.kind) \(error.message)" == "noTransition no transition for 'noMapInput' from 'pickingUpPassengers'")
    }

    @Test func theLaunchersHooksAreBound() throws {
        let calls = Mutex<[String]>([])
        let launcher = try StateMachine(YAMLFile.load(path: "machines/app-launcher.yaml"), effects: [
            "showLoadingAnimation": { _ in calls.withLock { $0.append("loading...") } },
            "logIn": { call in calls.withLock { $0.append("logged in, from \(call.from)") } },
        ])
        #expect(launcher.send("initialize").isSuccess)
        #expect(calls.withLock { $0 }.first == "loading...", "\(calls.withLock { $0 })")
        #expect {
            try StateMachine(YAMLFile.load(path: "machines/app-launcher.yaml"), effects: ["logon": { _ in }])
        } throws: { error in
            error is StateMachine.BindingError
        }
    }

    @Test func diagnosticsAreReadBeforeRunning() throws {
        let loaded = YAMLFile.load(path: "machines/traffic-light.yaml")
        for diagnostic in loaded.diagnostics { print("machines/traffic-light.yaml:\(diagnostic)") }    // path:line:column: warning: ...
        let machine = try #require(loaded.machine)
        let light = try StateMachine(machine)
        #expect(light.state == "red")
    }

    // MARK: Time.md

    @Test func aRefusedLogInIsRetriedAfter250Milliseconds() throws {
        let clock = ManualClock()
        let session = try StateMachine(YAMLFile.load(path: "machines/login-session.yaml"), clock: clock)
        session.send("logIn")
        session.send("refused")
        #expect(session.state == "retrying")
        let inputs = Mutex<[String]>([])
        let observation = session.observeResults { result in inputs.withLock { $0.append(result.input.name) } }
        clock.advance(by: .milliseconds(250))
        #expect(session.state == "checking")
        #expect(session.context["attempts"] == .int(2))
        withExtendedLifetime(observation) {}
        #expect(inputs.withLock { $0 } == ["after 250ms"])
    }

    // MARK: SavingAndRestoring.md

    @Test func thePlayerResumesWithItsHistory() throws {
        let player = try StateMachine(YAMLFile.load(path: "machines/media-player.yaml"))
        for input in ["play", "mute", "lowBandwidth", "pause"] { player.send(input) }
        let saved: [UInt8] = player.snapshot()          // paused, remembering muted and sd

        let resumed = try StateMachine(player.machine, restoring: saved)
        #expect(resumed.state == "paused")
        #expect(resumed.send("play").transition.map { "\($0.from) -> \($0.to)" } == "paused -> muted, sd")

        let light = try StateMachine(YAMLFile.load(path: "machines/traffic-light.yaml"))
        var message: String?
        do {
            _ = try StateMachine(light.machine, restoring: player.snapshot())
        } catch let error as SnapshotError where error.kind == .differentMachine {
            message = error.message
        }
        #expect(message?.hasPrefix("the snapshot belongs to machine 'media-player' (fingerprint ") == true, "\(message ?? "nil")")
    }

    // MARK: TestingWithScenarioFiles.md

    @Test(arguments: try FileManager.default.contentsOfDirectory(atPath: "machines/scenarios")
        .filter { $0.hasSuffix(".test.yaml") && !$0.hasPrefix("microwave") })
    func scenarios(_ file: String) throws {
        let report = try ScenarioFile.run(path: "machines/scenarios/" + file)
        #expect(report.passed, "\(report)")
    }
}

extension ArticleExampleTests {
    /// README.md's two Swift snippets.
    @Test func theReadmesSnippets() throws {
        let launcher = try StateMachine(YAMLFile.load(path: "machines/app-launcher.yaml"), effects: [
            "logIn": { call in print("logged in") },
        ])                                        // SCXMLFile.load(path:) (StatecraftSCXML) for SCXML
        #expect(launcher.send("initialize").isSuccess)

        enum Light: MachineState { case red, green, yellow }
        let go = Input("go"), slow = Input("slow"), stop = Input("stop")

        let light = TypedStateMachine(initial: Light.red) {
            go   | .red    => .green
            slow | .green  => .yellow
            stop | .yellow => .red
        }
        #expect(light.send(go).transition?.to == .green)
    }
}
