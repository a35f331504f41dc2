// Timers of a statechart: a state's `after` timers start when the state is entered and are
// cancelled when it is exited, nested or not; delayed sends; the virtual clock
// (docs/semantics.md). None of this runs for a machine without timers.
extension ChartRunner {
    // MARK: - The clock

    /// How many timers are pending.
    public var pendingTimerCount: Int { timers.count }

    /// When the next timer is due, in milliseconds on the machine's clock, or `nil`.
    public mutating func nextTimerDue() -> Int? { timers.nextDue() }

    /// Moves the clock forward to `time` (milliseconds), firing every timer due by then in
    /// order, each with its result and run to completion after it (as ``Runner/advance(to:into:)``).
    public mutating func advance<Sink: ChartResultSink & ~Copyable>(to time: Int, into sink: inout Sink) {
        precondition(time >= self.time, "the clock only moves forward")
        guard machine.timers != nil else {
            self.time = time
            return
        }
        var instant = -1
        var firedAtInstant = 0
        while let due = timers.nextDue(), due <= time {
            self.time = due
            if due != instant {
                instant = due
                firedAtInstant = 0
            }
            guard let timer = timers.pop() else { break }
            firedAtInstant += 1
            if firedAtInstant > stepLimit {
                sink.receive(stepLimitResult(for: timer), from: self)
                continue
            }
            if let result = fire(timer) {
                sink.receive(result, from: self)
                if result.isAccepted || queueHead < queue.count { runToCompletion(into: &sink) }
            }
        }
        self.time = time
    }

    /// Resumes the clock at `time` with these pending timers (a snapshot's), without firing any.
    package mutating func restoreTimers(time: Int, pending: [TimerQueue.Timer]) {
        self.time = time
        timers.removeAll()
        for timer in pending {
            if timer.state >= 0 {
                timers.scheduleAfter(state: timer.state, input: timer.input, due: timer.due)
            } else {
                timers.scheduleSend(input: timer.input, argument: timer.argument, sentBy: timer.sentBy, timer: timer.timer, due: timer.due)
            }
        }
    }

    // MARK: - Firing

    /// Processes a timer that fell due; `nil` for an `after` whose guards are all false (or
    /// whose state is no longer active): discarded without a result.
    mutating func fire(_ timer: TimerQueue.Timer) -> ChartResult? {
        firedArgument = timer.argument
        let trigger: ChartResult.Trigger = timer.sentBy >= 0 ? .sent(effect: timer.sentBy) : .external
        var result = process(timer.input, argument: timer.argument, trigger: trigger)
        result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
        if timer.state >= 0, result.rejection == .guardRejected || result.rejection == .noTransition || result.outcome == .ignored {
            return nil
        }
        return result
    }

    /// At the due-timer marker: fires the next timer already due once the inputs queued
    /// before it are processed; `false` when the step limit was passed (the rest discarded).
    mutating func fireDueTimer<Sink: ChartResultSink & ~Copyable>(steps: inout Int, into sink: inout Sink) -> Bool {
        dueMarkerQueued = false
        if queueHead < queue.count {
            queueDueMarker()
            return true
        }
        while let due = timers.nextDue(), due <= time, let timer = timers.pop() {
            steps += 1
            if steps > stepLimit {
                var result = stepLimitResult(for: timer)
                result.discarded += queue.count - queueHead
                sink.receive(result, from: self)
                discardQueue()
                return false
            }
            if let result = fire(timer) {
                if let next = timers.nextDue(), next <= time { queueDueMarker() }
                sink.receive(result, from: self)
                return true
            }
        }
        return true
    }

    /// The `step-limit` result of a timer, discarding every timer due at the same instant.
    private mutating func stepLimitResult(for timer: TimerQueue.Timer) -> ChartResult {
        clearStep()
        firedArgument = timer.argument
        let trigger: ChartResult.Trigger = timer.sentBy >= 0 ? .sent(effect: timer.sentBy) : .external
        var result = ChartResult(trigger, input: timer.input, outcome: .rejected(.stepLimit))
        result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
        result.discarded = discardDueTimers()
        return result
    }

    /// Drops every timer due at or before the clock; how many.
    mutating func discardDueTimers() -> Int {
        var count = 0
        while let due = timers.nextDue(), due <= time, timers.pop() != nil { count += 1 }
        return count
    }

    // MARK: - Starting and cancelling

    /// Whether the step being committed (``exitSet``, ``nextConfiguration``, the timer requests
    /// of its effects) keeps the pending timers within ``timerLimit``.
    mutating func timersFit() -> Bool {
        guard let info = machine.timers else { return true }
        var added = 0
        for request in timerRequests {
            if case .send = request { added += 1 }
        }
        for state in info.timedStates where entersAnew(state, next: nextConfiguration) {
            added += info.afters[state].count
        }
        return added == 0 || timers.count + added <= timerLimit
    }

    /// Whether the step enters `state`: active after it, and either inactive before or exited.
    private func entersAnew(_ state: Int, next: [UInt64]) -> Bool {
        Self.contains(next, state) && (!Self.contains(configuration, state) || Self.contains(exitSet, state))
    }

    /// After a step committed (``configuration`` is the new one, ``nextConfiguration`` the old):
    /// the exited states' `after` timers are cancelled, the entered states' started, in
    /// document order, then the effects' delayed sends and cancels are applied.
    mutating func commitTimers() {
        guard let info = machine.timers else { return }
        var dueNow = false
        for state in info.timedStates where Self.contains(exitSet, state) { timers.cancelAfters(of: state) }
        for state in info.timedStates
        where Self.contains(configuration, state) && (!Self.contains(nextConfiguration, state) || Self.contains(exitSet, state)) {
            if timers.startAfters(info.afters[state], of: state, now: time) { dueNow = true }
        }
        if !timerRequests.isEmpty {
            if timers.apply(timerRequests, now: time) { dueNow = true }
            timerRequests.removeAll(keepingCapacity: true)
        }
        if dueNow { queueDueMarker() }
    }

    /// Queues the marker where timers already due fire, unless it is queued.
    mutating func queueDueMarker() {
        guard !dueMarkerQueued else { return }
        dueMarkerQueued = true
        // At the end of the external queue: after everything the current input set going.
        queue.append(Queued(input: -1, argument: .null, sender: -1))
        externalCount += 1
    }
}
