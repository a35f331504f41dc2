/// A real clock that counts how often its time is read: a machine without timers must never
/// read its clock.
public final class CountingClock: Clock, Sendable {
    private let base = ContinuousClock()
    private let count = Log<Int>()

    public init() {}

    /// How many times ``now`` was read.
    public var reads: Int { count.elements.count }

    public var now: ContinuousClock.Instant {
        count.append(1)
        return base.now
    }

    public var minimumResolution: Duration { base.minimumResolution }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
