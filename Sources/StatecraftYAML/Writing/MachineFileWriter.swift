import Statecraft

/// Writes a definition as a machine file (docs/machine-files.md): what `smrun export --format
/// yaml` prints. A name, text or expression is written plain when YAML reads it back as the same
/// text, else as a JSON string (YAML's double-quoted scalar); transitions take the mapping form.
/// Loading the text gives a machine that behaves as the definition does.
package enum MachineFileWriter {
    /// The definition as machine-file text.
    package static func text(of definition: MachineDefinition) -> String {
        var out = "machine: \(quoted(definition.name))\n"
        if let description = definition.description { out += "description: \(quoted(description))\n" }
        out += "initial: \(list([definition.initial] + definition.otherInitialStates))\n"
        if definition.onUnhandled != .reject { out += "on_unhandled: \(definition.onUnhandled.rawValue)\n" }
        if definition.onError != .reject { out += "on_error: \(definition.onError.rawValue)\n" }
        if !definition.context.isEmpty {
            out += "context:\n"
            for variable in definition.context { out += "  \(quoted(variable.name.name)): \(variable.initialValue)\n" }
        }
        if let inputs = definition.inputs {
            out += inputs.isEmpty ? "inputs: []\n" : "inputs:\n"
            for input in inputs { out += "  \(quoted(input.name.name)):\(inputOptions(input))\n" }
        }
        out += "states:\n"
        for state in definition.states { write(state, indent: "  ", into: &out) }
        if !definition.effects.isEmpty {
            out += "effects:\n"
            for effect in definition.effects { write(effect, into: &out) }
        }
        out += definition.transitions.isEmpty ? "transitions: []\n" : "transitions:\n"
        for transition in definition.transitions { write(transition, into: &out) }
        return out
    }

    // MARK: - Parts

    private static func inputOptions(_ input: InputDeclaration) -> String {
        var options: [String] = []
        if let type = input.argumentType { options.append("arg: \(type)") }
        if input.isInternal { options.append("internal: true") }
        if let description = input.description { options.append("description: \(quoted(description))") }
        return options.isEmpty ? "" : " { \(options.joined(separator: ", ")) }"
    }

    private static func write(_ state: StateDeclaration, indent: String, into out: inout String) {
        var options: [String] = []
        if !state.entry.isEmpty { options.append("entry: \(list(state.entry))") }
        if !state.exit.isEmpty { options.append("exit: \(list(state.exit))") }
        if state.isFinal { options.append("final: true") }
        if let description = state.description { options.append("description: \(quoted(description))") }
        if !state.initial.isEmpty { options.append("initial: \(list(state.initial))") }
        if state.isParallel { options.append("parallel: true") }
        if let history = state.history { options.append("history: \(history.rawValue)") }
        if !state.historyDefault.isEmpty { options.append("default: \(list(state.historyDefault))") }
        if !state.defaultEffects.isEmpty { options.append("default_effects: \(list(state.defaultEffects, alwaysList: true))") }
        out += "\(indent)\(quoted(state.name.name)):"
        for option in options { out += "\n\(indent)  \(option)" }
        out += "\n"
        guard !state.children.isEmpty else { return }
        out += "\(indent)  states:\n"
        for child in state.children { write(child, indent: indent + "    ", into: &out) }
    }

    private static func write(_ effect: EffectDefinition, into out: inout String) {
        out += "  \(quoted(effect.name.name)):\n"
        write(effect.steps, indent: "    ", into: &out)
    }

    /// Steps as a list, one mapping per step, nested steps under `do` and `else`.
    private static func write(_ steps: [EffectDefinition.Step], indent: String, into out: inout String) {
        let inner = indent + "  "
        for step in steps {
            switch step {
            case .assign(let assignment):
                out += "\(indent)- set: { \(quoted(assignment.variable.name)): \(JSONText.quoted(assignment.expression.text)) }\n"
            case .send(let send):
                var fields = ["input: \(quoted(send.input.name))"]
                if let argument = send.argument { fields.append("arg: \(JSONText.quoted(argument.text))") }
                if !send.data.isEmpty {
                    let data = send.data.map { "\(quoted($0.name.name)): \(JSONText.quoted($0.expression.text))" }
                    fields.append("data: { \(data.joined(separator: ", ")) }")
                }
                if send.queue == .external { fields.append("queue: external") }
                if let delay = send.delay { fields.append("delay: \(delay.text)") }
                if let delay = send.delayExpression { fields.append("delay_expr: \(JSONText.quoted(delay.text))") }
                if let id = send.id { fields.append("id: \(quoted(id.name))") }
                if let target = send.target { fields.append("target: \(quoted(target))") }
                out += "\(indent)- send: { \(fields.joined(separator: ", ")) }\n"
            case .cancel(let id):
                out += "\(indent)- cancel: \(quoted(id.name))\n"
            case .cancelEvaluated(let id):
                out += "\(indent)- cancel_expr: \(JSONText.quoted(id.text))\n"
            case .log(let log):
                var fields: [String] = []
                if let label = log.label { fields.append("label: \(JSONText.quoted(label))") }
                if let expression = log.expression { fields.append("expr: \(JSONText.quoted(expression.text))") }
                out += "\(indent)- log: { \(fields.joined(separator: ", ")) }\n"
            case .conditional(let conditional):
                for (number, branch) in conditional.branches.enumerated() {
                    out += "\(indent)- \(number == 0 ? "if" : "elif"): \(JSONText.quoted(branch.condition.text))\n"
                    nested("do", branch.steps, indent: inner, into: &out)
                }
                if !conditional.otherwise.isEmpty {
                    out += "\(indent)- else:\n"
                    write(conditional.otherwise, indent: inner + "  ", into: &out)
                }
            case .forEach(let loop):
                // The loop's keys are a mapping under `foreach`, indented past it.
                let keys = inner + "  "
                out += "\(indent)- foreach:\n\(keys)array: \(JSONText.quoted(loop.items.text))\n\(keys)item: \(quoted(loop.item.name))\n"
                if let index = loop.index { out += "\(keys)index: \(quoted(index.name))\n" }
                nested("do", loop.steps, indent: keys, into: &out)
            }
        }
    }

    private static func nested(_ key: String, _ steps: [EffectDefinition.Step], indent: String, into out: inout String) {
        if steps.isEmpty {
            out += "\(indent)\(key): []\n"
        } else {
            out += "\(indent)\(key):\n"
            write(steps, indent: indent + "  ", into: &out)
        }
    }

    private static func write(_ transition: TransitionDefinition, into out: inout String) {
        var lines: [String] = []
        if let after = transition.after {
            lines.append("after: \(after.text)")
        } else if !transition.isEventless {
            lines.append("input: \(quoted(transition.input.name))")
        }
        switch transition.source {
        case .states(let names): lines.append("from: \(list(names))")
        case .anyNonFinal: lines.append("from: \"*\"")
        case .anyNonFinalExcept(let names, _): lines.append("from: { not: \(list(names, alwaysList: true)) }")
        }
        if !transition.targets.isEmpty { lines.append("to: \(list(transition.targets))") }
        if transition.isInternal { lines.append("type: internal") }
        if let guardExpression = transition.guardExpression { lines.append("when: \(quoted(guardExpression.text))") }
        if !transition.effects.isEmpty { lines.append("effects: \(list(transition.effects, alwaysList: true))") }
        if let refusal = transition.refusal { lines.append("reject: \(quoted(refusal))") }
        if let description = transition.description { lines.append("description: \(quoted(description))") }
        out += "  - " + lines.joined(separator: "\n    ") + "\n"
    }

    private static func list(_ names: [Named], alwaysList: Bool = false) -> String {
        if names.count == 1 && !alwaysList { return quoted(names[0].name) }
        return "[" + names.map { quoted($0.name) }.joined(separator: ", ") + "]"
    }

    /// `text` as a YAML scalar: plain when it is made of letters, digits, blanks and the
    /// operators of expressions, starts with a letter, a digit, `_` or `(`, and holds nothing YAML
    /// reads specially (`: `, ` #`, a trailing blank, `null`, which stands for no value in `to`); a
    /// JSON string otherwise. A context value is
    /// typed by how it is written, so this is for names and expressions only, which are text
    /// however they are written.
    private static func quoted(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) || first == "_" || first == "(",
            text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || " _.()+-*/<>=!".unicodeScalars.contains($0) }),
            !text.contains(": "), !text.contains(" #"), text.last != " ", text.lowercased() != "null"
        else { return JSONText.quoted(text) }
        return text
    }
}
