import Statecraft

/// One scenario: where the machine starts, and the steps it takes from there.
package struct Scenario: Sendable {
    package var name: String
    package var position: SourcePosition
    /// Start values of the named variables (the others keep their initial values).
    package var context: [(variable: Named, value: Value, position: SourcePosition)]
    /// The state to start in (a statechart's: its active atomic states), resumed without
    /// entry effects; `nil` starts the machine.
    package var state: [Named]?
    package var steps: [ScenarioStep]
}
