// Configurations and state sets as bitsets: one bit per state id, 64 to a word.
extension ChartRunner {
    @inline(__always)
    static func contains(_ set: [UInt64], _ state: Int) -> Bool { set[state >> 6] & (1 << UInt64(state & 63)) != 0 }

    @inline(__always)
    static func insert(_ state: Int, into set: inout [UInt64]) { set[state >> 6] |= 1 << UInt64(state & 63) }

    @inline(__always)
    static func remove(_ state: Int, from set: inout [UInt64]) { set[state >> 6] &= ~(1 << UInt64(state & 63)) }

    /// Whether the two sets share a state.
    @inline(__always)
    static func meet(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for word in a.indices where a[word] & b[word] != 0 { return true }
        return false
    }

    /// Sets the bits of `low ..< high`.
    static func insertRange(_ low: Int, _ high: Int, into set: inout [UInt64]) {
        var state = low
        while state < high {
            if state & 63 == 0 && high - state >= 64 {
                set[state >> 6] = ~0
                state += 64
            } else {
                insert(state, into: &set)
                state += 1
            }
        }
    }

    /// Whether any bit of `low ..< high` is set.
    static func intersects(_ set: [UInt64], _ low: Int, _ high: Int) -> Bool {
        var state = low
        while state < high {
            if state & 63 == 0 && high - state >= 64 {
                if set[state >> 6] != 0 { return true }
                state += 64
            } else {
                if contains(set, state) { return true }
                state += 1
            }
        }
        return false
    }
}
