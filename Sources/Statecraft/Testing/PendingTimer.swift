extension MachinePaths {
    /// A pending timer as the path search tells resting places apart: what fires, and how
    /// long from now. A machine without timers has none, and pays nothing for them.
    struct PendingTimer: Hashable {
        /// Milliseconds until it is due.
        var dueIn: Int
        var input: Int
        var argument: Value
        /// The state of an `after` timer, or -1.
        var state: Int

        /// The pending timers of a runner, in firing order.
        static func all(of runner: some MachineRunner) -> [PendingTimer] {
            guard runner.machine.timers != nil else { return [] }
            return runner.pendingTimers.map { PendingTimer(dueIn: $0.due - runner.time, input: $0.input, argument: $0.argument, state: $0.state) }
        }
    }
}
