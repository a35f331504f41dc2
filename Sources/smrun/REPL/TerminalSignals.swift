import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals an interactive `smrun repl` handles itself: SIGINT (Ctrl-C) gives up the line being
/// edited instead of ending smrun, and SIGCONT (after Ctrl-Z and `fg`) puts the terminal back
/// in the mode the line editor needs. The handlers only record the signal; they are installed
/// without `SA_RESTART`, so that the read the line editor waits in returns `EINTR` and the
/// editor can act on it.
enum TerminalSignals {
    private static let interrupted = Atomic<Bool>(false)
    private static let continued = Atomic<Bool>(false)

    static func install() {
        // Initialised before a handler can run.
        _ = interrupted.load(ordering: .relaxed)
        _ = continued.load(ordering: .relaxed)
        install(SIGINT) { _ in TerminalSignals.interrupted.store(true, ordering: .sequentiallyConsistent) }
        install(SIGCONT) { _ in TerminalSignals.continued.store(true, ordering: .sequentiallyConsistent) }
    }

    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    /// Whether SIGINT arrived since the last call; clears it.
    static func takeInterrupt() -> Bool {
        interrupted.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Whether SIGCONT arrived since the last call; clears it.
    static func takeContinue() -> Bool {
        continued.exchange(false, ordering: .sequentiallyConsistent)
    }
}
