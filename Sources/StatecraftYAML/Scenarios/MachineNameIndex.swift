import Statecraft

/// A machine's names by id, looked up in constant time: a scenario file names inputs, states,
/// effects and variables on every step, and a machine may have thousands of each.
struct MachineNameIndex: Sendable {
    let inputs: [String: Int]
    let states: [String: Int]
    let effects: [String: Int]
    let variables: [String: Int]

    init(_ machine: CompiledMachine) {
        inputs = Self.ids(machine.inputNames)
        states = Self.ids(machine.stateNames)
        effects = Self.ids(machine.effectNames)
        variables = Self.ids(machine.variableNames)
    }

    private static func ids(_ names: [String]) -> [String: Int] {
        Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
