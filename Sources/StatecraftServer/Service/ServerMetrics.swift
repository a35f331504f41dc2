import CoreMetrics
import Prometheus
import Synchronization

/// What `/metrics` shows, through swift-metrics with swift-prometheus's factory: inputs by
/// outcome, their latency, the instances and pending timers, and how late timers fire.
package final class ServerMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let latency: CoreMetrics.Timer
    private let lateness: CoreMetrics.Timer
    private let instances: CoreMetrics.Gauge
    private let timers: CoreMetrics.Gauge
    private let counters = Mutex<[String: CoreMetrics.Counter]>([:])

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        let buckets: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]
        factory.durationHistogramBuckets = ["statecraft_input_seconds": buckets, "statecraft_timer_lateness_seconds": buckets]
        self.factory = factory
        latency = CoreMetrics.Timer(label: "statecraft_input_seconds", factory: factory)
        lateness = CoreMetrics.Timer(label: "statecraft_timer_lateness_seconds", factory: factory)
        instances = CoreMetrics.Gauge(label: "statecraft_instances", factory: factory)
        timers = CoreMetrics.Gauge(label: "statecraft_pending_timers", factory: factory)
    }

    /// Counts a send by its outcome (`accepted`, a rejection's kind, or the HTTP status of a
    /// refused request) and records its latency.
    func recordInput(_ answer: APIAnswer, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        latency.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        counter(outcome: Self.outcome(of: answer)).increment()
    }

    /// The inputs' counter of `outcome`, made once (making one looks it up in the registry).
    private func counter(outcome: String) -> CoreMetrics.Counter {
        if let counter = counters.withLock({ $0[outcome] }) { return counter }
        let counter = CoreMetrics.Counter(label: "statecraft_inputs_total", dimensions: [("outcome", outcome)], factory: factory)
        counters.withLock { $0[outcome] = counter }
        return counter
    }

    /// Records how late a timer fired, in milliseconds.
    func recordTimerLateness(milliseconds: Int) {
        lateness.recordMilliseconds(max(0, milliseconds))
    }

    func update(instances count: Int, timers pending: Int) {
        instances.record(count)
        timers.record(pending)
    }

    /// The Prometheus text.
    func text() -> [UInt8] { registry.emitToBuffer() }

    /// `accepted`, the input's first result's error kind (`no-transition`), `none` when it
    /// printed no result, or `http-400`: read off the answer's bytes, which end with
    /// `"results":[...]}`.
    static func outcome(of answer: APIAnswer) -> String {
        guard answer.status == 200 else { return "http-\(answer.status)" }
        let body = answer.body
        guard let results = find(Array(#""results":["#.utf8), in: body, from: 0) else { return "accepted" }
        guard results < body.count, body[results] == UInt8(ascii: "{") else { return "none" }
        // The first result's own members come before any nested object closes.
        let end = body[results...].firstIndex(of: UInt8(ascii: "}")) ?? body.count
        guard let error = find(Array(#""error":""#.utf8), in: body, from: results), error < end,
            let close = body[error...].firstIndex(of: UInt8(ascii: "\""))
        else { return "accepted" }
        return String(decoding: body[error..<close], as: UTF8.self)
    }

    /// Where the bytes after the first `needle` at or after `start` begin.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return nil
    }
}
