import Dispatch

/// Runs async work (the store, the server) from a command's synchronous `run()`, waiting for
/// it on the calling thread, which is none of the concurrency pool's.
enum BlockingTask {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }

    /// Written by the task before it signals, read after the wait.
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}
