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
///
/// A noncopyable struct over manually allocated memory rather than a class, so that taking it
/// on the send path costs no reference counting.
@usableFromInline
struct MachineLock: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// How many times the thread holding the lock holds it; read only while holding it.
    @usableFromInline let holds = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        holds.initialize(to: 0)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        holds.deallocate()
    }

    /// How many times the thread holding the lock holds it; read it only while holding it.
    @inlinable
    var depth: Int { holds.pointee }

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
        holds.pointee += 1
    }

    @inlinable
    func unlock() {
        holds.pointee -= 1
        pthread_mutex_unlock(mutex)
    }

    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
