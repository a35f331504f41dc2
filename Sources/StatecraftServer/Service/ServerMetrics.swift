import CoreMetrics
import Foundation
import Prometheus
import SmrunCore
import Synchronization

/// What `/metrics` shows, through swift-metrics with swift-prometheus's factory: inputs by
/// outcome, their latency, the instances and pending timers, and how late timers fire.
package final class ServerMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let latency: CoreMetrics.Timer
    private let lateness: CoreMetrics.Timer
    /// How far the store's clock is ahead of this process's (``noteStoreClock(ahead:)``).
    private let storeClockAhead = Atomic<Int>(0)
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
        for due in answer.timersFired { recordTimerLateness(due: due) }
    }

    /// The inputs' counter of `outcome`, made once (making one looks it up in the registry).
    private func counter(outcome: String) -> CoreMetrics.Counter {
        if let counter = counters.withLock({ $0[outcome] }) { return counter }
        let counter = CoreMetrics.Counter(label: "statecraft_inputs_total", dimensions: [("outcome", outcome)], factory: factory)
        counters.withLock { $0[outcome] = counter }
        return counter
    }

    /// Records how late a timer due at `due` (on the store's clock) fired: now.
    func recordTimerLateness(due: Int) {
        lateness.recordMilliseconds(max(0, WallClock.now() + storeClockAhead.load(ordering: .relaxed) - due))
    }

    /// Notes how far the store's clock is ahead of this process's, in milliseconds (a
    /// database's may differ from this server's; timers are due by the store's).
    func noteStoreClock(ahead milliseconds: Int) {
        storeClockAhead.store(milliseconds, ordering: .relaxed)
    }

    func update(instances count: Int, timers pending: Int) {
        instances.record(count)
        timers.record(pending)
    }

    /// The Prometheus text.
    func text() -> [UInt8] { registry.emitToBuffer() }

    /// `accepted`, the input's first result's error kind (`no-transition`), `none` when it
    /// printed no result, or `http-400`: read off the answer's bytes,
    /// `{"instance":{...},"results":[...]}`, member by member at their own depth, so that a
    /// context's `"results"` or `"error"` is not taken for the answer's. The results start where
    /// the send said (``APIAnswer/resultsStart``), or, in an answer given again for a repeated
    /// `Idempotency-Key`, where the scan finds them.
    static func outcome(of answer: APIAnswer) -> String {
        guard answer.status == 200 else { return "http-\(answer.status)" }
        let body = answer.body
        guard let results = answer.resultsStart ?? value(of: resultsKey, inObjectAt: 0, of: body), results < body.count,
            body[results] == UInt8(ascii: "[")
        else { return "accepted" }
        let first = results + 1
        guard first < body.count, body[first] == UInt8(ascii: "{") else { return "none" }
        guard let error = value(of: errorKey, inObjectAt: first, of: body), body[error] == UInt8(ascii: "\"") else { return "accepted" }
        let close = body[(error + 1)...].firstIndex(of: UInt8(ascii: "\"")) ?? body.count
        return String(decoding: body[(error + 1)..<close], as: UTF8.self)
    }

    private static let resultsKey = Array("results".utf8)
    private static let errorKey = Array("error".utf8)

    /// Where the value of member `key` of the JSON object that starts at `start` begins (a
    /// member of that object itself, not of one nested in it), if it has one. The JSON is the
    /// server's own, without white space.
    private static func value(of key: [UInt8], inObjectAt start: Int, of bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    let text = index + 1
                    index = closingQuote(of: text, in: bytes)
                    if depth == 1, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: ":"), bytes[text..<index].elementsEqual(key) {
                        return index + 2
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return nil }
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    /// Where the string whose text starts at `text` ends: its closing quote, the first one not
    /// escaped by an odd number of backslashes (or the end). Found with `memchr`: most of an
    /// answer's bytes are in strings, and this runs for every input.
    private static func closingQuote(of text: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var from = text
        while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) {
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= text, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return bytes.count
    }
}
