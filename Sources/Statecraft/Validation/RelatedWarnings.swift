/// The warnings that explain errors. A file with errors does not compile, so the linter's
/// warnings are not made; but a warning that names the same effect, input, state or variable
/// as an error often says what is really wrong: a typo in a row's effect name gives an error
/// about `arg` at the declared effect (nothing runs it, so `arg` has no type), and the
/// `undeclared-effect` warning with its did-you-mean names the typo. Such warnings, those the
/// definition alone gives (``MachineLinter/definitionWarnings(_:)``), are shown with the
/// errors, each right after the first error it shares a name with.
package enum RelatedWarnings {
    /// `diagnostics` (in file order, with an error) with each related warning after the first
    /// error that names one of its names; the other warnings are left out.
    package static func interleaved(_ diagnostics: [Diagnostic], definition: MachineDefinition) -> [Diagnostic] {
        let warnings = MachineLinter.definitionWarnings(definition)
        guard !warnings.isEmpty else { return diagnostics }
        let names = machineNames(definition)
        var unplaced = warnings.map { names.intersection(quotedNames($0.message)) }.enumerated().filter { !$0.element.isEmpty }
        guard !unplaced.isEmpty else { return diagnostics }
        var result: [Diagnostic] = []
        for diagnostic in diagnostics {
            result.append(diagnostic)
            guard diagnostic.severity == .error, !unplaced.isEmpty else { continue }
            let named = names.intersection(quotedNames(diagnostic.message))
            guard !named.isEmpty else { continue }
            result += unplaced.filter { !$0.element.isDisjoint(with: named) }.map { warnings[$0.offset] }
            unplaced.removeAll { !$0.element.isDisjoint(with: named) }
        }
        return result
    }

    /// The words a message quotes (`'addAmount'`): every text between two consecutive `'`
    /// (what lies between two quoted names is never a name, which cannot hold a blank).
    static func quotedNames(_ message: String) -> Set<String> {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count > 2 else { return [] }
        return Set(parts[1..<(parts.count - 1)].map(String.init))
    }

    /// The names of the machine's states, inputs, effects and context variables, declared or used.
    static func machineNames(_ definition: MachineDefinition) -> Set<String> {
        var names = Set(definition.context.map(\.name.name))
        names.formUnion(definition.effects.map(\.name.name))
        names.formUnion(definition.inputs?.map(\.name.name) ?? [])
        for state in definition.allStates {
            names.insert(state.name.name)
            for effect in state.entry + state.exit + state.defaultEffects { names.insert(effect.name) }
        }
        for transition in definition.transitions {
            names.insert(transition.input.name)
            for effect in transition.effectNames { names.insert(effect.name) }
        }
        return names
    }
}
