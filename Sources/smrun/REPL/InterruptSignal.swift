import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C in an interactive `smrun repl`: SIGINT cancels the line being edited instead of
/// ending smrun. The handler only records the signal; it is installed without `SA_RESTART`, so
/// that the read the line editor waits in returns `EINTR` and the editor can give up the line.
enum InterruptSignal {
    private static let received = Atomic<Bool>(false)

    static func install() {
        _ = received.load(ordering: .relaxed)  // initialised before the handler can run
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in InterruptSignal.received.store(true, ordering: .sequentiallyConsistent) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether SIGINT arrived since the last call; clears it.
    static func take() -> Bool {
        received.exchange(false, ordering: .sequentiallyConsistent)
    }
}
