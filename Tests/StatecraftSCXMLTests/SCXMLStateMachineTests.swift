import Statecraft
import StatecraftSCXML
import Synchronization
import Testing

/// An SCXML document run from Swift on ``StateMachine``, as `smrun` runs it: the same results,
/// its done events and effects published to observers, saved and restored.
@Suite struct SCXMLStateMachineTests {
    static let stopwatch = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/machines/stopwatch.scxml"

    @Test func theStopwatchRunsAsSmrunRunsIt() throws {
        let watch = try StateMachine(SCXMLFile.load(path: Self.stopwatch))
        let lines = Mutex<[String]>([])
        let observation = watch.observeResults { result in
            let indent = result.input.isQueued ? "  " : ""
            let line =
                switch result {
                case .success(let step) where step.isIgnored: "\(step.input): \(step.from): ignored"
                case .success(let step): "\(step.input): \(step.from) -> \(step.to)"
                case .failure(let error): "\(error.input): \(error.state): rejected: \(error.kind.rawValue)"
                }
            lines.withLock { $0.append(indent + line) }
        }
        #expect(watch.state == "ready")
        for input in ["start", "tick", "lap", "tick", "pause", "tick", "lock", "resume", "unlock", "resume", "tick", "stop"] {
            watch.send(input)
        }
        withExtendedLifetime(observation) {}
        #expect(
            lines.withLock { $0 } == [
                "start: ready -> running", "tick: running -> running", "lap: running -> running", "tick: running -> running",
                "pause: running -> paused", "tick: paused: ignored", "lock: paused -> locked", "resume: locked: ignored",
                "unlock: locked -> paused", "resume: paused -> running", "tick: running -> running", "stop: running -> stopped",
                "  done.state.timing: stopped -> shown",
            ])
        #expect(watch.context["elapsed"] == .int(3) && watch.context["laps"] == .int(1))
    }

    @Test func aLockedStopwatchSavedAndRestoredUnlocksIntoItsHistory() throws {
        let machine = try #require(SCXMLFile.load(path: Self.stopwatch).machine)
        let watch = try StateMachine(machine)
        for input in ["start", "tick", "pause", "lock"] { watch.send(input) }
        let resumed = try StateMachine(machine, restoring: watch.snapshot())
        #expect(resumed.state == "locked")
        #expect(resumed.send("unlock").transition?.to == "paused")
        #expect(resumed.context["elapsed"] == .int(1))
    }
}
