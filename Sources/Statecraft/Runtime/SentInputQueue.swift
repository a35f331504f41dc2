/// An input waiting in a runner's queue: sent by an effect, a done event, or the marker where
/// timers already due fire (input -1).
@usableFromInline
package struct QueuedInput: Sendable {
    @usableFromInline package var input: Int
    @usableFromInline package var argument: Value
    /// The effect that sent it; for a statechart's done event, the state that completed, as
    /// `~state`; -1 for the due-timer marker.
    @usableFromInline package var sender: Int

    @usableFromInline
    package init(input: Int, argument: Value, sender: Int) {
        self.input = input
        self.argument = argument
        self.sender = sender
    }
}

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
