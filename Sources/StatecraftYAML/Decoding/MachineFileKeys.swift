/// The keys each mapping of a machine file may have: what the decoder accepts, and reports any
/// other key against as `unknown-key`. `smrun schema`'s JSON Schema lists the same keys; a test
/// compares the two.
package enum MachineFileKeys {
    /// The top level of a machine file.
    package static let topLevel: [StaticString] = [
        "machine", "description", "initial", "on_unhandled", "on_error", "context", "inputs", "states", "effects", "transitions",
    ]
    /// An input written as a mapping: `{ arg: TYPE, description: TEXT }`.
    package static let input: [StaticString] = ["arg", "description", "internal"]
    /// A state's options.
    package static let state: [StaticString] = [
        "entry", "exit", "final", "description", "states", "initial", "parallel", "history", "default", "default_effects",
    ]
    /// A step of an effect's body (one step per mapping, but `set` with `send`, and `if` or
    /// `elif` with `do` and `else`).
    package static let effectStep: [StaticString] = ["set", "send", "log", "if", "elif", "else", "do", "foreach", "cancel", "cancel_expr"]
    /// An input an effect sends, written as a mapping.
    package static let sentInput: [StaticString] = ["input", "arg", "data", "queue", "delay", "delay_expr", "id", "target"]
    /// A `log` step written as a mapping.
    package static let log: [StaticString] = ["label", "expr"]
    /// A `foreach` step.
    package static let forEach: [StaticString] = ["array", "item", "index", "do"]
    /// A transition written as a mapping.
    package static let transition: [StaticString] = ["input", "after", "from", "to", "when", "effects", "type", "reject", "description"]
    /// A transition's `from: { not: STATES }`.
    package static let excludedSources: [StaticString] = ["not"]
}
