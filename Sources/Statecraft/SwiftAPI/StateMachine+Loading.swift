extension StateMachine {
    /// Starts a loaded machine file, in either format, with `effects` bound to its effect names;
    /// its timers fire on `clock`, as when it is started from its ``CompiledMachine``:
    ///
    /// ```swift
    /// let launcher = try StateMachine(YAMLFile.load(path: "machines/app-launcher.yaml"), effects: [...])
    /// ```
    ///
    /// - Throws: ``LoadError`` when the file could not be read or is invalid (`loaded` has no
    ///   machine), or ``StateMachine/BindingError`` when a bound name is not one of its effects.
    public convenience init(
        _ loaded: LoadResult, stepLimit: Int = RunLimits.defaultStepLimit, clock: any Clock<Duration> = ContinuousClock(),
        effects: [String: @Sendable (EffectCall) -> Void] = [:]
    ) throws {
        guard let machine = loaded.machine else { throw LoadError(diagnostics: loaded.diagnostics) }
        try self.init(machine, stepLimit: stepLimit, clock: clock, effects: effects)
    }
}
