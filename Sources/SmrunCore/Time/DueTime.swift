import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pending timer's due time for people: how far off it is as a duration (`in 10m`, `now`,
/// `overdue by 3m`), and on the real clock the UTC time it stands for.
package enum DueTime {
    /// How far `due` is from `now` (both in milliseconds on one clock): `in 9m59s`, `now`, or
    /// `overdue by 3m` (on the real clock, when no run was going as it fell due).
    package static func relative(_ due: Int, now: Int) -> String {
        if due == now { return "now" }
        return due > now
            ? "in \(Delay.compoundText(milliseconds: due - now))" : "overdue by \(Delay.compoundText(milliseconds: now - due))"
    }

    /// A time on the real clock, in milliseconds since the Unix epoch, as UTC:
    /// `2026-11-25T02:49:29.898Z`.
    package static func utc(_ milliseconds: Int) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let date = "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))"
        let time = "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2)).\(digits(Int32(milliseconds % 1000), 3))"
        return "\(date)T\(time)Z"
    }

    /// The clock's time now: the snapshot's `"time"` on the virtual clock, the wall clock's on
    /// the real one.
    package static func now(_ clock: MachineSnapshot.Clock, time: Int) -> Int { clock == .virtual ? time : WallClock.now() }

    /// A due time as `smrun status` shows it: `in 5s` on the virtual clock, `in 10m (at
    /// 2026-11-25T02:49:29.898Z)` on the real clock.
    package static func status(_ due: Int, clock: MachineSnapshot.Clock, now: Int) -> String {
        clock == .virtual ? relative(due, now: now) : "\(relative(due, now: now)) (at \(utc(due)))"
    }

    /// A due time as a migration message names it: `at 2700000 ms (in 35m)` on the virtual
    /// clock, `at 2026-11-25T02:49:29.898Z (in 35m)` on the real clock.
    package static func absolute(_ due: Int, clock: MachineSnapshot.Clock, now: Int) -> String {
        "at \(clock == .virtual ? "\(due) ms" : utc(due)) (\(relative(due, now: now)))"
    }
}
