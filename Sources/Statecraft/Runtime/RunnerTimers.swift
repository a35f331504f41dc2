// Timers, for every runner: a state's `after` timers start when the state is entered and are
// cancelled when it is left (nested or not), delayed sends, and the virtual clock that fires
// them (docs/semantics.md). None of this runs for a machine without timers: the flat table's
// cells that enter or leave a state with `after` transitions are searched, never taken
// directly.

/// The parts of a runner the clock works on; both runners keep them under the same names.
@usableFromInline
package protocol TimedRunner: MachineRunner {
    var timers: TimerQueue { get set }
    var time: Int { get set }
    var queue: [QueuedInput] { get set }
    /// Where the next queued input is.
    var queueHead: Int { get set }
    var externalCount: Int { get set }
    /// Whether the queue holds the marker where timers already due fire.
    var dueMarkerQueued: Bool { get set }
    /// The argument of the delayed send being fired, while its result is received.
    var firedArgument: Value { get set }
    /// Processes a fired timer's input: `trigger` is `.external` for an `after` transition, or
    /// the delayed send's effect.
    mutating func processTimer(_ input: Int, argument: Value, trigger: TransitionResult.Trigger) -> TransitionResult
    /// A result for a timer that no step processes (`step-limit`), after clearing what the last
    /// step showed.
    mutating func unprocessedResult(_ trigger: TransitionResult.Trigger, input: Int, outcome: TransitionResult.Outcome) -> TransitionResult
    /// After a fired timer's result: runs what it queued or enabled (run to completion).
    mutating func runToCompletion<Sink: ResultSink & ~Copyable>(after result: TransitionResult, into sink: inout Sink)
    where Sink.Runner == Self
}

extension TimedRunner {
    // MARK: - The clock

    /// The pending timers, in the order they would fire.
    @usableFromInline package var pendingTimers: [TimerQueue.Timer] { timers.pending }

    /// How many timers are pending.
    @usableFromInline package var pendingTimerCount: Int { timers.count }

    /// When the next timer is due, in milliseconds on the machine's clock, or `nil`.
    @usableFromInline package mutating func nextTimerDue() -> Int? { timers.nextDue() }

    /// Moves the clock forward to `time` (milliseconds), firing every timer due by then in
    /// order: the clock steps to each one's due time, and each yields its result (an `after`
    /// whose guards are false yields none), followed by what it queued (run to completion). At
    /// most ``stepLimit`` timers fire at one instant; the next is a `step-limit` result, and
    /// the timers due at that instant are discarded.
    @usableFromInline package mutating func advance<Sink: ResultSink & ~Copyable>(to time: Int, into sink: inout Sink) where Sink.Runner == Self {
        precondition(time >= self.time, "the clock only moves forward")
        guard machine.timers != nil else {
            self.time = time
            return
        }
        var instant = TimerInstant()
        while fireNextTimer(dueBy: time, instant: &instant, into: &sink) != nil {}
        self.time = time
    }

    /// Fires the next timer due by `time`, if any, as ``advance(to:into:)`` does one step of
    /// its way: the clock steps to its due time, its result and what it queued go to `sink`
    /// (none for an `after` whose guards are false), and past ``stepLimit`` timers at one
    /// `instant`, a `step-limit` result discards the rest due then. Returns the timer, or `nil`
    /// when none is due by `time`: a caller that records each timer apart (a durable instance's
    /// history) calls it until then.
    @usableFromInline package mutating func fireNextTimer<Sink: ResultSink & ~Copyable>(
        dueBy time: Int, instant: inout TimerInstant, into sink: inout Sink
    ) -> TimerQueue.Timer? where Sink.Runner == Self {
        guard let due = timers.nextDue(), due <= time else { return nil }
        self.time = due
        if due != instant.time { instant = TimerInstant(time: due) }
        guard let timer = timers.pop() else { return nil }
        instant.fired += 1
        if instant.fired > stepLimit {
            sink.receive(stepLimitResult(for: timer), from: &self)
        } else if let result = fire(timer) {
            sink.receive(result, from: &self)
            runToCompletion(after: result, into: &sink)
        }
        return timer
    }

    /// Resumes the clock at `time` with these pending timers (a snapshot's), without firing any.
    @usableFromInline package mutating func restoreTimers(time: Int, pending: [TimerQueue.Timer]) {
        self.time = time
        timers.restore(pending)
    }

    // MARK: - Firing

    /// Processes a timer that fell due: an `after` transition's input, or a delayed send as a
    /// queued input. `nil` for an `after` whose guards are all false (or whose state is no
    /// longer active): discarded without a result.
    mutating func fire(_ timer: TimerQueue.Timer) -> TransitionResult? {
        firedArgument = timer.argument
        var result = processTimer(timer.input, argument: timer.argument, trigger: TransitionResult.trigger(sentBy: timer.sentBy))
        result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
        if timer.state >= 0, result.rejection == .guardRejected || result.rejection == .noTransition || result.outcome == .ignored {
            return nil
        }
        return result
    }

    /// The `step-limit` result of a timer, discarding every timer due at the same instant.
    mutating func stepLimitResult(for timer: TimerQueue.Timer) -> TransitionResult {
        firedArgument = timer.argument
        var result = unprocessedResult(TransitionResult.trigger(sentBy: timer.sentBy), input: timer.input, outcome: .rejected(.stepLimit))
        result.timer = timer.timer >= 0 ? Int32(timer.timer) : -2
        result.discarded = discardDueTimers()
        return result
    }

    /// Drops every timer due at or before the clock; how many.
    mutating func discardDueTimers() -> Int {
        timers.discardDue(by: time)
    }

    /// At the due-timer marker in the queue: fires the next timer already due once the inputs
    /// queued before it are processed, and puts the marker back while more are due. `nil` when
    /// nothing fired (the marker moved to the end, or no timer is due any more). Past the step
    /// limit (`steps` above ``stepLimit``), the `step-limit` result of the timers then due.
    mutating func nextDueTimerResult(steps: inout Int) -> TransitionResult? {
        dueMarkerQueued = false
        if queueHead < queue.count {
            queueDueMarker()
            return nil
        }
        while let due = timers.nextDue(), due <= time, let timer = timers.pop() {
            steps += 1
            if steps > stepLimit { return stepLimitResult(for: timer) }
            if let result = fire(timer) {
                if let next = timers.nextDue(), next <= time { queueDueMarker() }
                return result
            }
        }
        return nil
    }

    /// Queues the marker where timers already due fire, unless it is queued.
    mutating func queueDueMarker() {
        guard !dueMarkerQueued else { return }
        dueMarkerQueued = true
        // At the end of the external queue: after everything the current input set going.
        queue.append(QueuedInput(input: -1, argument: .null, sender: -1))
        externalCount += 1
    }
}

// MARK: - The flat dispatch table

extension TableRunner: TimedRunner {
    @usableFromInline package mutating func processTimer(_ input: Int, argument: Value, trigger: TransitionResult.Trigger) -> TransitionResult {
        var result = process(input, argument: argument, sentBy: -1)
        result.trigger = trigger
        return result
    }

    @usableFromInline package mutating func unprocessedResult(
        _ trigger: TransitionResult.Trigger, input: Int, outcome: TransitionResult.Outcome
    ) -> TransitionResult {
        TransitionResult(trigger, input: input, outcome: outcome, from: current, to: current)
    }

    @usableFromInline package mutating func runToCompletion<Sink: ResultSink & ~Copyable>(after result: TransitionResult, into sink: inout Sink)
    where Sink.Runner == Self {
        if queueHead < queue.count { drainQueue(into: &sink) }
    }

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
}

// MARK: - Statecharts

extension ChartRunner: TimedRunner {
    @usableFromInline package mutating func processTimer(_ input: Int, argument: Value, trigger: TransitionResult.Trigger) -> TransitionResult {
        process(input, argument: argument, trigger: trigger)
    }

    @usableFromInline package mutating func unprocessedResult(
        _ trigger: TransitionResult.Trigger, input: Int, outcome: TransitionResult.Outcome
    ) -> TransitionResult {
        clearStep()
        return TransitionResult(trigger, input: input, outcome: outcome)
    }

    @usableFromInline package mutating func runToCompletion<Sink: ResultSink & ~Copyable>(after result: TransitionResult, into sink: inout Sink)
    where Sink.Runner == Self {
        if result.isAccepted || queueHead < queue.count { runToCompletion(into: &sink) }
    }

    /// At the due-timer marker: fires the next timer already due once the inputs queued
    /// before it are processed; `false` when the step limit was passed (the rest discarded).
    mutating func fireDueTimer<Sink: ResultSink & ~Copyable>(steps: inout Int, into sink: inout Sink) -> Bool where Sink.Runner == Self {
        guard var result = nextDueTimerResult(steps: &steps) else { return true }
        guard steps <= stepLimit else {
            // The queued inputs are discarded with the timers.
            result.discarded += queue.count - queueHead
            sink.receive(result, from: &self)
            discardQueue()
            return false
        }
        sink.receive(result, from: &self)
        return true
    }

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
}

/// The instant at which timers are firing, and how many have fired at it: past the step limit
/// the rest due then are discarded (``TimedRunner/fireNextTimer(dueBy:instant:into:)``).
@usableFromInline
package struct TimerInstant: Sendable {
    package var time = -1
    package var fired = 0

    package init(time: Int = -1) {
        self.time = time
    }
}
