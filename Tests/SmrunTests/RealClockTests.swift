import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `smrun --clock real` end to end (docs/cli.md): timers fire on the wall clock while smrun
/// waits for input, `@wait` sleeps, `--wait-pending` waits for the last timers, and a state
/// file keeps due times on the wall clock. Durations are tens of milliseconds; the tests assert
/// what is printed and in which order, never how long it took.
@Suite struct RealClockTests {
    /// `go` turns a light on; on for 40 ms, off for 20 ms, and so on, until `stop`; `once`
    /// turns it on for 40 ms and then off for good.
    static let blink = """
        machine: blink
        initial: idle
        inputs: [go, once, stop]
        states: { idle: , on: , off: , lit: , done: }
        transitions:
          - go | idle => on
          - once | idle => lit
          - after: 40ms
            from: on
            to: off
          - after: 20ms
            from: off
            to: on
          - after: 40ms
            from: lit
            to: done
          - stop | on, off => idle
        """

    @Test func aTimerFiresWhileSmrunWaitsForInput() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("blink.yaml", Self.blink)
        let process = try SmrunProcess([machine, "--clock", "real"], input: nil)
        try process.write("go\n")
        #expect(try process.readLine(timeout: .seconds(30)) == "go: idle -> on")
        // No more input arrives, and yet the timers fire, each as it falls due.
        #expect(try process.readLine(timeout: .seconds(30)) == "after 40ms: on -> off")
        #expect(try process.readLine(timeout: .seconds(30)) == "after 20ms: off -> on")
        try process.write("stop\n")
        // More timers may fire before stop arrives; then nothing but stop's result.
        var line = try process.readLine(timeout: .seconds(30))
        while let timer = line, timer.hasPrefix("after ") { line = try process.readLine(timeout: .seconds(30)) }
        #expect(line?.hasPrefix("stop: ") == true && line?.hasSuffix(" -> idle") == true, "\(line ?? "end of output")")
        try process.closeInput()
        let run = try process.finish(output: nil, timeout: .seconds(30))
        #expect(run.exited(0), "\(run.errorText)")
    }

    @Test func theEndOfInputEndsTheRunWithTimersPendingUnlessWaitPendingIsGiven() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("blink.yaml", Self.blink.replacingOccurrences(of: "after: 40ms\n    from: lit", with: "after: 1h\n    from: lit"))
        let ends = try Smrun.run([machine, "--clock", "real", "--send", "once"], timeout: .seconds(30))
        #expect(ends.exited(0), "\(ends.errorText)")
        #expect(ends.lines == ["once: idle -> lit"])

        let waits = try Smrun.run([try files.file("once.yaml", Self.blink), "--clock", "real", "--wait-pending"], input: .bytes(Data("once\n".utf8)))
        #expect(waits.exited(0), "\(waits.errorText)")
        #expect(waits.lines == ["once: idle -> lit", "after 40ms: lit -> done"])
    }

    @Test func waitSleepsOnTheWallClockFiringWhatFallsDue() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("blink.yaml", Self.blink)
        let script = try Smrun.run([machine, "--clock", "real", "--format", "json"], input: .bytes(Data("once\n@wait 100ms\nstop\n".utf8)))
        #expect(script.exited(1), "stop is rejected in done")
        let lines = try script.jsonLines()
        #expect(lines.map { ($0["input"] ?? $0["after"]) as? String } == ["once", "40ms", "stop"])
        let at = try #require(lines[1]["at"] as? Int)
        #expect(at > 1_700_000_000_000, "due times are wall-clock milliseconds since the Unix epoch")

        let sends = try Smrun.run([machine, "--clock", "real", "--send", "once", "--wait", "100ms", "--send", "stop"])
        #expect(sends.lines.prefix(2) == ["once: idle -> lit", "after 40ms: lit -> done"])
    }

    @Test func aResumedRunFiresWhatFellDueWhileItWasStoppedBeforeTheFirstNewInput() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("blink.yaml", Self.blink)
        let path = files.path("blink.json")
        let first = try Smrun.run([machine, "--clock", "real", "--state", path, "--send", "go"])
        #expect(first.exited(0), "\(first.errorText)")
        #expect(first.lines == ["go: idle -> on"])
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains(#""clock": "real","#) && !saved.contains(#""time""#), "\(saved)")
        #expect(saved.contains(#""after": "40ms", "state": "on"}"#), "\(saved)")
        Thread.sleep(forTimeInterval: 0.15)
        let second = try Smrun.run([machine, "--clock", "real", "--state", path, "--send", "stop"])
        #expect(second.exited(0), "\(second.errorText)")
        #expect(second.lines.count >= 3, "\(second.lines)")
        #expect(second.lines.prefix(2) == ["after 40ms: on -> off", "after 20ms: off -> on"])
        #expect(second.lines.last?.hasPrefix("stop: ") == true)

        // Idle has no timer pending, so the virtual clock may resume it; then one is pending on
        // the virtual clock, which the real one refuses.
        let virtual = try Smrun.run([machine, "--state", path, "--send", "go"])
        #expect(virtual.exited(0) && virtual.lines == ["go: idle -> on"], "\(virtual.errorText)")
        let wrongClock = try Smrun.run([machine, "--state", path, "--clock", "real"])
        #expect(wrongClock.exited(2) && wrongClock.errorText.contains("on the virtual clock"), "\(wrongClock.errorText)")
    }

    @Test func aSignalWhileWaitingForATimerExitsWithTheFileSaved() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("blink.yaml", Self.blink.replacing("after: 40ms\n    from: lit", with: "after: 1h\n    from: lit"))
        let path = files.path("blink.json")
        let process = try SmrunProcess([machine, "--clock", "real", "--state", path], input: nil)
        try process.write("once\n")
        #expect(try process.readLine(timeout: .seconds(30)) == "once: idle -> lit")
        kill(process.pid, SIGTERM)
        let run = try process.finish(output: nil, timeout: .seconds(30))
        #expect(run.exited(143), "\(run.errorText)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains(#""state": "lit""#) && saved.contains(#""after": "1h", "state": "lit"}"#), "\(saved)")
    }

    @Test func aStatechartRunsOnTheWallClockToo() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "chart.yaml",
            """
            initial: online
            inputs: [click]
            states:
              online:
                states:
                  idle:
                  busy:
              offline:
            transitions:
              - click | idle => busy
              - after: 30ms
                from: busy
                to: idle
              - after: 60ms
                from: online
                to: offline
            """)
        let run = try Smrun.run([machine, "--clock", "real", "--wait-pending", "--send", "click"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines == ["click: idle -> busy", "after 30ms: busy -> idle", "after 60ms: idle -> offline"])
    }

    @Test func waitPendingNeedsTheRealClock() throws {
        let run = try Smrun.run(["machines/timed-traffic-light.yaml", "--wait-pending"])
        #expect(run.exited(2) && run.stdout.isEmpty)
        #expect(run.errorText.contains("--wait-pending needs --clock real"), "\(run.errorText)")
    }
}
