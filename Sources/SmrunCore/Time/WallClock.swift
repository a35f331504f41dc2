#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock of `--clock real`, in milliseconds since the Unix epoch: what a machine's
/// timers are due on, and how long smrun may wait for input before the next one falls due.
package enum WallClock {
    /// Now, in milliseconds since the Unix epoch.
    package static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int(time.tv_sec) * 1_000 + Int(time.tv_nsec) / 1_000_000
    }

    /// How long to wait, as `poll(2)`'s timeout, for a timer due at `due`: -1 (no limit)
    /// without one, 0 when it is due already.
    package static func timeout(until due: Int?) -> Int32 {
        guard let due else { return -1 }
        let remaining = due - now()
        return remaining <= 0 ? 0 : Int32(clamping: remaining)
    }

    /// Sleeps `milliseconds` (a signal may end it sooner).
    package static func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        _ = poll(nil, 0, Int32(clamping: milliseconds))
    }
}
