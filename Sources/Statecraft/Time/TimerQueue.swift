/// The pending timers of a running machine: a binary heap ordered by due time, then by the
/// order they were scheduled, so scheduling and firing are O(log n).
///
/// Cancelling is O(1): a state's `after` timers (left when the state is exited) and a send id's
/// timers (`cancel: NAME`) carry an epoch, and cancelling moves the epoch on; stale entries are
/// dropped when they reach the top, and the heap is compacted when they outnumber live ones,
/// so its memory stays proportional to the live timers.
@usableFromInline
package struct TimerQueue: Sendable {
    /// One pending timer.
    @usableFromInline
    package struct Timer: Sendable {
        /// When it is due, in milliseconds on the machine's clock.
        package var due: Int
        /// Schedule order: ties on `due` fire in this order.
        package var sequence: Int
        /// For an `after` timer, the state it belongs to; -1 for a delayed send.
        package var state: Int
        /// The input processed when it fires.
        package var input: Int
        /// The argument of a delayed send's input (`.null` otherwise).
        package var argument: Value
        /// The effect that scheduled a delayed send; -1 for an `after` timer.
        package var sentBy: Int
        /// A delayed send's id (``MachineTimers/timerNames``), or -1.
        package var timer: Int
        var epoch: Int

        @inline(__always)
        func precedes(_ other: Timer) -> Bool {
            due < other.due || (due == other.due && sequence < other.sequence)
        }
    }

    private var heap: [Timer] = []
    private var nextSequence = 0
    private var stateEpochs: [Int]
    private var stateLive: [Int]
    private var timerEpochs: [Int]
    private var timerLive: [Int]
    /// Cancelled entries still in the heap.
    private var stale = 0

    /// An empty queue for a machine of `stateCount` states and `timerCount` send ids.
    package init(stateCount: Int, timerCount: Int) {
        stateEpochs = [Int](repeating: 0, count: stateCount)
        stateLive = stateEpochs
        timerEpochs = [Int](repeating: 0, count: timerCount)
        timerLive = timerEpochs
    }

    /// How many timers are pending (cancelled ones not counted).
    package var count: Int { heap.count - stale }

    /// The entries the heap holds, cancelled ones not yet dropped included (its memory).
    package var storedCount: Int { heap.count }

    /// Whether no timer is pending.
    package var isEmpty: Bool { count == 0 }

    /// The due time of the next timer to fire, or `nil`.
    package mutating func nextDue() -> Int? {
        dropStaleTop()
        return heap.first?.due
    }

    /// Schedules an `after` timer of `state`, taken on `input`, due at `due`.
    package mutating func scheduleAfter(state: Int, input: Int, due: Int) {
        stateLive[state] += 1
        push(Timer(due: due, sequence: 0, state: state, input: input, argument: .null, sentBy: -1, timer: -1, epoch: stateEpochs[state]))
    }

    /// Schedules a delayed send of `input` by effect `sentBy`, under id `timer` (-1: none).
    package mutating func scheduleSend(input: Int, argument: Value, sentBy: Int, timer: Int, due: Int) {
        var epoch = 0
        if timer >= 0 {
            timerLive[timer] += 1
            epoch = timerEpochs[timer]
        }
        push(Timer(due: due, sequence: 0, state: -1, input: input, argument: argument, sentBy: sentBy, timer: timer, epoch: epoch))
    }

    /// Cancels the `after` timers of `state` (it was exited).
    package mutating func cancelAfters(of state: Int) {
        guard stateLive[state] > 0 else { return }
        stale += stateLive[state]
        stateLive[state] = 0
        stateEpochs[state] &+= 1
        compactIfMostlyStale()
    }

    /// Cancels the pending sends with id `timer` (`cancel: NAME`); nothing when none is pending.
    package mutating func cancelSends(timer: Int) {
        guard timerLive[timer] > 0 else { return }
        stale += timerLive[timer]
        timerLive[timer] = 0
        timerEpochs[timer] &+= 1
        compactIfMostlyStale()
    }

    /// Starts the `after` timers of `state` at `now`, in document order; whether one is due
    /// at once (`0s`).
    package mutating func startAfters(_ afters: [MachineTimers.After], of state: Int, now: Int) -> Bool {
        var dueNow = false
        for after in afters {
            scheduleAfter(state: state, input: after.input, due: now + after.milliseconds)
            if after.milliseconds == 0 { dueNow = true }
        }
        return dueNow
    }

    /// Applies the delayed sends and cancels of committed effects at `now`, in order; whether
    /// a send is due at once (`0s`).
    package mutating func apply(_ requests: [TimerRequest], now: Int) -> Bool {
        var dueNow = false
        for request in requests {
            switch request {
            case .send(let input, let argument, let sentBy, let delay, let timer):
                scheduleSend(input: input, argument: argument, sentBy: sentBy, timer: timer, due: now + delay)
                if delay == 0 { dueNow = true }
            case .cancel(let timer):
                cancelSends(timer: timer)
            }
        }
        return dueNow
    }

    /// How many timers effects would start: one per delayed send.
    package static func started(by effects: some Sequence<Int>, in machine: CompiledMachine) -> Int {
        var count = 0
        for effect in effects {
            for send in machine.effects[effect].sentInputs where send.isDelayed { count += 1 }
        }
        return count
    }

    /// Removes and returns the next timer, which must be due (see ``nextDue()``).
    package mutating func pop() -> Timer? {
        dropStaleTop()
        guard !heap.isEmpty else { return nil }
        let timer = removeTop()
        if timer.state >= 0 {
            stateLive[timer.state] -= 1
        } else if timer.timer >= 0 {
            timerLive[timer.timer] -= 1
        }
        return timer
    }

    /// Every pending timer, in the order they would fire.
    package var pending: [Timer] {
        heap.filter(isLive).sorted { $0.precedes($1) }
    }

    /// Replaces every pending timer with `pending` (a snapshot's), firing none.
    package mutating func restore(_ pending: [Timer]) {
        removeAll()
        for timer in pending {
            if timer.state >= 0 {
                scheduleAfter(state: timer.state, input: timer.input, due: timer.due)
            } else {
                scheduleSend(input: timer.input, argument: timer.argument, sentBy: timer.sentBy, timer: timer.timer, due: timer.due)
            }
        }
    }

    /// Drops every timer due at or before `time`; how many.
    package mutating func discardDue(by time: Int) -> Int {
        var count = 0
        while let due = nextDue(), due <= time, pop() != nil { count += 1 }
        return count
    }

    /// Removes every timer.
    package mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
        stale = 0
        for index in stateLive.indices where stateLive[index] > 0 {
            stateLive[index] = 0
            stateEpochs[index] &+= 1
        }
        for index in timerLive.indices where timerLive[index] > 0 {
            timerLive[index] = 0
            timerEpochs[index] &+= 1
        }
    }

    // MARK: - The heap

    private func isLive(_ timer: Timer) -> Bool {
        if timer.state >= 0 { return stateEpochs[timer.state] == timer.epoch }
        if timer.timer >= 0 { return timerEpochs[timer.timer] == timer.epoch }
        return true
    }

    private mutating func dropStaleTop() {
        while let top = heap.first, !isLive(top) {
            _ = removeTop()
            stale -= 1
        }
    }

    private mutating func push(_ timer: Timer) {
        var timer = timer
        timer.sequence = nextSequence
        nextSequence += 1
        heap.append(timer)
        siftUp(heap.count - 1)
    }

    private mutating func removeTop() -> Timer {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return last }
        let top = heap[0]
        heap[0] = last
        siftDown(0)
        return top
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let moving = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard moving.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = moving
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let moving = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(moving) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = moving
    }

    /// Rebuilds the heap from its live entries once stale ones are the majority (amortised O(1)
    /// per cancelled timer).
    private mutating func compactIfMostlyStale() {
        guard stale > 64 && stale * 2 > heap.count else { return }
        let live = heap.filter(isLive)
        heap = live
        stale = 0
        if heap.count > 1 {
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }
    }
}
