import Statecraft

/// What a step expects; each key is checked only when written.
package struct StepExpectation: Sendable {
    /// A key written, where it is written.
    package struct Key<Value: Sendable>: Sendable {
        package var value: Value
        package var position: SourcePosition
    }

    /// One queued or timed result expected in `sent`, matched on the fields it names.
    package struct Sent: Sendable {
        package var input: Named?
        /// The delay of the `after` transition whose timer produced the result (matched by
        /// duration: `30s` matches an `after` written `30000ms`).
        package var after: Key<Delay>?
        /// The id of the delayed send whose timer produced the result.
        package var timer: Named?
        package var state: Named?
        package var error: Key<RejectionKind>?
        package var position: SourcePosition
    }

    package var ok: Key<Bool>?
    package var state: Key<Named>?
    /// The active atomic states, in any order (a statechart's configuration).
    package var states: Key<[Named]>?
    /// States the configuration includes after the step (`in:`), compound and parallel ones
    /// included: each is active, whatever else is.
    package var includes: Key<[Named]>?
    package var effects: Key<[Named]>?
    package var context: Key<[(variable: Named, value: Value, position: SourcePosition)]>?
    package var error: Key<RejectionKind>?
    package var sent: Key<[Sent]>?
    package var finished: Key<Bool>?

    package init() {}
}
