/// A ``ResultSink`` with a say in the run: Swift code bound to the machine's transitions (the
/// typed Swift API, or closures bound to a machine file's effect names) runs in ``receive(_:from:)``,
/// where it may queue inputs with ``Runner/enqueue(_:argument:sentBy:)``.
///
/// A host runs through ``Runner/send(_:argument:host:)`` and ``Runner/start(host:)``, which share
/// ``Runner``'s selection, effect bodies, queue and step limit; ``Runner/send(_:argument:into:)``,
/// the machine-file path, is untouched by hosts.
@usableFromInline
package protocol RunnerHost: ~Copyable {
    /// Called once per result, right after the runner produced it: `runner.state` and
    /// `runner.context` are the state and context after it. Inputs queued here run after every
    /// input queued before them, and before the next external input (docs/semantics.md).
    mutating func receive(_ result: TransitionResult, from runner: inout Runner)
}

extension Runner {
    /// ``start(into:)`` for a host: starts the initial state's `after` timers, runs its entry
    /// effects, reporting a start result when there are any, then the inputs they and the host
    /// queued (and timers due at once).
    package mutating func start<Host: RunnerHost & ~Copyable>(host: inout Host) {
        if machine.timers != nil { startAfters(of: current) }
        guard let result = runStartEffects() else {
            if queueHead < queue.count { drainQueue(host: &host) }
            return
        }
        host.receive(result, from: &self)
        drainQueue(host: &host)
    }

    /// ``send(_:argument:into:)`` for a host: processes one external input, then every input
    /// that effect bodies and the host queued (run to completion).
    @inlinable
    package mutating func send<Host: RunnerHost & ~Copyable>(_ input: Int, argument: Value = .null, host: inout Host) {
        let result = process(input, argument: argument, sentBy: -1)
        host.receive(result, from: &self)
        if queueHead < queue.count { drainQueue(host: &host) }
    }

    /// Queues `input` behind the inputs already queued, reported as sent by `sentBy` (an effect
    /// id for a machine file's effects). For a host's ``RunnerHost/receive(_:from:)``: the input
    /// runs before ``send(_:argument:host:)`` returns. Its argument is not checked: it must be
    /// one the input accepts.
    @usableFromInline
    package mutating func enqueue(_ input: Int, argument: Value = .null, sentBy: Int) {
        queue.appendInternal(Queued(input: input, argument: argument, sentBy: sentBy), externalCount: externalCount)
    }

    /// The queue drained as ``drainQueue(into:)`` does, with the same step limit, each result
    /// handed to the host, which may queue more. Inlinable, so that it is specialised for the host.
    @inlinable
    mutating func drainQueue<Host: RunnerHost & ~Copyable>(host: inout Host) {
        var steps = 0
        while let result = nextQueuedResultForHost(steps: &steps) { host.receive(result, from: &self) }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        externalCount = 0
    }

    /// ``nextQueuedResult(steps:)``, for the inlinable ``drainQueue(host:)``.
    @usableFromInline
    mutating func nextQueuedResultForHost(steps: inout Int) -> TransitionResult? {
        guard let result = nextQueuedResult(steps: &steps) else {
            // Drained: a due-timer marker discarded by `step-limit` is gone with the rest.
            dueMarkerQueued = false
            return nil
        }
        return result
    }
}
