import Foundation
import Testing

/// `smrun --state FILE` on machines with timers, on the virtual clock (docs/snapshots.md): the
/// snapshot holds the clock and the pending timers, so a run split at any point fires what one
/// run would, in the same order; `status` shows them; edited machines follow `--migrate`.
@Suite struct TimerStateFileTests {
    static let light = "machines/timed-traffic-light.yaml"
    static let login = "machines/login-session.yaml"

    /// The results of `steps` (`--send`/`--wait` arguments) run at once, and run one step per
    /// smrun on a state file.
    private func onceAndSplit(_ machine: String, _ steps: [[String]]) throws -> (once: [String], split: [String]) {
        let once = try Smrun.run([machine] + steps.flatMap { $0 })
        #expect(once.exited(0), "\(once.errorText)")
        let files = try TemporaryFiles()
        let path = files.path("state.json")
        var split: [String] = []
        for step in steps {
            // A wait alone is a script's `@wait` line (--wait needs --send).
            let run =
                step.first == "--wait" && step.count == 2
                ? try Smrun.run([machine, "--state", path], input: .bytes(.init("@wait \(step[1])\n".utf8)))
                : try Smrun.run([machine, "--state", path] + step)
            #expect(run.exited(0), "\(run.errorText)")
            split += run.lines
        }
        return (once.lines, split)
    }

    @Test func aRunSplitBetweenAnyStepsFiresTheSameTimersInTheSameOrder() throws {
        let light = try onceAndSplit(
            Self.light,
            [["--wait", "1m"], ["--send", "button"], ["--wait", "40s"], ["--send", "button"], ["--wait", "3s"], ["--wait", "2s"]])
        #expect(light.split == light.once)
        #expect(light.once.contains("cross (sent by requestCrossing, timer crossing): green -> yellow / endCrossing, slow"))
        let login = try onceAndSplit(
            Self.login,
            [["--send", "logIn"], ["--send", "refused"], ["--wait", "250ms"], ["--send", "accepted"], ["--wait", "4m"], ["--wait", "1m"]])
        #expect(login.split == login.once)
        #expect(login.once.suffix(2) == [
            "warn (sent by scheduleWarning, timer idleWarning): loggedIn -> loggedIn / showWarning",
            "after 5m: loggedIn -> loggedOut / cancelWarning, timedOut",
        ])
    }

    @Test func theSnapshotHoldsTheClockAndThePendingTimersByName() throws {
        let files = try TemporaryFiles()
        let path = files.path("login.json")
        let run = try Smrun.run([Self.login, "--state", path, "--send", "logIn", "--send", "accepted", "--wait", "1m"])
        #expect(run.exited(0), "\(run.errorText)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("""
              "context": {
                "attempts": 0
              },
              "clock": "virtual",
              "time": 60000,
              "timers": [
                {"due": 240000, "input": "warn", "sent_by": "scheduleWarning", "timer": "idleWarning"},
                {"due": 300000, "after": "5m", "state": "loggedIn"}
              ]
            }

            """), "\(text)")
    }

    @Test func aDelayedSendKeepsItsArgumentAndTwoAftersOfOneDurationKeepTheirOrder() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "reminder.yaml",
            """
            initial: idle
            context: { total: 0 }
            inputs:
              start: { arg: int }
              remind: { arg: int, internal: true }
              stop:
            states: { idle: , waiting: }
            effects:
              schedule: { send: { input: remind, arg: arg * 2, delay: 10s } }
              add: { set: { total: total + arg } }
              first:
              second:
            transitions:
              - start | idle => waiting | schedule
              - remind | waiting | add
              - after: 5s
                from: waiting
                effects: [first]
              - after: 5s
                from: waiting
                effects: [second]
              - stop | waiting => idle
            """)
        let path = files.path("reminder.json")
        let first = try Smrun.run([machine, "--state", path, "--send", "start=21"])
        #expect(first.exited(0), "\(first.errorText)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"{"due": 5000, "after": "5s", "state": "waiting"},"#), "\(text)")
        #expect(text.contains(#"{"due": 5000, "after": "5s", "state": "waiting", "nth": 2},"#), "\(text)")
        #expect(text.contains(#"{"due": 10000, "input": "remind", "arg": 42, "sent_by": "schedule"}"#), "\(text)")
        let second = try Smrun.run([machine, "--state", path, "--format", "json"], input: .bytes(.init("@wait 10s\n".utf8)))
        #expect(second.exited(0), "\(second.errorText)")
        #expect(second.lines == [
            #"{"line":1,"after":"5s","at":5000,"ok":true,"from":"waiting","to":"waiting","effects":["first"],"context":{"total":0}}"#,
            #"{"line":1,"after":"5s","at":5000,"ok":true,"from":"waiting","to":"waiting","effects":["second"],"context":{"total":0}}"#,
            #"{"line":1,"input":"remind","arg":42,"at":10000,"ok":true,"from":"waiting","to":"waiting","effects":["add"],"sent_by":"schedule","context":{"total":42}}"#,
        ])
    }

    /// A machine whose `schedule` sends `ring` after a delay it computes (`delay_expr`, SCXML's
    /// `delayexpr`), with or without an id; `ring` counts in `rings`.
    static let computedDelays: [(file: String, text: String, send: String)] = [
        (
            "ledger.yaml",
            """
            initial: open
            context: { rings: 0 }
            inputs: { schedule: int, ring: }
            states: [open]
            effects:
              later: { send: { input: ring, delay_expr: "max(arg, 0)" } }
              ring: { set: { rings: rings + 1 } }
            transitions:
              - schedule | open | later
              - ring | open | ring
            """,
            "schedule=1500"
        ),
        (
            "ledger-id.yaml",
            """
            initial: open
            context: { rings: 0 }
            inputs: { schedule: int, ring: }
            states: [open]
            effects:
              later: { send: { input: ring, delay_expr: "string(arg) + 'ms'", id: bell } }
              ring: { set: { rings: rings + 1 } }
            transitions:
              - schedule | open | later
              - ring | open | ring
            """,
            "schedule=1500"
        ),
        (
            "ledger.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="ledger">
              <datamodel><data id="rings" expr="0"/><data id="wait" expr="'1.5s'"/></datamodel>
              <state id="open">
                <transition event="schedule"><send event="ring" delayexpr="wait" id="bell"/></transition>
                <transition event="ring"><assign location="rings" expr="rings + 1"/></transition>
              </state>
            </scxml>
            """,
            "schedule"
        ),
    ]

    @Test(arguments: computedDelays)
    func aSendWhoseDelayIsComputedIsSavedAndFiresWhenDueAfterTheFileIsRead(file: String, text: String, send: String) throws {
        let files = try TemporaryFiles()
        let machine = try files.file(file, text)
        let path = files.path("ledger.json")
        let first = try Smrun.run([machine, "--state", path, "--send", send])
        #expect(first.exited(0), "\(first.errorText)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains(#"{"due": 1500, "input": "ring", "sent_by": "#), "\(saved)")
        let early = try Smrun.run([machine, "--state", path, "--format", "json"], input: .bytes(.init("@wait 1s\n".utf8)))
        #expect(early.exited(0) && early.lines.isEmpty, "\(early.text)\(early.errorText)")
        let due = try Smrun.run([machine, "--state", path, "--format", "json"], input: .bytes(.init("@wait 1s\n".utf8)))
        #expect(due.exited(0), "\(due.errorText)")
        #expect(due.lines.count == 1 && due.text.contains(#""input":"ring","at":1500,"ok":true"#), "\(due.text)")
        #expect(due.text.contains(#""rings":1"#), "\(due.text)")
    }

    @Test func aComputedDelaysTimerNamingAnEffectWithoutThatSendIsRefusedAndTheFileIsKept() throws {
        let files = try TemporaryFiles()
        let (name, text, send) = Self.computedDelays[1]
        let machine = try files.file(name, text)
        let path = files.path("ledger.json")
        _ = try Smrun.run([machine, "--state", path, "--send", send])
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        let good = #"{"due": 1500, "input": "ring", "sent_by": "later", "timer": "bell"}"#
        #expect(saved.contains(good), "\(saved)")
        for (timer, reason) in [
            (#"{"due": 1500, "input": "ring", "sent_by": "ring", "timer": "bell"}"#,
             "the pending timer ring (sent by ring, timer bell) was sent by effect 'ring', which has no delayed send of 'ring' with id 'bell'"),
            (#"{"due": 1500, "input": "ring", "sent_by": "later"}"#,
             "the pending timer ring (sent by later) was sent by effect 'later', which has no delayed send of 'ring' without an id"),
        ] {
            let bad = Data(saved.replacingOccurrences(of: good, with: timer).utf8)
            try bad.write(to: URL(fileURLWithPath: path))
            let run = try Smrun.run([machine, "--state", path], input: .bytes(.init("@wait 2s\n".utf8)))
            #expect(run.exited(2) && run.stdout.isEmpty)
            #expect(run.errorText.contains("smrun: state file \(path): \(reason); the file was not changed"), "\(run.errorText)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bad)
        }
    }

    @Test func aStatechartKeepsTheTimersOfItsNestedAndParentStates() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "chart.yaml",
            TimedChart.yaml)
        let path = files.path("chart.json")
        let first = try Smrun.run([machine, "--state", path, "--send", "click", "--wait", "5s"])
        #expect(first.exited(0), "\(first.errorText)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""state": ["busy"]"#) && text.contains(#""time": 5000"#), "\(text)")
        #expect(text.contains(#"{"due": 10000, "after": "10s", "state": "busy"}"#), "\(text)")
        #expect(text.contains(#"{"due": 60000, "after": "1m", "state": "online"}"#), "\(text)")
        let second = try Smrun.run([machine, "--state", path], input: .bytes(.init("@wait 1m\n".utf8)))
        #expect(second.exited(0), "\(second.errorText)")
        #expect(second.lines == ["after 10s: busy -> idle", "after 1m: idle -> offline"])
    }

    @Test func statusShowsTheClockAndThePendingTimers() throws {
        let files = try TemporaryFiles()
        let path = files.path("login.json")
        _ = try Smrun.run([Self.login, "--state", path, "--send", "logIn", "--send", "accepted", "--wait", "1m"])
        let text = try Smrun.run(["status", "--state", path])
        #expect(text.exited(0), "\(text.errorText)")
        #expect(text.lines.suffix(4) == [
            "clock: virtual, at 60000 ms",
            "timers:",
            "  warn (sent by scheduleWarning, timer idleWarning), due in 3m",
            "  after 5m of loggedIn, due in 4m",
        ])
        let json = try Smrun.run(["status", "--state", path, "--format", "json"])
        #expect(json.text.contains(
            #""pending":[],"clock":"virtual","time":60000,"timers":[{"due":240000,"input":"warn","sent_by":"scheduleWarning","timer":"idleWarning"},{"due":300000,"after":"5m","state":"loggedIn"}],"due_in":[180000,240000]}"#),
            "\(json.text)")
    }

    @Test func migratingKeepsATimerWhoseAfterChangedFromItsStatesEntry() throws {
        let files = try TemporaryFiles()
        let path = files.path("login.json")
        _ = try Smrun.run([Self.login, "--state", path, "--send", "logIn", "--send", "accepted", "--wait", "1m"])
        let original = try String(contentsOfFile: Self.login, encoding: .utf8)
        let edited = try files.file("login.yaml", original.replacingOccurrences(of: "after: 5m", with: "after: 6m"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let refused = try Smrun.run([edited, "--state", path, "--send", "activity"])
        #expect(refused.exited(2) && refused.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let migrated = try Smrun.run([edited, "--state", path, "--migrate"], input: .bytes(.init("@wait 4m\n".utf8)))
        #expect(migrated.exited(0), "\(migrated.errorText)")
        #expect(migrated.errorText.contains(
            "kept state 'loggedIn' and context attempts; kept timer after 5m of loggedIn as after 6m, due at 360000 ms (in 5m)"),
            "\(migrated.errorText)")
        #expect(migrated.lines == ["warn (sent by scheduleWarning, timer idleWarning): loggedIn -> loggedIn / showWarning"])
        let later = try Smrun.run([edited, "--state", path], input: .bytes(Data("@wait 1m\n".utf8)))
        #expect(later.lines == ["after 6m: loggedIn -> loggedOut / cancelWarning, timedOut"], "\(later.text)")
    }

    @Test(arguments: [
        (#"{"due": 90000, "input": "honk"}"#, "the pending timer honk sends 'honk', which is not an input of machine 'timed-traffic-light'"),
        (#"{"due": 90000, "after": "20s", "state": "red"}"#,
         "the pending timer after 20s of red names an 'after: 20s' transition from 'red', which machine 'timed-traffic-light' does not have"),
        (#"{"due": 90000, "after": "25s", "state": "green"}"#, "the pending timer after 25s of green belongs to state 'green', which is not active"),
        (#"{"due": 10, "after": "30s", "state": "red"}"#, "timer 1 in \"timers\", after 30s of red, is due at 10, before \"time\" 60000"),
        (#"{"due": 90000, "input": "cross", "sent_by": "go", "timer": "crossing", "arg": 1}"#,
         "the pending timer cross 1 (sent by go, timer crossing) has an \"arg\", and input 'cross' takes none"),
        (#"{"due": 90000, "input": "cross", "sent_by": "go"}"#,
         "the pending timer cross (sent by go) was sent by effect 'go', which has no delayed send of 'cross' without an id"),
        (#"{"due": 90000, "input": "cross", "timer": "crossing"}"#,
         "the pending timer cross (timer crossing) has no \"sent_by\": a delayed send is sent by an effect"),
        (#"{"due": "soon", "after": "30s", "state": "red"}"#,
         "timer 1 in \"timers\": \"due\" must be a time in milliseconds, an integer from 0, not \"soon\""),
    ])
    func aTimerTheMachineCannotHaveIsRefusedNamingItAndTheFileIsKept(timer: String, message: String) throws {
        let files = try TemporaryFiles()
        let path = files.path("light.json")
        _ = try Smrun.run([Self.light, "--state", path, "--wait", "1m", "--send", "button"])
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        let good = #"{"due": 90000, "after": "30s", "state": "red"}"#
        #expect(saved.contains(good))
        let bad = Data(saved.replacingOccurrences(of: good, with: timer).utf8)
        try bad.write(to: URL(fileURLWithPath: path))
        let run = try Smrun.run([Self.light, "--state", path], input: .bytes(.init("@wait 1m\n".utf8)))
        #expect(run.exited(2) && run.stdout.isEmpty)
        #expect(run.errorText.contains("smrun: state file \(path): \(message); the file was not changed"), "\(run.errorText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bad)
    }

    @Test func aSnapshotWithoutTimersResumesAMachineWithTimers() throws {
        let files = try TemporaryFiles()
        let path = files.path("light.json")
        _ = try Smrun.run([Self.light, "--state", path])
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        let old = try #require(saved.components(separatedBy: ",\n  \"clock\"").first) + "\n}\n"
        try Data(old.utf8).write(to: URL(fileURLWithPath: path))
        let run = try Smrun.run([Self.light, "--state", path, "--send", "button", "--wait", "1h"])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines == ["button: red -> red"], "no timer was pending")
    }

    @Test func pendingTimersResumeOnlyOnTheirOwnClockAndWithinMaxTimers() throws {
        let files = try TemporaryFiles()
        let path = files.path("light.json")
        _ = try Smrun.run([Self.light, "--state", path])
        let real = try Smrun.run([Self.light, "--state", path, "--clock", "real"])
        #expect(real.exited(2) && real.stdout.isEmpty)
        #expect(real.errorText.contains(
            "its pending timer is on the virtual clock, and this run is on the real clock; the file was not changed; run without --clock real, or with --reset to start afresh (keeping a backup)"),
            "\(real.errorText)")
        let capped = try Smrun.run([Self.light, "--state", path, "--max-timers", "1", "--send", "button"])
        #expect(capped.exited(0), "\(capped.errorText)")
        try Data(try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: #"{"due": 30000, "after": "30s", "state": "red"}"#,
            with: #"{"due": 30000, "after": "30s", "state": "red"}, {"due": 31000, "input": "cross", "sent_by": "requestCrossing", "timer": "crossing"}"#).utf8).write(to: URL(fileURLWithPath: path))
        let over = try Smrun.run([Self.light, "--state", path, "--max-timers", "1", "--send", "button"])
        #expect(over.exited(2) && over.errorText.contains("it has 2 pending timers, more than --max-timers 1"), "\(over.errorText)")
    }
}
