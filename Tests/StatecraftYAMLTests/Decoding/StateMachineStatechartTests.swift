import Foundation
import Statecraft
import StatecraftYAML
import Synchronization
import TestSupport
import Testing

/// Statecharts run from Swift on ``StateMachine``, as flat machines do: their state is their
/// configuration, their effects reach bound closures, and they save and restore themselves in
/// the document `smrun --state` writes.
struct StateMachineStatechartTests {
    static let machines = URLPath.packageRoot + "/machines/"

    @Test func aNestedParallelChartRunsWithItsConfigurationAsItsState() throws {
        let entered = Mutex<[String]>([])
        let player = try StateMachine(
            YAMLFile.load(path: Self.machines + "media-player.yaml"),
            effects: ["showControls": { call in entered.withLock { $0.append("\(call.effect): \(call.from) -> \(call.to)") } }])
        #expect(player.state == "stopped")
        let played = player.send("play")
        #expect(played.transition?.from == "stopped" && played.transition?.to == "sound, hd")
        #expect(player.configuration == ["sound", "hd"])
        #expect(player.isActive("playing") && player.isActive("active") && !player.isActive("paused"))
        #expect(!player.isActive("no-such-state"))
        player.send("mute")
        player.send("lowBandwidth")
        #expect(player.state == "muted, sd")
        #expect(entered.withLock { $0 } == ["showControls: stopped -> sound, hd"])
        let refused = player.send("unmuted")
        #expect(refused.error?.kind == .unknownInput)
        #expect(refused.error?.message == "unknown input 'unmuted' (did you mean 'unmute'?)")
        let stay = player.send("play")
        #expect(stay.error?.kind == .noTransition)
        #expect(stay.error?.message == "no transition for 'play' from 'muted, sd'")
    }

    @Test func aChartSavedAndRestoredResumesWithItsHistory() throws {
        let loaded = YAMLFile.load(path: Self.machines + "media-player.yaml")
        let machine = try #require(loaded.machine)
        let player = try StateMachine(machine)
        for input in ["play", "mute", "lowBandwidth", "pause"] { player.send(input) }
        #expect(player.state == "paused")
        let saved = player.snapshot()
        let text = String(decoding: saved, as: UTF8.self)
        #expect(text.contains(#""format":"statecraft-snapshot""#) || text.contains(#""format": "statecraft-snapshot""#), "\(text)")

        let resumed = try StateMachine(machine, restoring: saved)
        #expect(resumed.state == "paused")
        // Deep history brings back the muted sound and the lowered resolution.
        #expect(resumed.send("play").transition?.to == "muted, sd")
        #expect(player.send("play").transition?.to == "muted, sd")
    }

    @Test func aSnapshotOfAnotherMachineOrGarbageIsRefused() throws {
        let player = try StateMachine(YAMLFile.load(path: Self.machines + "media-player.yaml"))
        let light = try #require(YAMLFile.load(path: Self.machines + "traffic-light.yaml").machine)
        #expect {
            try StateMachine(light, restoring: player.snapshot())
        } throws: { error in
            (error as? SnapshotError)?.kind == .differentMachine
        }
        #expect {
            try StateMachine(light, restoring: Array("{\"format\": \"statecraft-snapshot\"".utf8))
        } throws: { error in
            (error as? SnapshotError)?.kind == .syntax
        }
    }

    @Test func aFlatMachinesTimersFireOnAManualClockAndSurviveARestore() throws {
        let machine = try #require(YAMLFile.load(path: Self.machines + "login-session.yaml").machine)
        let clock = ManualClock()
        let session = try StateMachine(machine, clock: clock)
        session.send("logIn")
        session.send("refused")
        #expect(session.state == "retrying")
        clock.advance(by: .milliseconds(250))
        #expect(session.state == "checking")
        #expect(session.context["attempts"] == .int(2))

        // Saved while checking: its 10 s timeout is pending and fires after the restore.
        let saved = session.snapshot()
        let later = ManualClock()
        let resumed = try StateMachine(machine, restoring: saved, clock: later)
        later.advance(by: .milliseconds(9_999))
        #expect(resumed.state == "checking")
        later.advance(by: .milliseconds(1))
        #expect(resumed.state == "loggedOut")
        #expect(resumed.context["attempts"] == .int(0))
    }
}

extension StateMachineStatechartTests {
    static let kettle = """
        machine: kettle
        initial: off
        inputs: [switchOn]
        states:
          off:
          on:
            states:
              heating:
              boiling:
        transitions:
          - switchOn | off => on
          - after: 3m
            from: heating
            to: boiling
          - after: 1m
            from: on
            to: off
        """

    @Test func aNestedStatesTimerFiresOnAManualClockAfterARestore() throws {
        let machine = try #require(YAMLFile.load(bytes: Array(Self.kettle.utf8), defaultName: "kettle").machine)
        let clock = ManualClock()
        let kettle = try StateMachine(machine, clock: clock)
        kettle.send("switchOn")
        #expect(kettle.state == "heating")
        clock.advance(by: .seconds(30))
        let saved = kettle.snapshot()

        let later = ManualClock()
        let resumed = try StateMachine(machine, restoring: saved, clock: later)
        let results = Mutex<[String]>([])
        let observation = resumed.observeResults { result in
            results.withLock { $0.append("\(result.input): \(result.transition.map { "\($0.from) -> \($0.to)" } ?? "rejected")") }
        }
        later.advance(by: .milliseconds(29_999))
        #expect(resumed.state == "heating")
        later.advance(by: .milliseconds(1))
        #expect(resumed.state == "off")
        withExtendedLifetime(observation) {}
        #expect(results.withLock { $0 } == ["after 1m: heating -> off"])
    }
}

extension StateMachineStatechartTests {
    @Test func timersSavedOnTheWallClockAreRefused() throws {
        let machine = try #require(YAMLFile.load(bytes: Array(Self.kettle.utf8), defaultName: "kettle").machine)
        let kettle = try StateMachine(machine, clock: ManualClock())
        kettle.send("switchOn")
        var lines = String(decoding: kettle.snapshot(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeAll { $0.contains(#""time""#) }
        let onTheWallClock = lines.joined(separator: "\n").replacingOccurrences(of: #""virtual""#, with: #""real""#)
        #expect(onTheWallClock.contains(#""real""#))
        #expect {
            try StateMachine(machine, restoring: Array(onTheWallClock.utf8), clock: ManualClock())
        } throws: { error in
            (error as? SnapshotError)?.kind == .invalidField && "\(error)".contains("wall clock")
        }
    }
}
