import Foundation
import Testing

/// `--migrate` and the pending `after` timers of an edited machine (docs/snapshots.md#timers):
/// a timer whose state still has an `after` is kept as that `after`, from the time its state
/// was entered; what no longer exists is dropped, loudly; an `after` without a pending timer
/// starts at the next entry, and the message says so. `smrun status` says the same.
@Suite struct TimerMigrationTests {
    /// An order that is cancelled when unpaid `after` a while.
    static func order(after: String?) -> String {
        """
        machine: order
        initial: awaitingPayment
        inputs:
          pay:
        states:
          awaitingPayment:
          paid:
          cancelled:
        transitions:
          - input: pay
            from: awaitingPayment
            to: paid

        """ + (after.map { "  - after: \($0)\n    from: awaitingPayment\n    to: cancelled\n" } ?? "")
    }

    /// A state file of the order with `after: 30m`, saved after `@wait 10m`, and the order
    /// file edited to `after`.
    private func savedAt10Minutes(_ files: TemporaryFiles, editedTo after: String?) throws -> (machine: String, state: String) {
        let machine = try files.file("order.yaml", Self.order(after: "30m"))
        let state = files.path("order.json")
        let first = try Smrun.run([machine, "--state", state], input: .bytes(Data("@wait 10m\n".utf8)))
        #expect(first.exited(0), "\(first.errorText)")
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#"{"due": 1800000, "after": "30m", "state": "awaitingPayment"}"#))
        try Data(Self.order(after: after).utf8).write(to: URL(fileURLWithPath: machine))
        return (machine, state)
    }

    @Test func aTimerWhoseAfterChangedIsKeptFromItsStatesEntryAndFiresThatMuchLater() throws {
        let files = try TemporaryFiles()
        let (machine, state) = try savedAt10Minutes(files, editedTo: "45m")
        let early = try Smrun.run([machine, "--state", state, "--migrate"], input: .bytes(Data("@wait 34m59s\n".utf8)))
        #expect(early.exited(0), "\(early.errorText)")
        #expect(early.lines.isEmpty, "\(early.text)")
        #expect(
            early.errorText.contains(
                "migrated to this definition of machine 'order': kept state 'awaitingPayment'; kept timer after 30m of awaitingPayment as after 45m, due at 2700000 ms (in 35m); the old file is "
            ), "\(early.errorText)")
        let due = try Smrun.run([machine, "--state", state], input: .bytes(Data("@wait 1s\n".utf8)))
        #expect(due.exited(0), "\(due.errorText)")
        #expect(due.lines == ["after 45m: awaitingPayment -> cancelled"], "\(due.text)")
    }

    @Test func aTimerWhoseNewDurationHasPassedIsDueNow() throws {
        let files = try TemporaryFiles()
        let (machine, state) = try savedAt10Minutes(files, editedTo: "5m")
        let run = try Smrun.run([machine, "--state", state, "--migrate"], input: .bytes(Data("@wait 0s\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.errorText.contains("kept timer after 30m of awaitingPayment as after 5m, due at 600000 ms (now)"), "\(run.errorText)")
        #expect(run.lines == ["after 5m: awaitingPayment -> cancelled"], "\(run.text)")
    }

    @Test func statusSaysWhatMigrateWouldRescheduleInTextAndJSON() throws {
        let files = try TemporaryFiles()
        let (machine, state) = try savedAt10Minutes(files, editedTo: "45m")
        let text = try Smrun.run(["status", "--state", state, machine])
        #expect(text.exited(1))
        #expect(text.lines.contains("  after 30m of awaitingPayment, due in 20m"), "\(text.text)")
        #expect(
            text.lines.last
                == "--migrate would keep state 'awaitingPayment'; would keep timer after 30m of awaitingPayment as after 45m, due at 2700000 ms (in 35m)",
            "\(text.text)")
        let json = try Smrun.run(["status", "--state", state, machine, "--format", "json"])
        #expect(
            json.text.contains(
                #""migration":{"possible":true,"state":"awaitingPayment","kept":[],"dropped":[],"initialized":[],"rescheduled_timers":[{"timer":"after 30m of awaitingPayment","as":"after 45m","state":"awaitingPayment","due":2700000}]}"#
            ), "\(json.text)")
        #expect(json.text.contains(#""timers":[{"due":1800000,"after":"30m","state":"awaitingPayment"}],"due_in":[1200000]"#), "\(json.text)")
    }

    @Test func aTimerWhoseAfterIsGoneIsDroppedLoudly() throws {
        let files = try TemporaryFiles()
        let (machine, state) = try savedAt10Minutes(files, editedTo: nil)
        let run = try Smrun.run([machine, "--state", state, "--migrate"], input: .bytes(Data("@wait 1h\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(
            run.errorText.contains(
                "dropped timer after 30m of awaitingPayment (is pending, and machine 'order' has no timers)"), "\(run.errorText)")
        #expect(run.lines.isEmpty, "\(run.text)")
    }

    @Test func anAfterAddedToAStateWithoutAPendingTimerStartsAtItsNextEntryAndTheMessageSaysSo() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("order.yaml", Self.order(after: nil))
        let state = files.path("order.json")
        #expect(try Smrun.run([machine, "--state", state]).exited(0))
        try Data(Self.order(after: "30m").utf8).write(to: URL(fileURLWithPath: machine))
        let run = try Smrun.run([machine, "--state", state, "--migrate"], input: .bytes(Data("@wait 1h\n".utf8)))
        #expect(run.exited(0), "\(run.errorText)")
        #expect(
            run.errorText.contains("after 30m of awaitingPayment has no pending timer: it starts when its state is next entered"),
            "\(run.errorText)")
        #expect(run.lines.isEmpty, "\(run.text)")
    }
}
