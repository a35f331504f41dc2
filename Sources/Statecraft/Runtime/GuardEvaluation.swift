extension CompiledMachine {
    /// Whether the guard of transition `index` holds on `values` (the context) and `argument`;
    /// `nil` when it failed to evaluate, recorded in `result` as an `expression-error` rejection.
    /// Both runners' searches ask it of their guarded candidates, in order.
    @inline(__always)
    func guardHolds(_ index: Int, on values: [Value], argument: Value, _ result: inout TransitionResult) -> Bool? {
        do {
            guard case .bool(true) = try transitions[index].guardExpression!.evaluate(values, argument: argument) else { return false }
            return true
        } catch {
            result.outcome = .rejected(.expressionError)
            result.evaluationError = error
            result.failedExpression = .guardOf(transition: index)
            return nil
        }
    }
}
