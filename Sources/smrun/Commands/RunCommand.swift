import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun run MACHINE.yaml`: feeds inputs to a machine and prints one result per input.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        _superCommandName: Smrun.name,
        abstract: "Run a machine over inputs given with --send or, one per line, in a script file or on standard input.",
        discussion: """
            Each input line is INPUT or INPUT ARG; ARG is the rest of the line, and a string may be \
            JSON-quoted. Blank lines and lines starting with # are skipped, and so is a comment \
            after a blank outside a JSON-quoted argument (go # note). With --input-format jsonl, each \
            line is a JSON object, {"input": NAME, "arg": VALUE} or {"wait": DURATION}. Exit status: 0 when every \
            input was accepted or ignored, 1 when any was rejected, 2 for an invalid machine or a usage \
            or I/O error.

            Examples:
              smrun machines/traffic-light.yaml machines/traffic-light.script
              smrun machines/checkout.yaml --send addItem=5 --send checkout
              smrun light.yaml --state light.json --wait 30s --send button
            """
    )

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Argument(
        help: ArgumentHelp("A file of input lines, or - for standard input, where they are read from without one.", valueName: "script"),
        completion: .file())
    var script: String?

    @Option(
        name: .customLong("input-format"),
        help: ArgumentHelp(
            "The input lines' format: script (INPUT or INPUT ARG, the default) or jsonl (one JSON object a line).",
            valueName: "format"))
    var inputFormat: InputFormatOption?

    @Option(name: .customLong("send"), help: ArgumentHelp("An input to send, as INPUT or INPUT=ARG; repeatable. Without it, inputs are read from the script or standard input.", valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .customLong("wait"),
        help: ArgumentHelp(
            "Move the machine's clock forward by DURATION (250ms, 30s, 5m, 1h), firing the timers that fall due; repeatable, taken in order with --send.",
            valueName: "duration"))
    var waits: [String] = []

    @Option(
        help: ArgumentHelp(
            "The clock timers run on: virtual (time moves only with @wait and --wait) or real (the wall clock: timers fire as time passes, also while smrun waits for input; @wait sleeps).",
            valueName: "clock"))
    var clock: ClockOption = .virtual

    @Flag(
        name: .customLong("wait-pending"),
        help: "With --clock real: at the end of input, wait until no timer is pending, firing each as it falls due, instead of ending the run.")
    var waitPending = false

    @Option(
        name: .customLong("max-timers"),
        help: "Most timers pending at once; a transition that would start more is rejected (timer-limit).")
    var timerLimit = RunLimits.defaultTimerLimit

    @Option(help: "Output format: text (for people) or json (JSON Lines).")
    var format: OutputFormat = .text

    @Option(name: .customLong("max-steps"), help: "Most queued inputs (and, in a statechart, eventless steps) processed for one external input before step-limit.")
    var stepLimit = RunLimits.defaultStepLimit

    @Option(name: .customLong("max-line-bytes"), help: "Longest input-script line accepted, in bytes.")
    var maximumLineBytes = RunSettings.defaultMaximumLineBytes

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp(
            "Resume from this snapshot file (state and context) and save to it, atomically, whenever smrun waits for input and at exit. Concurrent runs on one file take turns (a lock on FILE.lock). SIGINT or SIGTERM stops after the current input, with the file saved, exit status 130 or 143.",
            valueName: "file"), completion: .file())
    var stateFile: String?

    @Flag(help: "With --state: start from the initial state whatever FILE holds, keeping the old FILE as FILE.<UTC time>.bak.")
    var reset = false

    @Flag(
        help: ArgumentHelp(
            "With --state: resume a snapshot saved by an earlier definition of the machine, keeping its state and the context values whose variables still exist with the same type (the old FILE is kept as FILE.<UTC time>.bak). Refused when the saved state no longer exists."))
    var migrate = false

    @Flag(
        name: .customLong("by-key"),
        help: "Each input line starts with an instance's key (KEY INPUT [ARG]): every key is an instance of its own, created on first use; @wait moves every instance's clock.")
    var byKey = false

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "With --by-key: load the machine's instances from this store (a SQLite file, created when missing, or a postgres:// URL) and keep them there as smrun serve does, committing at least every second; results go out once their lines are committed.",
            valueName: "store"))
    var store: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if byKey {
            if !inputs.isEmpty || !waits.isEmpty { throw ValidationError("--by-key reads keyed lines of a script: --send and --wait do not name a key") }
            if stateFile != nil { throw ValidationError("--by-key runs many instances: --state saves one (smrun serve's store keeps many)") }
            if clock != .virtual { throw ValidationError("--by-key runs on the virtual clock: @wait moves every instance's clock") }
            if inputFormat?.lineFormat == .jsonl { throw ValidationError("--by-key reads script lines (KEY INPUT [ARG]), not JSON Lines") }
            if store != nil && (stepLimit != RunLimits.defaultStepLimit || timerLimit != RunLimits.defaultTimerLimit) {
                throw ValidationError("--store keeps instances as smrun serve runs them: --max-steps and --max-timers keep their defaults")
            }
        } else if store != nil {
            throw ValidationError("--store keeps the instances of a --by-key run (one instance's file is --state FILE)")
        }
        try limits.checkAgreement(alias: inputFormat?.machineFormat)
        if let script, !(inputs.isEmpty && waits.isEmpty) {
            throw ValidationError(
                "give inputs in the script '\(script)' or with --send and --wait, not both (in a script, a line '@wait DURATION' moves the clock)")
        }
        if let format = inputFormat, format.lineFormat != nil, !inputs.isEmpty {
            throw ValidationError("--input-format \(format.rawValue) names the format of input lines, and with --send there are none")
        }
        if (reset || migrate) && stateFile == nil { throw ValidationError("--\(reset ? "reset" : "migrate") needs --state FILE") }
        if reset && migrate { throw ValidationError("--reset and --migrate cannot be used together") }
        if stepLimit < 1 { throw ValidationError("--max-steps must be at least 1, not \(stepLimit)") }
        if maximumLineBytes < 1 { throw ValidationError("--max-line-bytes must be at least 1, not \(maximumLineBytes)") }
        if timerLimit < 1 { throw ValidationError("--max-timers must be at least 1, not \(timerLimit)") }
        if waitPending && clock != .real {
            throw ValidationError("--wait-pending needs --clock real: on the virtual clock, time moves only with @wait and --wait")
        }
        for wait in waits {
            do {
                _ = try Delay(parsing: wait)
            } catch {
                throw ValidationError("--wait '\(wait)' is not a duration: \(error.message)")
            }
        }
        // With --wait, inputs come only from --send: standard input would be dropped unread.
        if let wait = waits.first, inputs.isEmpty {
            throw ValidationError(
                "--wait needs --send: without --send, inputs are read from standard input, where a line '@wait \(wait)' moves the clock")
        }
    }

    /// The options as plain values.
    private var settings: RunSettings {
        RunSettings(
            machine: machine, script: script, inputs: inputs, waits: waits, clock: clock, waitPending: waitPending, timerLimit: timerLimit, format: format,
            stepLimit: stepLimit, maximumLineBytes: maximumLineBytes, stateFile: stateFile, reset: reset, migrate: migrate,
            lineFormat: inputFormat?.lineFormat ?? .script, machineFormat: limits.machineFormat(alias: inputFormat?.machineFormat),
            limits: limits.limits, byKey: byKey, store: store)
    }

    func run() throws {
        try settings.run()
    }
}
