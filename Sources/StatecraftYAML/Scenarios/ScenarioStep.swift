import Statecraft

/// One step of a scenario: an input to send, a wait on the virtual clock (or neither, for a
/// check alone) and what must hold after its run to completion.
package struct ScenarioStep: Sendable {
    /// The input sent by the step.
    package struct Send: Sendable {
        package var input: Named
        /// The argument, or `nil` for none.
        package var argument: Value?
        package var argumentPosition: SourcePosition
    }

    package var position: SourcePosition
    /// `nil` for a step of only `expect` or a `wait`.
    package var send: Send?
    /// How far the step moves the machine's clock (`wait: 30s`), firing the timers due by
    /// then; `nil` for a step that does not wait.
    package var wait: Delay?
    package var expectation: StepExpectation
}
