import Statecraft

/// A scenario file (`NAME.test.yaml`, docs/testing-machines.md) as decoded: the machine it
/// tests and its scenarios, every name still a name with the position it was written at
/// (``ScenarioChecker`` resolves them against the machine).
package struct ScenarioFile: Sendable {
    /// The `machine:` path as written, relative to the scenario file.
    package var machinePath: String
    package var machinePathPosition: SourcePosition
    package var scenarios: [Scenario]
}

/// One scenario: where the machine starts, and the steps it takes from there.
package struct Scenario: Sendable {
    package var name: String
    package var position: SourcePosition
    /// Start values of the named variables (the others keep their initial values).
    package var context: [(variable: Named, value: Value, position: SourcePosition)]
    /// The state to start in, resumed without entry effects; `nil` starts the machine.
    package var state: Named?
    package var steps: [ScenarioStep]
}
