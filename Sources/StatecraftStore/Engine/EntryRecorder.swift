import SmrunCore
import Statecraft

/// The sink of an instance's run: prints each result as `smrun --format json` does, and cuts
/// the printed lines into history entries, one per input and one per timer that fires (a timer
/// due at once after an input starts an entry of its own). Each entry ends with the instance
/// after it (``HistoryEntry/stateAfter``): its status, states and context, and the transitions
/// its results took, by their index in ``CompiledMachine/transitions`` (the order the machine
/// file writes them).
struct EntryRecorder<Runner: MachineRunner>: ResultSink, ~Copyable {
    var printer: ResultPrinter<Runner>
    let codec: SnapshotCodec
    let clock: MachineSnapshot.Clock
    /// Whether the instance shows one `state` (else a `configuration` and `history_states`).
    let isFlat: Bool
    /// Whether the machine has timers (``CompiledMachine/hasTimers``), kept here: reading it
    /// through the runner from this module copies the whole machine on every result.
    let hasTimers: Bool
    private(set) var entries: [InstanceRun.Entry] = []
    /// Whether results are those of an input's run (a timer result there begins an entry).
    var inInputRun = false
    /// The transitions the entry begun last took so far.
    private var transitions: [Int] = []
    /// In an input's run of a machine with timers: the instance after the latest result. A timer
    /// due at once ends the input's entry, and its result comes after the runner moved on.
    private var settled: Settled?

    /// Where an instance is, as the runner showed it.
    private struct Settled {
        var configuration: [Int]
        var histories: [Int: [Int]]
        var context: [Value]
        var isFinal: Bool

        init(_ runner: borrowing Runner) {
            let saved = runner.savedState
            configuration = saved.configuration.isEmpty ? [saved.state] : saved.configuration
            histories = saved.histories
            context = runner.context
            isFinal = runner.isFinished
        }
    }

    init(printer: consuming ResultPrinter<Runner>, codec: SnapshotCodec, clock: MachineSnapshot.Clock, isFlat: Bool, hasTimers: Bool) {
        self.printer = printer
        self.codec = codec
        self.clock = clock
        self.isFlat = isFlat
        self.hasTimers = hasTimers
    }

    static var queuesInputs: Bool { false }

    mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
        if inInputRun && result.isTimer && !entries.isEmpty {
            closeEntry(after: settled)
            // Fired as it was started, so no longer pending: listed as the snapshot listed it,
            // an `after` with its state, a delayed send with the effect that sent it.
            let timers = runner.machine.timers
            let state = timers.flatMap { timers in timers.afters.firstIndex { $0.contains { $0.input == result.input } } } ?? -1
            let fired = SnapshotTimer(
                due: runner.time, state: state, input: result.input, argument: runner.queuedArgument(of: result) ?? .null,
                sentBy: state >= 0 ? -1 : result.sentBy)
            entries.append(InstanceRun.Entry(kind: .timer, at: runner.time, timer: timerText(fired), results: ""))
        }
        printer.receive(result, from: &runner)
        if result.isAccepted {
            var taken = transitions
            transitions = []
            runner.forEachTransitionTaken(of: result) { transition, _, _ in taken.append(transition) }
            transitions = taken
        }
        if inInputRun && hasTimers { settled = Settled(runner) }
    }

    /// Starts an entry, ending the one begun before it with `runner` as it is now; the results
    /// printed from now on are the new entry's.
    mutating func begin(_ entry: InstanceRun.Entry, runner: borrowing Runner) {
        closeEntry(after: entries.isEmpty ? nil : Settled(runner))
        entries.append(entry)
    }

    /// Gives the entry begun last the results printed since it began, the transitions they
    /// took and the instance after them (`settled`).
    private mutating func closeEntry(after settled: Settled?) {
        let bytes = printer.output.takeBytes()
        defer { transitions.removeAll(keepingCapacity: true) }
        guard !entries.isEmpty, entries[entries.count - 1].results.isEmpty, let settled else { return }
        entries[entries.count - 1].results = Self.jsonArray(lines: bytes)
        entries[entries.count - 1].stateAfter = stateAfter(settled)
    }

    /// The entries, each with its results and the instance after it (the last one: `runner` now).
    mutating func finish(runner: borrowing Runner) -> [InstanceRun.Entry] {
        closeEntry(after: entries.isEmpty ? nil : Settled(runner))
        return entries
    }

    /// `"status":...,` the states and context, `,"transitions":[...]`.
    private func stateAfter(_ settled: Settled) -> String {
        var out: [UInt8] = Array((settled.isFinal ? "\"status\":\"final\"," : "\"status\":\"running\",").utf8)
        out.reserveCapacity(256)
        InstanceStateJSON.append(
            configuration: settled.configuration, histories: settled.histories, context: settled.context, machine: codec.machine,
            isFlat: isFlat, to: &out)
        out.append(contentsOf: ",\"transitions\":[".utf8)
        for (index, transition) in transitions.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: String(transition).utf8)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The printer, for the next run.
    consuming func takePrinter() -> ResultPrinter<Runner> {
        printer
    }

    /// A timer entry's `timer`: the timer as the snapshot lists it, its due time as a time.
    func timerText(_ timer: SnapshotTimer) -> String {
        var bytes: [UInt8] = []
        codec.appendTimer(timer, due: clock == .real ? DueTime.utc(timer.due) : nil, compact: true, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// JSON Lines (each ending with a newline) as one JSON array.
    static func jsonArray(lines: [UInt8]) -> String {
        var array: [UInt8] = [UInt8(ascii: "[")]
        array.reserveCapacity(lines.count + 2)
        var first = true
        var start = 0
        for index in lines.indices where lines[index] == UInt8(ascii: "\n") {
            if index > start {
                if !first { array.append(UInt8(ascii: ",")) }
                array.append(contentsOf: lines[start..<index])
                first = false
            }
            start = index + 1
        }
        array.append(UInt8(ascii: "]"))
        return String(decoding: array, as: UTF8.self)
    }
}
