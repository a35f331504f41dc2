/// The inputs effects send, as both runners queue them in one array: the internal ones first,
/// then the external ones, `externalCount` of them at its tail (docs/semantics.md).
extension Array {
    /// Queues an input sent to the internal queue: after the internal ones, before the external ones.
    @inline(__always)
    mutating func appendInternal(_ element: Element, externalCount: Int) {
        if externalCount == 0 { append(element) } else { insert(element, at: count - externalCount) }
    }

    /// Removes what was queued since `count` was `internalEnd + externalCount` with
    /// `externalCount` external inputs at the tail (a transition whose effects failed).
    mutating func removeSent(since mark: (internalEnd: Int, externalCount: Int), externalCount: inout Int) {
        removeLast(externalCount - mark.externalCount)
        removeSubrange(mark.internalEnd..<(count - mark.externalCount))
        externalCount = mark.externalCount
    }
}
