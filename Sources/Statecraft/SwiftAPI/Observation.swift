/// A registered observer; keep it to keep observing. Observing stops at ``cancel()`` or when the
/// observation is released.
public final class Observation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(_ cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops observing: the observer is not called again once `cancel` returns, except from a
    /// call already under way on another thread.
    public func cancel() {
        cancellation()
    }

    deinit {
        cancellation()
    }
}

/// A machine's observers and its lock, shared by every kind of machine.
///
/// Ordering: results are published in the order they are produced, under the machine's lock.
/// Streams are fed right then. Callbacks are called later, outside the lock, by one thread at a
/// time (whichever thread finds results waiting and nobody delivering), in publication order:
/// a callback that sends an input sees that input's result delivered after it returns, never
/// nested inside it.
@usableFromInline
final class Observers<Result: Sendable, State: Sendable>: @unchecked Sendable {
    @usableFromInline let lock = MachineLock()
    /// Whether a stream or callback observes, so that results must be published; guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline private(set) var isObserved = false
    /// Whether published events wait for ``deliver()``; guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline private(set) var isUndelivered = false

    private enum Event {
        case result(Result, newState: State?)
        /// A new state callback's first call, with the state when it registered.
        case welcome(observer: Int, state: State)
    }

    private struct Callback {
        let id: Int
        /// The first event sequence number it receives.
        let since: Int
        let onResult: (@Sendable (Result) -> Void)?
        let onState: (@Sendable (State) -> Void)?
    }

    private struct Stream {
        let onResult: ((Result) -> Void)?
        let onState: ((State) -> Void)?
        let finish: () -> Void
    }

    // Everything below is guarded by `lock`.
    private var callbacks: [Callback] = [] {
        didSet { isObserved = !callbacks.isEmpty || !streams.isEmpty }
    }
    private var streams: [Int: Stream] = [:] {
        didSet { isObserved = !callbacks.isEmpty || !streams.isEmpty }
    }
    private var outbox: [(sequence: Int, event: Event)] = [] {
        didSet { isUndelivered = outboxHead < outbox.count }
    }
    private var outboxHead = 0 {
        didSet { isUndelivered = outboxHead < outbox.count }
    }
    private var sequence = 0
    private var nextID = 0
    private var delivering = false

    /// Publishes a result, and the state it entered if it changed the state. Call with the lock
    /// held, and only when ``isObserved``: without observers, publishing changes nothing.
    @usableFromInline
    func publish(_ result: Result, newState: State?) {
        for stream in streams.values {
            stream.onResult?(result)
            if let newState { stream.onState?(newState) }
        }
        if !callbacks.isEmpty { outbox.append((sequence, .result(result, newState: newState))) }
        sequence += 1
    }

    /// Calls callbacks with what was published, unless this thread is inside a run of the
    /// machine or another call is delivering already (it will deliver these too). Call without
    /// the lock held; when ``isUndelivered`` was false under the lock, there is nothing to call.
    @usableFromInline
    func deliver() {
        lock.lock()
        guard lock.depth == 1, !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        while outboxHead < outbox.count {
            let (sequence, event) = outbox[outboxHead]
            outboxHead += 1
            let targets: [Callback]
            switch event {
            case .result: targets = callbacks.filter { $0.since <= sequence }
            case .welcome(let observer, _): targets = callbacks.filter { $0.id == observer }
            }
            lock.unlock()
            for target in targets {
                switch event {
                case .result(let result, let newState):
                    target.onResult?(result)
                    if let newState { target.onState?(newState) }
                case .welcome(_, let state):
                    target.onState?(state)
                }
            }
            lock.lock()
        }
        outbox.removeAll(keepingCapacity: true)
        outboxHead = 0
        delivering = false
        lock.unlock()
    }

    /// Registers a callback for every result published from now on.
    func observeResults(_ handler: @escaping @Sendable (Result) -> Void) -> Observation {
        let id = lock.withLock {
            let id = takeID()
            callbacks.append(Callback(id: id, since: sequence, onResult: handler, onState: nil))
            return id
        }
        return observation(removing: id)
    }

    /// Registers a callback for the state `current()` gives now, then every state entered.
    func observeStates(current: () -> State, _ handler: @escaping @Sendable (State) -> Void) -> Observation {
        let id = lock.withLock {
            let id = takeID()
            outbox.append((sequence, .welcome(observer: id, state: current())))
            sequence += 1
            callbacks.append(Callback(id: id, since: sequence, onResult: nil, onState: handler))
            return id
        }
        deliver()
        return observation(removing: id)
    }

    /// A stream of `transform`ed results published from now on (those it maps to a value).
    func results<Element: Sendable>(_ transform: @escaping @Sendable (Result) -> Element?) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        lock.withLock {
            let id = takeID()
            streams[id] = Stream(
                onResult: { if let element = transform($0) { continuation.yield(element) } }, onState: nil,
                finish: { continuation.finish() })
            continuation.onTermination = { [weak self] _ in self?.removeStream(id) }
        }
        return stream
    }

    /// A stream of the state `current()` gives now, then every state entered.
    func states(current: () -> State) -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream()
        lock.withLock {
            let id = takeID()
            continuation.yield(current())
            streams[id] = Stream(onResult: nil, onState: { continuation.yield($0) }, finish: { continuation.finish() })
            continuation.onTermination = { [weak self] _ in self?.removeStream(id) }
        }
        return stream
    }

    /// Ends every stream: the machine is gone.
    func finish() {
        let ending = lock.withLock {
            let ending = streams.values.map(\.finish)
            streams.removeAll()
            callbacks.removeAll()
            return ending
        }
        for end in ending { end() }
    }

    private func takeID() -> Int {
        nextID += 1
        return nextID
    }

    private func removeStream(_ id: Int) {
        lock.withLock { _ = streams.removeValue(forKey: id) }
    }

    private func observation(removing id: Int) -> Observation {
        Observation { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.callbacks.removeAll { $0.id == id } }
        }
    }
}
