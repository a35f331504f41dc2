import Foundation

/// Monotonic wall-clock time, in nanoseconds.
func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Wall, user and system time of a piece of work, and the process's peak RSS after it.
struct Usage {
    var wall: Double
    var user: Double
    var system: Double
    var peakKiB: Int

    /// When a piece of work started.
    struct Start: Sendable {
        let wall = nanoseconds()
        let user: Double
        let system: Double

        init() {
            let now = resources()
            user = seconds(now.ru_utime)
            system = seconds(now.ru_stime)
        }

        /// The usage from the start until now.
        func elapsed() -> Usage {
            let wall = Double(nanoseconds() - self.wall) / 1e9
            let now = resources()
            return Usage(
                wall: wall, user: seconds(now.ru_utime) - user, system: seconds(now.ru_stime) - system, peakKiB: now.ru_maxrss)
        }
    }

    /// Times `work`.
    static func of<T>(_ work: () throws -> T) rethrows -> (Usage, T) {
        let start = Start()
        let value = try work()
        return (start.elapsed(), value)
    }

    /// measure.c's format, `wall<TAB>user<TAB>sys<TAB>peak RSS KiB`, which report.py reads.
    var line: String {
        [wall, user, system].map { format($0, decimals: 6) }.joined(separator: "\t") + "\t\(peakKiB)"
    }

    fileprivate static func resources() -> rusage {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    fileprivate static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
}

/// Reads the counter of `benchmarks/malloc_count.so` when it is preloaded: every heap
/// allocation the process has made so far.
struct AllocationCounter {
    private let counter: UnsafeMutablePointer<UInt>?

    init() {
        let program = dlopen(nil, RTLD_NOW)
        counter = dlsym(program, "statecraft_allocation_count")?.assumingMemoryBound(to: UInt.self)
    }

    var isAvailable: Bool { counter != nil }

    /// Allocations so far, or 0 when the counter is not preloaded.
    var count: UInt { counter?.pointee ?? 0 }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// `value` with `decimals` digits after the point.
func format(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// `1234567` -> `1,234,567`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// Writes a line to standard output unbuffered, so that it is out before a slow step (or a
/// kill by `timeout`).
func say(_ text: String) {
    write(to: 1, text + "\n")
}

func fail(_ message: String) -> Never {
    write(to: 2, "StatecraftBenchmarks: \(message)\n")
    exit(1)
}

private func write(to fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
