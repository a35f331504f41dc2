import Statecraft

/// Writes a definition as an SCXML document (docs/scxml.md): what `smrun export --format scxml`
/// prints. Each transition is written in every state it leaves from (`*` and `not` expanded
/// over the top-level states, in file order, so that each state tries its transitions in the
/// same order), effects as `<sc:effect name="...">` around their bodies, and what SCXML cannot
/// say in Statecraft's namespace (typed inputs, refusals, descriptions, on_unhandled).
package enum SCXMLWriter {
    /// Why a definition cannot be written as SCXML.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        /// What cannot be said.
        package var description: String
    }

    /// The definition as SCXML text.
    ///
    /// SCXML has no delayed transitions: an `after` transition is written as SCXML does it by
    /// hand, a delayed `<send>` of an event of its own (`after.1`, `after.2`, ..., declared
    /// internal when the machine declares its inputs) in its state's `<onentry>`, with a delay in
    /// CSS2 time (`1800s`, `250ms`), cancelled in the state's `<onexit>`, and a transition on
    /// that event.
    ///
    /// - Throws: ``Problem`` for a transition on an input `NAME` while the machine has inputs
    ///   `NAME.more` (SCXML's descriptor `NAME` would take those too).
    package static func text(of definition: MachineDefinition) throws -> String {
        let inputNames = definition.inputs.map { $0.map(\.name.name) } ?? definition.transitions.map(\.input.name)
        let extended = Set(inputNames.flatMap { name in
            name.indices.filter { name[$0] == "." }.map { String(name[..<$0]) }
        })
        for transition in definition.transitions where !transition.isEventless && !transition.isPattern && extended.contains(transition.input.name) {
            throw Problem(
                description:
                    "the transition on '\(transition.input.name)' (line \(transition.position.line)) cannot be written in SCXML: its event descriptor would also take the inputs that start with '\(transition.input.name).'")
        }
        var writer = Writer(definition: definition)
        return writer.document()
    }

    private struct Writer {
        let definition: MachineDefinition
        let bodies: [String: EffectDefinition]
        /// Per state name, its transitions in file order, with the event of an `after` one.
        var transitionsByState: [String: [(transition: TransitionDefinition, timerEvent: String?)]] = [:]
        /// Per state name, the timers of its `after` transitions, in file order.
        var timersByState: [String: [Timer]] = [:]
        /// Every timer event, in the order they were named.
        var timerEventNames: [String] = []
        var out = ""

        /// A delayed `<send>` that stands for an `after` transition from one state.
        struct Timer {
            var event: String
            var delay: Delay
        }

        init(definition: MachineDefinition) {
            self.definition = definition
            bodies = Dictionary(definition.effects.map { ($0.name.name, $0) }, uniquingKeysWith: { first, _ in first })
            let topLevel = definition.states.filter { !$0.isFinal }.map(\.name.name)
            // Timer events are named `after.N`, after a prefix that no input starts with.
            let inputNames = (definition.inputs.map { $0.map(\.name.name) } ?? []) + definition.transitions.map(\.input.name)
            var base = "after"
            while inputNames.contains(where: { $0 == base || $0.hasPrefix(base + ".") }) { base = "_" + base }
            for transition in definition.transitions {
                let sources: [String]
                switch transition.source {
                case .states(let names): sources = names.map(\.name)
                case .anyNonFinal: sources = topLevel
                case .anyNonFinalExcept(let names, _):
                    let excluded = Set(names.map(\.name))
                    sources = topLevel.filter { !excluded.contains($0) }
                }
                for source in sources {
                    var timerEvent: String?
                    if let delay = transition.after {
                        let event = "\(base).\(timerEventNames.count + 1)"
                        timerEventNames.append(event)
                        timersByState[source, default: []].append(Timer(event: event, delay: delay))
                        timerEvent = event
                    }
                    transitionsByState[source, default: []].append((transition, timerEvent))
                }
            }
        }

        /// A delay in CSS2 time, as SCXML writes it: whole seconds as `1800s`, else `250ms`.
        static func css2Time(_ delay: Delay) -> String {
            delay.milliseconds % 1000 == 0 ? "\(delay.milliseconds / 1000)s" : "\(delay.milliseconds)ms"
        }

        mutating func document() -> String {
            out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            var attributes = [
                ("xmlns", XMLStreamReader.scxmlNamespace), ("xmlns:\(SCXMLVocabulary.statecraftPrefix)", SCXMLVocabulary.statecraftNamespace),
                ("version", "1.0"), ("name", definition.name), ("initial", ([definition.initial] + definition.otherInitialStates).map(\.name).joined(separator: " ")),
            ]
            if definition.onUnhandled == .reject { attributes.append(("sc:on-unhandled", "reject")) }
            if definition.onError == .reject { attributes.append(("sc:on-error", "reject")) }
            if let description = definition.description { attributes.append(("sc:description", description)) }
            open("scxml", attributes, indent: "")
            for input in definition.inputs ?? [] {
                var attributes = [("name", input.name.name)]
                if let type = input.argumentType { attributes.append(("arg", type.rawValue)) }
                if input.isInternal { attributes.append(("internal", "true")) }
                if let description = input.description { attributes.append(("description", description)) }
                empty("sc:input", attributes, indent: "  ")
            }
            // The timers' events, which only the state's own <send> sends.
            if definition.inputs != nil {
                for event in timerEventNames { empty("sc:input", [("name", event), ("internal", "true")], indent: "  ") }
            }
            if !definition.context.isEmpty {
                open("datamodel", [], indent: "  ")
                for variable in definition.context {
                    empty("data", [("id", variable.name.name), ("expr", variable.initialValue.description)], indent: "    ")
                }
                close("datamodel", indent: "  ")
            }
            for state in definition.states { write(state, indent: "  ") }
            close("scxml", indent: "")
            return out
        }

        // MARK: - States and transitions

        private mutating func write(_ state: StateDeclaration, indent: String) {
            let name = state.name.name
            if let history = state.history {
                let attributes = [("id", name), ("type", history.rawValue)]
                if state.historyDefault.isEmpty { return empty("history", attributes, indent: indent) }
                open("history", attributes, indent: indent)
                pseudoStateTransition(to: state.historyDefault, state.defaultEffects, indent: indent + "  ")
                return close("history", indent: indent)
            }
            let element = state.isFinal ? "final" : state.isParallel ? "parallel" : "state"
            var attributes = [("id", name)]
            // Default effects are the content of an <initial>'s transition.
            let initialElement = !state.defaultEffects.isEmpty && !state.children.isEmpty && !state.isParallel
            if !state.initial.isEmpty && !initialElement { attributes.append(("initial", names(state.initial))) }
            if let description = state.description { attributes.append(("sc:description", description)) }
            let transitions = transitionsByState[name] ?? []
            let timers = timersByState[name] ?? []
            if state.entry.isEmpty && state.exit.isEmpty && transitions.isEmpty && state.children.isEmpty && state.defaultEffects.isEmpty {
                return empty(element, attributes, indent: indent)
            }
            open(element, attributes, indent: indent)
            let inner = indent + "  "
            if timers.isEmpty {
                block("onentry", state.entry, indent: inner)
                block("onexit", state.exit, indent: inner)
            } else {
                // Each `after` transition's timer starts on entry and is cancelled on exit.
                open("onentry", [], indent: inner)
                effects(state.entry, indent: inner + "  ")
                for timer in timers {
                    empty("send", [("event", timer.event), ("delay", Self.css2Time(timer.delay)), ("id", timer.event)], indent: inner + "  ")
                }
                close("onentry", indent: inner)
                open("onexit", [], indent: inner)
                for timer in timers { empty("cancel", [("sendid", timer.event)], indent: inner + "  ") }
                effects(state.exit, indent: inner + "  ")
                close("onexit", indent: inner)
            }
            if initialElement, let first = state.children.first(where: { $0.history == nil }) {
                open("initial", [], indent: inner)
                pseudoStateTransition(to: state.initial.isEmpty ? [first.name] : state.initial, state.defaultEffects, indent: inner + "  ")
                close("initial", indent: inner)
            }
            for (transition, timerEvent) in transitions { write(transition, timerEvent: timerEvent, indent: inner) }
            for child in state.children { write(child, indent: inner) }
            close(element, indent: indent)
        }

        /// A transition; `timerEvent` is the event of its timer for an `after` transition.
        private mutating func write(_ transition: TransitionDefinition, timerEvent: String?, indent: String) {
            var attributes: [(String, String)] = []
            if let timerEvent {
                attributes.append(("event", timerEvent))
            } else if !transition.isEventless {
                attributes.append(("event", transition.input.name))
            }
            if let guardExpression = transition.guardExpression { attributes.append(("cond", guardExpression.text)) }
            if !transition.targets.isEmpty { attributes.append(("target", names(transition.targets))) }
            if transition.isInternal { attributes.append(("type", "internal")) }
            if let refusal = transition.refusal { attributes.append(("sc:reject", refusal)) }
            if let description = transition.description { attributes.append(("sc:description", description)) }
            if transition.effects.isEmpty { return empty("transition", attributes, indent: indent) }
            open("transition", attributes, indent: indent)
            effects(transition.effects, indent: indent + "  ")
            close("transition", indent: indent)
        }

        /// The `<transition>` of an `<initial>` or a `<history>`, with its effects.
        private mutating func pseudoStateTransition(to targets: [Named], _ effects: [Named], indent: String) {
            if effects.isEmpty { return empty("transition", [("target", names(targets))], indent: indent) }
            open("transition", [("target", names(targets))], indent: indent)
            self.effects(effects, indent: indent + "  ")
            close("transition", indent: indent)
        }

        private mutating func block(_ element: String, _ names: [Named], indent: String) {
            guard !names.isEmpty else { return }
            open(element, [], indent: indent)
            effects(names, indent: indent + "  ")
            close(element, indent: indent)
        }

        /// Each effect as `<sc:effect>` around its steps.
        private mutating func effects(_ names: [Named], indent: String) {
            for name in names {
                let attributes = [("name", name.name)]
                guard let body = bodies[name.name], !body.steps.isEmpty else {
                    empty("sc:effect", attributes, indent: indent)
                    continue
                }
                open("sc:effect", attributes, indent: indent)
                steps(body.steps, indent: indent + "  ")
                close("sc:effect", indent: indent)
            }
        }

        /// Steps as executable content: `<assign>`, `<raise>` (or `<send target="#_internal">`
        /// for a value), `<send>` for the external queue, `<log>`, `<if>`, `<foreach>`.
        private mutating func steps(_ steps: [EffectDefinition.Step], indent: String) {
            for step in steps {
                switch step {
                case .assign(let assignment):
                    empty("assign", [("location", assignment.variable.name), ("expr", assignment.expression.text)], indent: indent)
                case .send(let send):
                    var attributes = [("event", send.input.name)]
                    // A delayed send has no target: SCXML delays only what it sends as an event of its own.
                    if let delay = send.delay { attributes.append(("delay", delay.text)) }
                    if let delay = send.delayExpression { attributes.append(("delayexpr", delay.text)) }
                    if let id = send.id { attributes.append(("id", id.name)) }
                    if let target = send.target {
                        attributes.append(("target", target))
                    } else if send.queue == .internal && !send.isDelayed {
                        guard send.argument != nil || !send.data.isEmpty else {
                            empty("raise", attributes, indent: indent)
                            continue
                        }
                        attributes.append(("target", SCXMLVocabulary.internalTarget))
                    }
                    guard send.argument != nil || !send.data.isEmpty else {
                        empty("send", attributes, indent: indent)
                        continue
                    }
                    open("send", attributes, indent: indent)
                    if let argument = send.argument { empty("content", [("expr", argument.text)], indent: indent + "  ") }
                    for field in send.data {
                        empty("param", [("name", field.name.name), ("expr", field.expression.text)], indent: indent + "  ")
                    }
                    close("send", indent: indent)
                case .log(let log):
                    var attributes: [(String, String)] = []
                    if let label = log.label { attributes.append(("label", label)) }
                    if let expression = log.expression { attributes.append(("expr", expression.text)) }
                    empty("log", attributes, indent: indent)
                case .conditional(let conditional):
                    for (number, branch) in conditional.branches.enumerated() {
                        if number == 0 {
                            open("if", [("cond", branch.condition.text)], indent: indent)
                        } else {
                            empty("elseif", [("cond", branch.condition.text)], indent: indent + "  ")
                        }
                        self.steps(branch.steps, indent: indent + "  ")
                    }
                    if !conditional.otherwise.isEmpty {
                        empty("else", [], indent: indent + "  ")
                        self.steps(conditional.otherwise, indent: indent + "  ")
                    }
                    close("if", indent: indent)
                case .cancel(let id):
                    empty("cancel", [("sendid", id.name)], indent: indent)
                case .cancelEvaluated(let id):
                    empty("cancel", [("sendidexpr", id.text)], indent: indent)
                case .forEach(let loop):
                    var attributes = [("array", loop.items.text), ("item", loop.item.name)]
                    if let index = loop.index { attributes.append(("index", index.name)) }
                    if loop.steps.isEmpty {
                        empty("foreach", attributes, indent: indent)
                        continue
                    }
                    open("foreach", attributes, indent: indent)
                    self.steps(loop.steps, indent: indent + "  ")
                    close("foreach", indent: indent)
                }
            }
        }

        // MARK: - XML

        private func names(_ names: [Named]) -> String { names.map(\.name).joined(separator: " ") }

        private mutating func open(_ element: String, _ attributes: [(String, String)], indent: String) {
            out += "\(indent)<\(element)\(Self.attributes(attributes))>\n"
        }

        private mutating func empty(_ element: String, _ attributes: [(String, String)], indent: String) {
            out += "\(indent)<\(element)\(Self.attributes(attributes))/>\n"
        }

        private mutating func close(_ element: String, indent: String) {
            out += "\(indent)</\(element)>\n"
        }

        private static func attributes(_ attributes: [(String, String)]) -> String {
            attributes.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
        }

        /// An attribute value that reads back as written: markup characters as entities, and
        /// blanks other than spaces as character references (a parser turns raw ones into spaces).
        private static func escaped(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\n", "\r", "\t": out += "&#\(scalar.value);"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }
}
