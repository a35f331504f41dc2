extension ChartRunner {
    /// One thing a microstep does once its exit and entry sets are known, in SCXML's order:
    /// exits (each state's effects, then it leaves the configuration), the transitions'
    /// effects, entries (each state joins the configuration, then its effects run).
    enum PlanStep: Sendable {
        /// Runs an effect (an index into ``CompiledMachine/effects``).
        case effect(Int32)
        /// A state that `in()` tests joins or leaves the configuration: its activity slot
        /// changes, for the expressions of the effects that follow.
        case activity(slot: Int32, active: Bool)
        /// A state completed: its done event goes on the internal queue.
        case done(state: Int32)
        /// A top-level final state was entered: the machine finishes.
        case finish
    }
}
