/// A stable hash of what a compiled machine does, so that a snapshot saved by one definition is
/// never resumed by another.
///
/// It covers everything that gives a state or a context value its meaning: the states (final or
/// not, entry and exit effects), the inputs (argument types, internal or not), the context
/// variables (types and initial values), the initial state, the unhandled-input policy, every
/// transition in order (input, sources, target, guard text, effects, refusal message) and every
/// effect body (the variables it sets and the inputs it sends, with their expressions as
/// written). Sources count as the states they expand to: `from: { not: [b] }` is the list of
/// every other non-final state, and fingerprints as that list written out.
///
/// It leaves out what does not change behaviour: the machine's name and descriptions (of the
/// machine, its inputs, states and transitions), source positions, and the order in which states, inputs, variables and effects are declared (they
/// are written sorted by name; only transition order, which decides selection, is kept).
/// Expressions count as written, so reformatting a guard changes the fingerprint.
package struct MachineFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// `sha256:` and 64 hexadecimal digits.
    package let text: String

    /// The version of the canonical form; part of what is hashed.
    static let scheme = "statecraft-machine-fingerprint-1"

    /// The fingerprint of `machine` (walks the whole machine).
    package init(_ machine: CompiledMachine) {
        self.init(canonicalForm: Self.canonicalForm(of: machine))
    }

    /// The fingerprint of a canonical form.
    init(canonicalForm: [UInt8]) {
        text = "sha256:" + SHA256.hexDigest(canonicalForm)
    }

    /// The ``text``.
    package var description: String { text }

    /// The bytes hashed: one record per line, every string length-prefixed (`5:hello`) so that
    /// no name or expression text can be mistaken for a separator.
    static func canonicalForm(of machine: CompiledMachine) -> [UInt8] {
        var out = CanonicalWriter()
        out.record(Self.scheme)
        out.record("policy", machine.onUnhandled.rawValue)
        // Only when raised: every other machine's fingerprint stays what it was.
        if machine.chart?.raisesErrors == true { out.record("on_error", "raise") }
        out.record("initial", machine.stateNames[machine.initialState])
        if let initial = machine.chart?.tree.initial, initial.count > 1 {
            out.record("initial", initial.map { machine.stateNames[Int($0)] }.joined(separator: " "))
        }
        let effectNames = { (ids: [Int]) in ids.map { machine.effectNames[$0] } }
        // Sorted by UTF-8 bytes, which no Unicode or library version can reorder.
        let utf8Order = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
        let byName = { (names: [String]) in names.indices.sorted { utf8Order(names[$0], names[$1]) } }
        for state in byName(machine.stateNames) {
            out.record("state", machine.stateNames[state], machine.isFinal[state] ? "final" : "nonfinal")
            out.list("entry", effectNames(machine.entryEffects[state]))
            out.list("exit", effectNames(machine.exitEffects[state]))
        }
        for input in byName(machine.inputNames) {
            // Written only when it holds, so that machines without internal inputs keep their fingerprints.
            if machine.inputIsInternal[input] {
                out.record("input", machine.inputNames[input], machine.argumentTypes[input]?.rawValue ?? "-", "internal")
            } else {
                out.record("input", machine.inputNames[input], machine.argumentTypes[input]?.rawValue ?? "-")
            }
        }
        for slot in byName(machine.variableNames) {
            out.record(
                "variable", machine.variableNames[slot], machine.variableTypes[slot].description,
                machine.initialContext[slot].description)
        }
        for id in byName(machine.effectNames) {
            let effect = machine.effects[id]
            out.record("effect", machine.effectNames[id])
            out.steps(effect.steps, of: effect, machine)
        }
        for transition in machine.transitions {
            out.record(
                "transition", transition.input >= 0 ? machine.inputNames[transition.input] : "-",
                transition.target >= 0 ? machine.stateNames[transition.target] : "-", transition.guardText ?? "-")
            out.list("from", transition.sources.map { machine.stateNames[$0] }.sorted(by: utf8Order))
            out.list("effects", effectNames(transition.effects))
            if let refusal = transition.refusal { out.record("reject", refusal) }
            // A statechart's transitions may be eventless, internal or lead to several states.
            if machine.chart != nil {
                out.record("kind", transition.input >= 0 ? "input" : "eventless", transition.isInternal ? "internal" : "external")
                out.list("to", transition.targets.map { machine.stateNames[$0] })
            }
        }
        // A statechart's tree: each state's parent, kind and default entries.
        if let tree = machine.chart?.tree {
            for state in byName(machine.stateNames) {
                let parent = tree.parents[state]
                out.record("tree", machine.stateNames[state], parent >= 0 ? machine.stateNames[Int(parent)] : "-", "\(tree.kinds[state])")
                out.list("default", tree.defaultEntries[state].map { machine.stateNames[Int($0)] })
            }
        }
        return out.bytes
    }
}

// MARK: - Typed machines

/// The structure of a typed machine's table (``TypedStateMachine``), which is what its
/// fingerprint covers: its states, its inputs, and each row's input, sources and target, and its
/// work states. The Swift closures (guards, effects, builders, works) are not part of it, nor is
/// the initial state, as a restored machine does not start there.
struct TableStructure {
    /// The states' names (their slots, as `String(describing:)` writes them), by state id.
    var stateNames: [String]
    /// Whether a rule names each state: the initial state's slot is a state of the table even
    /// when no rule names it, and is then left out.
    var isNamed: [Bool]
    /// Whether each state is final.
    var isFinal: [Bool]
    /// The inputs' names (a delayed row's is `after 30s`), by input id.
    var inputNames: [String]
    /// Whether each input is internal (a delayed row's).
    var inputIsInternal: [Bool]
    /// The rows in order: input id, source state ids, target state id.
    var transitions: [(input: Int, sources: [Int], target: Int)]
    /// The work states, and the input that reports each one's result.
    var works: [(state: Int, input: Int)]
}

extension MachineFingerprint {
    /// The version of a typed machine's canonical form; part of what is hashed.
    static let tableScheme = "statecraft-table-fingerprint-1"

    /// The fingerprint of a typed machine's table: its named states (final or not), its inputs
    /// (internal or not), every row in order (input, target, the named states it leaves from)
    /// and its work states, names sorted as for a machine file.
    init(_ table: TableStructure) {
        var out = CanonicalWriter()
        out.record(Self.tableScheme)
        let utf8Order = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
        let byName = { (names: [String]) in names.indices.sorted { utf8Order(names[$0], names[$1]) } }
        for state in byName(table.stateNames) where table.isNamed[state] {
            out.record("state", table.stateNames[state], table.isFinal[state] ? "final" : "nonfinal")
        }
        for input in byName(table.inputNames) {
            if table.inputIsInternal[input] {
                out.record("input", table.inputNames[input], "internal")
            } else {
                out.record("input", table.inputNames[input])
            }
        }
        for transition in table.transitions {
            out.record("transition", table.inputNames[transition.input], table.stateNames[transition.target])
            out.list("from", transition.sources.filter { table.isNamed[$0] }.map { table.stateNames[$0] }.sorted(by: utf8Order))
        }
        for work in table.works.sorted(by: { utf8Order(table.stateNames[$0.state], table.stateNames[$1.state]) }) {
            out.record("work", table.stateNames[work.state], table.inputNames[work.input])
        }
        self.init(canonicalForm: out.bytes)
    }
}

extension CompiledMachine {
    /// The machine's ``MachineFingerprint``; computing it walks the whole definition, so keep it.
    package var fingerprint: MachineFingerprint { MachineFingerprint(self) }
}

private struct CanonicalWriter {
    var bytes: [UInt8] = []

    mutating func string(_ s: String) {
        bytes.append(contentsOf: String(s.utf8.count).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: s.utf8)
    }

    /// An effect's steps, in order. Assignments and internal sends are recorded as they were
    /// before bodies had other steps, so that those machines keep their fingerprints.
    mutating func steps(_ steps: [CompiledEffect.Step], of effect: CompiledEffect, _ machine: CompiledMachine) {
        for step in steps {
            switch step {
            case .assign(let slot, _, let site):
                record("set", machine.variableNames[slot], effect.expressionTexts[site])
            case .send(let send):
                let text = send.argument == nil ? "-" : effect.expressionTexts[send.site]
                if send.isDelayed {
                    let id = send.timer >= 0 ? machine.timers?.timerNames[send.timer] ?? "-" : "-"
                    let delay = send.delayExpression.map { "delay_expr " + effect.expressionTexts[$0.site] } ?? "delay \(send.delay)"
                    record("send", machine.inputNames[send.input], text, send.isExternal ? "external" : "internal", delay, id)
                } else if send.isExternal {
                    record("send", machine.inputNames[send.input], text, "external")
                } else {
                    record("send", machine.inputNames[send.input], text)
                }
            case .log(let label, _, let site):
                record("log", label ?? "-", site < 0 ? "-" : effect.expressionTexts[site])
            case .conditional(let branches, let otherwise):
                for branch in branches {
                    record("if", effect.expressionTexts[branch.site])
                    self.steps(branch.steps, of: effect, machine)
                }
                record("else")
                self.steps(otherwise, of: effect, machine)
                record("end")
            case .cancel(let timer):
                record("cancel", machine.timers?.timerNames[timer] ?? "-")
            case .cancelEvaluated(_, let site, _):
                record("cancel_expr", effect.expressionTexts[site])
            case .fail(let message, let site):
                record("fail", message, effect.expressionTexts[site])
            case .forEach(_, let site, let item, let index, let body):
                record("foreach", effect.expressionTexts[site], machine.variableNames[item], index < 0 ? "-" : machine.variableNames[index])
                self.steps(body, of: effect, machine)
                record("end")
            }
        }
    }

    mutating func record(_ fields: String...) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: " ")) }
            string(field)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func list(_ tag: String, _ items: [String]) {
        string(tag)
        bytes.append(contentsOf: " \(items.count)".utf8)
        for item in items {
            bytes.append(UInt8(ascii: " "))
            string(item)
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}
