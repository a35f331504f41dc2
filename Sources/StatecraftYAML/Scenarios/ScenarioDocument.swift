import Statecraft

/// A scenario file (`NAME.test.yaml`, docs/testing-machines.md) as decoded: the machine it
/// tests and its scenarios, every name still a name with the position it was written at
/// (``ScenarioChecker`` resolves them against the machine).
package struct ScenarioDocument: Sendable {
    /// The `machine:` path as written, relative to the scenario file.
    package var machinePath: String
    package var machinePathPosition: SourcePosition
    package var scenarios: [Scenario]
}
