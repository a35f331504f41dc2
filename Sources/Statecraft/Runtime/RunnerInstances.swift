// Many instances of one machine on one runner: what each instance holds between inputs, apart
// from what every instance shares (the compiled machine, the limits, the step's buffers).
// `smrun run --by-key` keeps one of these per key and exchanges it into its one runner for each
// line; a runner per key copied the compiled machine and the buffers in and out every line.
//
// An instance is read from memory once per input, at a place no earlier input touched, so it is
// kept small: the clock and timers of a machine that has timers are held apart, behind one word
// (a flat machine's instance without them is 24 bytes, not 80).

/// An instance's clock and pending timers, for a machine that has timers.
@usableFromInline
package struct InstanceTiming: Sendable {
    var time: Int
    var timers: TimerQueue
}

extension TableRunner {
    /// What one instance of a flat machine holds between inputs: its state, context, clock and
    /// pending timers.
    @usableFromInline package struct Instance: Sendable {
        var state: Int
        var values: [Value]
        /// The clock and timers: one element for a machine with timers, none without (an
        /// array, so that they are a word here and copied on write).
        var timing: [InstanceTiming]
    }

    /// A copy of the runner's instance.
    @usableFromInline package var instance: Instance {
        Instance(state: current, values: values, timing: timing)
    }

    /// Puts `instance` in place of the runner's own, and the runner's into `instance`. Between
    /// inputs only (nothing queued). The context's version moves, so a caller that shows the
    /// context shows the new one.
    @usableFromInline package mutating func exchangeInstance(_ instance: inout Instance) {
        swap(&current, &instance.state)
        swap(&values, &instance.values)
        exchangeTiming(&instance.timing)
        contextVersion &+= 1
    }
}

extension ChartRunner {
    /// What one instance of a statechart holds between inputs: its configuration, context (with
    /// the runner's own slots), history records, clock and pending timers.
    @usableFromInline package struct Instance: Sendable {
        var configuration: [UInt64]
        var values: [Value]
        var historyRecords: [Int32]
        var historyCounts: [Int32]
        var leafHint: Int32
        var isFinished: Bool
        /// The clock and timers: one element for a machine with timers, none without.
        var timing: [InstanceTiming]
    }

    /// A copy of the runner's instance.
    @usableFromInline package var instance: Instance {
        Instance(
            configuration: configuration, values: values, historyRecords: historyRecords, historyCounts: historyCounts,
            leafHint: leafHint, isFinished: isFinished, timing: timing)
    }

    /// Puts `instance` in place of the runner's own, and the runner's into `instance`. Between
    /// inputs only (nothing queued; every step sets the configuration it starts from, which a
    /// result shows as `from`, itself). The context's version moves, so a caller that shows the
    /// context shows the new one.
    @usableFromInline package mutating func exchangeInstance(_ instance: inout Instance) {
        swap(&configuration, &instance.configuration)
        swap(&values, &instance.values)
        swap(&historyRecords, &instance.historyRecords)
        swap(&historyCounts, &instance.historyCounts)
        swap(&leafHint, &instance.leafHint)
        swap(&isFinished, &instance.isFinished)
        exchangeTiming(&instance.timing)
        contextVersion &+= 1
    }
}

extension TimedRunner {
    /// A copy of the clock and timers, for a machine that has timers (none for one without).
    fileprivate var timing: [InstanceTiming] {
        machine.hasTimers ? [InstanceTiming(time: time, timers: timers)] : []
    }

    /// Exchanges the runner's clock and timers with `timing`'s (nothing without timers).
    fileprivate mutating func exchangeTiming(_ timing: inout [InstanceTiming]) {
        guard !timing.isEmpty else { return }
        swap(&time, &timing[0].time)
        swap(&timers, &timing[0].timers)
    }
}
