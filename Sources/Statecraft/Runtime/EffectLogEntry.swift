/// A line written by an effect's `log` step, handed to the runner's ``EffectLogHandler``.
public struct EffectLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// The name of the effect that logged it.
    public let effect: String
    /// The step's label, if it has one.
    public let label: String?
    /// The value of the step's expression, if it has one.
    public let value: Value?

    /// Label and value as smrun writes them: `label: value`, or either alone (strings in JSON
    /// quotes, as in a script).
    public var description: String {
        switch (label, value) {
        case (let label?, let value?): "\(label): \(value)"
        case (let label?, nil): label
        case (nil, let value?): value.description
        case (nil, nil): ""
        }
    }
}

/// Receives the lines effects' `log` steps write, as they run (before the transition's result
/// is reported, and even when a later expression of the transition fails).
public typealias EffectLogHandler = @Sendable (EffectLogEntry) -> Void
