import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP under `--state`: the run stops at a point where the state file
/// holds the state after the last result printed, and exits 128 + the signal's number.
///
/// Two cases, told apart by one atomic word:
/// - smrun is waiting for input (``waitingForInput()`` was called after saving and flushing,
///   and no line has been processed since): nothing is unsaved or unprinted, so the handler
///   exits at once (`_exit` is async-signal-safe);
/// - smrun is busy: the handler only records the signal; the run finishes the input in hand
///   (and the inputs it queued), then stops at ``shouldStop()``, saves, flushes and exits.
///
/// Without `--state` no handler is installed and the signals keep their default action.
enum StopSignals {
    /// Bit 0: waiting for input. Bits 1...: the first signal received, or 0.
    private static let word = Atomic<Int>(0)

    /// Installs the handlers (a signal ignored when smrun started, as in a background job,
    /// stays ignored).
    static func install() {
        _ = word.load(ordering: .relaxed)  // initialised before any handler can run
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number, { StopSignals.received($0) })
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                _ = signal(number, SIG_IGN)
            }
        }
    }

    /// The signal handler.
    private static func received(_ number: Int32) {
        var current = word.load(ordering: .sequentiallyConsistent)
        while true {
            let wanted = current >> 1 == 0 ? current | Int(number) << 1 : current
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: wanted, ordering: .sequentiallyConsistent)
            if exchanged {
                if wanted & 1 != 0 { _exit(128 + Int32(truncatingIfNeeded: wanted >> 1)) }
                return
            }
            current = original
        }
    }

    /// Whether the run should stop before the next input; checked once per input, so the
    /// common case is one relaxed load. It also ends the waiting-for-input period.
    @inline(__always)
    static func shouldStop() -> Bool {
        word.load(ordering: .relaxed) != 0 && resume()
    }

    private static func resume() -> Bool {
        word.bitwiseAnd(~1, ordering: .sequentiallyConsistent).newValue != 0
    }

    /// Called once everything processed has been saved and printed, just before a read that
    /// may block: a signal from now on exits at once. One already received exits now.
    static func waitingForInput() {
        let now = word.bitwiseOr(1, ordering: .sequentiallyConsistent).newValue
        if now >> 1 != 0 { exit(128 + Int32(truncatingIfNeeded: now >> 1)) }
    }

    /// The exit status for a stop by signal (128 + its number), or `nil` when none arrived.
    static var exitStatus: Int32? {
        let signal = word.load(ordering: .sequentiallyConsistent) >> 1
        return signal == 0 ? nil : 128 + Int32(truncatingIfNeeded: signal)
    }
}
