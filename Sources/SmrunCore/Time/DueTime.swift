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
        // Floored, so that a time before 1970 counts back from its second's start.
        let (second, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var seconds = time_t(millisecond < 0 ? second - 1 : second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Written digit by digit: the server writes one for every instance it answers with.
        return String(unsafeUninitializedCapacity: 24) { text in
            var end = 0
            func put(_ value: Int, digits: Int, then separator: Unicode.Scalar) {
                var value = value
                for position in (end..<end + digits).reversed() {
                    text[position] = UInt8(ascii: "0") + UInt8(abs(value % 10))
                    value /= 10
                }
                text[end + digits] = UInt8(ascii: separator)
                end += digits + 1
            }
            put(Int(parts.tm_year) + 1900, digits: 4, then: "-")
            put(Int(parts.tm_mon) + 1, digits: 2, then: "-")
            put(Int(parts.tm_mday), digits: 2, then: "T")
            put(Int(parts.tm_hour), digits: 2, then: ":")
            put(Int(parts.tm_min), digits: 2, then: ":")
            put(Int(parts.tm_sec), digits: 2, then: ".")
            put(millisecond < 0 ? millisecond + 1000 : millisecond, digits: 3, then: "Z")
            return end
        }
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
