/// The keys each mapping of a machine file may have: what the decoder accepts, and reports any
/// other key against as `unknown-key`. `smrun schema`'s JSON Schema lists the same keys; a test
/// compares the two.
package enum MachineFileKeys {
    /// The top level of a machine file.
    package static let topLevel: [StaticString] = [
        "machine", "description", "initial", "on_unhandled", "context", "inputs", "states", "effects", "transitions",
    ]
    /// An input written as a mapping: `{ arg: TYPE, description: TEXT }`.
    package static let input: [StaticString] = ["arg", "description"]
    /// A state's options (`states`, `initial`, `parallel`, `history`, `default`: statecharts).
    package static let state: [StaticString] = ["entry", "exit", "final", "states", "initial", "parallel", "history", "default"]
    /// An effect's body.
    package static let effect: [StaticString] = ["set", "send"]
    /// An input an effect sends, written as a mapping.
    package static let sentInput: [StaticString] = ["input", "arg"]
    /// A transition written as a mapping.
    package static let transition: [StaticString] = ["input", "from", "to", "when", "effects", "type"]
}
