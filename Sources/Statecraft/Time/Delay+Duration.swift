extension Delay {
    /// `duration` as a delay, written in the largest unit that divides it (`30s`, `1500ms`,
    /// `5m`); `nil` when it is negative, finer than a millisecond or over 100 years.
    init?(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        guard duration >= .zero, attoseconds % attosecondsPerMillisecond == 0,
            seconds <= Int64(Delay.maximumMilliseconds / 1000)
        else { return nil }
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / attosecondsPerMillisecond)
        guard milliseconds <= Delay.maximumMilliseconds else { return nil }
        let text =
            switch milliseconds {
            case 0: "0s"
            case let ms where ms % 3_600_000 == 0: "\(ms / 3_600_000)h"
            case let ms where ms % 60_000 == 0: "\(ms / 60_000)m"
            case let ms where ms % 1000 == 0: "\(ms / 1000)s"
            case let ms: "\(ms)ms"
            }
        self.init(milliseconds: milliseconds, text: text)
    }

    /// The delay as a `Duration`.
    var duration: Duration { .milliseconds(milliseconds) }
}

extension Duration {
    /// The duration in whole milliseconds, a finer part dropped (`Int.max` past its range): a
    /// time on a machine's clock.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? Int.min : Int.max }
        return milliseconds + Int(attoseconds / 1_000_000_000_000_000)
    }
}
