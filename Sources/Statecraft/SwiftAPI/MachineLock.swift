#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock of one machine: recursive, so that a machine's own effects may read it and send to
/// it, and counting how deep the current thread holds it, so that such a send is recognised and
/// queued (run to completion) rather than run inside the transition that sent it.
@usableFromInline
final class MachineLock: @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// How many times the thread holding the lock holds it; read only while holding it.
    @exclusivity(unchecked) @usableFromInline private(set) var depth = 0

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
        depth += 1
    }

    @inlinable
    func unlock() {
        depth -= 1
        pthread_mutex_unlock(mutex)
    }

    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
