import NIOCore

/// Runs a task's jobs on a NIO event loop, as a task executor preference
/// (`withTaskExecutorPreference`): code that must look at a channel and act on it in one turn
/// of its loop, with nothing of the channel's own (its closing) run in between.
final class EventLoopExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
