import Statecraft

/// One step of a scenario: an input to send (or none, for a check alone) and what must hold
/// after its run to completion.
package struct ScenarioStep: Sendable {
    /// The input sent by the step.
    package struct Send: Sendable {
        package var input: Named
        /// The argument, or `nil` for none.
        package var argument: Value?
        package var argumentPosition: SourcePosition
    }

    package var position: SourcePosition
    /// `nil` for a step of only `expect`.
    package var send: Send?
    package var expectation: StepExpectation
}

/// What a step expects; each key is checked only when written.
package struct StepExpectation: Sendable {
    /// A key written, where it is written.
    package struct Key<Value: Sendable>: Sendable {
        package var value: Value
        package var position: SourcePosition
    }

    /// One queued result expected in `sent`, matched on the fields it names.
    package struct Sent: Sendable {
        package var input: Named?
        package var state: Named?
        package var error: Key<RejectionKind>?
        package var position: SourcePosition
    }

    package var ok: Key<Bool>?
    package var state: Key<Named>?
    package var effects: Key<[Named]>?
    package var context: Key<[(variable: Named, value: Value, position: SourcePosition)]>?
    package var error: Key<RejectionKind>?
    package var sent: Key<[Sent]>?
    package var finished: Key<Bool>?

    package init() {}
}
