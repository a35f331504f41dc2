extension ChartRunner {
    /// Sets the context before ``start(into:)``, as a scenario's `context` does: the start's
    /// entry effects and guards then read these values.
    package mutating func setContextBeforeStart(_ context: [Value]) {
        precondition(context.count == machine.variableNames.count)
        for (slot, value) in context.enumerated() { values[slot] = value }
        contextVersion &+= 1
    }
}
