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
