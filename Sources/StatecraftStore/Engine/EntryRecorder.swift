import SmrunCore
import Statecraft

/// The sink of an instance's run: prints each result as `smrun --format json` does, and cuts
/// the printed lines into history entries, one per input and one per timer that fires (a timer
/// due at once after an input starts an entry of its own).
struct EntryRecorder<Runner: MachineRunner>: ResultSink, ~Copyable {
    var printer: ResultPrinter<Runner>
    let codec: SnapshotCodec
    let clock: MachineSnapshot.Clock
    private(set) var entries: [InstanceRun.Entry] = []
    /// Whether results are those of an input's run (a timer result there begins an entry).
    var inInputRun = false

    init(printer: consuming ResultPrinter<Runner>, codec: SnapshotCodec, clock: MachineSnapshot.Clock) {
        self.printer = printer
        self.codec = codec
        self.clock = clock
    }

    static var queuesInputs: Bool { false }

    mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
        if inInputRun && result.isTimer && !entries.isEmpty {
            closeEntry()
            // Fired as it was started: described by what it fires.
            var timer = Array("{\"due\":\(Self.timeText(runner.time, clock: clock)),".utf8)
            if let after = runner.machine.timers?.afterTexts[result.input] ?? nil {
                timer += Array("\"after\":".utf8)
                JSONText.appendQuoted(Array(after.utf8), to: &timer)
            } else {
                timer += Array("\"input\":".utf8)
                JSONText.appendQuoted(Array(runner.machine.inputNames[result.input].utf8), to: &timer)
            }
            timer.append(UInt8(ascii: "}"))
            begin(InstanceRun.Entry(kind: .timer, at: runner.time, timer: String(decoding: timer, as: UTF8.self), results: ""))
        }
        printer.receive(result, from: &runner)
    }

    /// Starts an entry; the results printed from now on are its own.
    mutating func begin(_ entry: InstanceRun.Entry) {
        closeEntry()
        entries.append(entry)
    }

    /// Gives the entry begun last the results printed since it began.
    mutating func closeEntry() {
        let bytes = printer.output.takeBytes()
        guard !entries.isEmpty, entries[entries.count - 1].results.isEmpty else { return }
        entries[entries.count - 1].results = Self.jsonArray(lines: bytes)
    }

    /// The entries, each with its results.
    mutating func finish() -> [InstanceRun.Entry] {
        closeEntry()
        return entries
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

    /// A time as the API shows it: on the real clock an RFC 3339 string, on a virtual clock
    /// the milliseconds.
    static func timeText(_ milliseconds: Int, clock: MachineSnapshot.Clock) -> String {
        clock == .real ? "\"\(DueTime.utc(milliseconds))\"" : String(milliseconds)
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
