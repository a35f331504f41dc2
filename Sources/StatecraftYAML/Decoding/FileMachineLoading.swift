import Statecraft

/// A machine file that could not be loaded: every problem found in it.
public struct MachineFileError: Error, Sendable, CustomStringConvertible {
    /// The problems, in file order, errors and warnings alike.
    public let diagnostics: [Diagnostic]

    /// The errors, one per line, each with its line and column when it has one.
    public var description: String {
        diagnostics.filter { $0.severity == .error }.map { "\($0.position.map { "\($0): " } ?? "")\($0.message)" }
            .joined(separator: "\n")
    }
}

extension FileMachine {
    /// Loads the machine file at `path` and starts it, with `effects` bound to its effect names;
    /// its timers fire on `clock` (see ``FileMachine/init(_:stepLimit:clock:effects:)``).
    ///
    /// - Throws: ``MachineFileError`` when the file cannot be read or is invalid, or
    ///   ``FileMachine/BindingError`` when a bound name is not one of its effects.
    public convenience init(
        contentsOf path: String, limits: YAMLLimits = .default, stepLimit: Int = RunLimits.defaultStepLimit,
        clock: any Clock<Duration> = ContinuousClock(), effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws {
        try self.init(loaded: MachineFile.load(path: path, limits: limits), stepLimit: stepLimit, clock: clock, effects: effects)
    }

    /// Loads machine-file text and starts the machine, with `effects` bound to its effect names;
    /// `name` names the machine when the text has no `machine` key. Its timers fire on `clock`.
    ///
    /// - Throws: ``MachineFileError`` when the text is invalid, or ``FileMachine/BindingError``
    ///   when a bound name is not one of its effects.
    public convenience init(
        yaml: String, name: String = "machine", limits: YAMLLimits = .default, stepLimit: Int = RunLimits.defaultStepLimit,
        clock: any Clock<Duration> = ContinuousClock(), effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws {
        try self.init(
            loaded: MachineFile.load(bytes: Array(yaml.utf8), defaultName: name, limits: limits), stepLimit: stepLimit,
            clock: clock, effects: effects)
    }

    private convenience init(
        loaded: MachineFile.LoadResult, stepLimit: Int, clock: any Clock<Duration>,
        effects: [String: @Sendable (EffectCall) -> Void]
    ) throws {
        guard let machine = loaded.machine else { throw MachineFileError(diagnostics: loaded.diagnostics) }
        try self.init(machine, stepLimit: stepLimit, clock: clock, effects: effects)
    }
}
