// Timers of a flat machine: `after` transitions started when their state is entered and
// cancelled when it is left, delayed sends, and the virtual clock that fires them
// (docs/semantics.md). None of this runs for a machine without timers: the cells that enter
// or leave a state with `after` transitions are searched, never taken directly.
extension Runner {
    // MARK: - The clock

    /// How many timers are pending.
    public var pendingTimerCount: Int { timers.count }

    /// When the next timer is due, in milliseconds on the machine's clock, or `nil`.
    public mutating func nextTimerDue() -> Int? { timers.nextDue() }

    /// Moves the clock forward to `time` (milliseconds), firing every timer due by then in
    /// order: the clock steps to each one's due time, and each yields its result (an `after`
    /// whose guards are false yields none), followed by the inputs it queued (run to
    /// completion). At most ``stepLimit`` timers fire at one instant; the next is a
    /// `step-limit` result, and the timers due at that instant are discarded.
    public mutating func advance<Sink: ResultSink & ~Copyable>(to time: Int, into sink: inout Sink) {
        precondition(time >= self.time, "the clock only moves forward")
        var instant = (time: -1, fired: 0)
        while machine.timers != nil, let result = nextFiredResult(dueBy: time, instant: &instant) {
            sink.receive(result, from: self)
            if queueHead < queue.count { drainQueue(into: &sink) }
        }
        self.time = time
    }

    /// ``advance(to:into:)`` for a host (the Swift API's machines): each fired timer's result,
    /// then those of the inputs it queued, handed to the host, which may queue more.
    package mutating func advance<Host: RunnerHost & ~Copyable>(to time: Int, host: inout Host) {
        precondition(time >= self.time, "the clock only moves forward")
        var instant = (time: -1, fired: 0)
        while machine.timers != nil, let result = nextFiredResult(dueBy: time, instant: &instant) {
            host.receive(result, from: &self)
            if queueHead < queue.count { drainQueue(host: &host) }
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

    /// Fires the next timer due by `time`, moving the clock to its due time: its result, or a
    /// `step-limit` one once more than ``stepLimit`` timers fired at one instant (`instant`
    /// counts them; the timers then due are discarded). `nil` when none is due any more.
    mutating func nextFiredResult(dueBy time: Int, instant: inout (time: Int, fired: Int)) -> TransitionResult? {
        while let due = timers.nextDue(), due <= time {
            self.time = due
            if due != instant.time { instant = (due, 0) }
            guard let timer = timers.pop() else { break }
            instant.fired += 1
            if instant.fired > stepLimit {
                var result = TransitionResult(input: timer.input, from: current, outcome: .rejected(.stepLimit), sentBy: timer.sentBy)
                result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
                firedArgument = timer.argument
                result.discarded = discardDueTimers()
                return result
            }
            if let result = fire(timer) { return result }
        }
        return nil
    }

    /// Processes a timer that fell due: an `after` transition's input, or a delayed send as a
    /// queued input. `nil` for an `after` whose guards are all false: discarded without a result.
    mutating func fire(_ timer: TimerQueue.Timer) -> TransitionResult? {
        firedArgument = timer.argument
        var result = process(timer.input, argument: timer.argument, sentBy: timer.sentBy)
        result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
        if timer.state >= 0, result.rejection == .guardRejected || result.rejection == .noTransition || result.outcome == .ignored {
            return nil
        }
        return result
    }

    /// At the due-timer marker in the queue: fires the next timer already due once the inputs
    /// queued before it are processed, and puts the marker back while more are due. `nil` when
    /// nothing fired (the marker moved to the end, or no timer is due any more).
    mutating func nextDueTimerResult(steps: inout Int) -> TransitionResult? {
        dueMarkerQueued = false
        if queueHead < queue.count {
            queueDueMarker()
            return nil
        }
        while let due = timers.nextDue(), due <= time, let timer = timers.pop() {
            steps += 1
            if steps > stepLimit {
                var result = TransitionResult(input: timer.input, from: current, outcome: .rejected(.stepLimit), sentBy: timer.sentBy)
                result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
                firedArgument = timer.argument
                result.discarded = discardDueTimers()
                return result
            }
            if let result = fire(timer) {
                if let next = timers.nextDue(), next <= time { queueDueMarker() }
                return result
            }
        }
        return nil
    }

    /// Drops every timer due at or before the clock; how many.
    mutating func discardDueTimers() -> Int {
        var count = 0
        while let due = timers.nextDue(), due <= time, timers.pop() != nil { count += 1 }
        return count
    }

    // MARK: - Starting and cancelling

    /// Whether taking `transition` from the current state keeps the pending timers within
    /// ``timerLimit``: it starts one timer per delayed send of the effects it runs and per
    /// `after` of its target.
    mutating func timersFit(taking transition: Int) -> Bool {
        guard let info = machine.timers else { return true }
        var added = 0
        let target = Int(machine.table.targets[transition])
        if target >= 0 { added += info.afters[target].count }
        if machine.table.runsBodies[transition] {
            added += TimerQueue.started(by: machine.effectsRun(by: transition, from: current), in: machine)
        }
        return added == 0 || timers.count + added <= timerLimit
    }

    /// Leaving `source` for `target` (the same state for an external self-transition):
    /// cancels the source's `after` timers and starts the target's.
    mutating func moveTimers(from source: Int, to target: Int) {
        timers.cancelAfters(of: source)
        startAfters(of: target)
    }

    /// Starts the `after` timers of `state`, in document order.
    mutating func startAfters(of state: Int) {
        guard let afters = machine.timers?.afters[state], !afters.isEmpty else { return }
        if timers.startAfters(afters, of: state, now: time) { queueDueMarker() }
    }

    /// Applies the delayed sends and cancels of the effects just committed, in order.
    mutating func applyTimerRequests() {
        if timers.apply(timerRequests, now: time) { queueDueMarker() }
        timerRequests.removeAll(keepingCapacity: true)
    }

    /// Queues the marker where timers already due fire, unless it is queued.
    mutating func queueDueMarker() {
        guard !dueMarkerQueued else { return }
        dueMarkerQueued = true
        // At the end of the external queue: after everything the current input set going.
        queue.append(Queued(input: -1, argument: .null, sentBy: -1))
        externalCount += 1
    }
}
