import TestSupport

/// Writes random statecharts whose states nest but that have nothing else of a statechart (no
/// parallel state, history, eventless transition or `in()`), as machine-file text, from a seed:
/// the machines that run on a leaf table (``LeafDispatchTable``).
///
/// States nest up to five levels, some final (done events, a finished machine); compound
/// states name an `initial` deep inside them and have `default_effects`; states have entry and
/// exit effects that are hooks, assignments, sends, an assignment that fails (a division by
/// zero) and, with `timers`, a delayed send. Transitions leave from any state, compound ones
/// included, and `"*"`, go to any state (their own source and its descendants included) or
/// stay, some `type: internal`, guarded (on the context, the argument, or failing), with
/// effects, refusals, done events as inputs, and with `timers`, `after` transitions.
struct NestedMachineGenerator {
    var random: SplitMix
    let timers: Bool

    /// The inputs every generated machine declares; `k` takes an int.
    static let inputs = ["a", "b", "c", "d", "e", "k"]

    init(seed: UInt64, timers: Bool) {
        random = SplitMix(seed: seed)
        self.timers = timers
    }

    private var names: [String] = []
    private var parents: [Int] = []
    private var children: [[Int]] = []
    private var isFinal: [Bool] = []

    mutating func machine() -> String {
        let topLevel = Int.random(in: 2...4, using: &random)
        for index in 0..<topLevel { addState(parent: -1, depth: 0, mayBeFinal: index > 0, nests: index == topLevel - 1) }
        var effects = ["h1", "h2", "h3", "inc", "cyc", "fail", "sendA", "sendK"]
        if timers { effects.append("later") }
        func someEffects() -> String {
            "[" + (0..<Int.random(in: 1...2, using: &random)).map { _ in effects.randomElement(using: &random)! }.joined(separator: ", ") + "]"
        }
        let ignores = Int.random(in: 0..<8, using: &random) == 0
        var text = "machine: generated\ninitial: \(names[0])\ncontext: { n: 0, z: 1 }\n"
        if ignores { text += "on_unhandled: ignore\n" }
        text += "inputs:\n  a:\n  b:\n  c:\n  d:\n  e:\n  k: int\nstates:\n"
        func write(_ state: Int, indent: String) {
            text += "\(indent)\(names[state]):\n"
            let inner = indent + "  "
            if isFinal[state] { text += "\(inner)final: true\n" }
            if Int.random(in: 0..<10, using: &random) < 4 { text += "\(inner)entry: \(someEffects())\n" }
            if Int.random(in: 0..<10, using: &random) < 4 { text += "\(inner)exit: \(someEffects())\n" }
            guard !children[state].isEmpty else { return }
            if Int.random(in: 0..<10, using: &random) < 3 {
                text += "\(inner)initial: \(names[descendants(of: state).randomElement(using: &random)!])\n"
            }
            if Int.random(in: 0..<10, using: &random) < 2 { text += "\(inner)default_effects: \(someEffects())\n" }
            text += "\(inner)states:\n"
            for child in children[state] { write(child, indent: inner + "  ") }
        }
        for state in names.indices where parents[state] < 0 { write(state, indent: "  ") }
        text += """
            effects:
              h1:
              h2:
              h3:
              inc: { set: { n: n + 1 } }
              cyc: { set: { z: n - n / 3 * 3 } }
              fail: { set: { n: 12 / z } }
              sendA: { send: a }
              sendK: { send: { input: k, arg: 3 } }

            """
        if timers { text += "  later: { send: { input: b, delay: 1s } }\n" }
        text += "transitions:\n"
        let compound = names.indices.filter { !children[$0].isEmpty }
        let guards = ["n / 2 * 2 == n", "n > 3", "z != 1", "12 / z > 5"]
        for _ in 0..<Int.random(in: 8...22, using: &random) {
            let source = names.indices.randomElement(using: &random)!
            let from = Int.random(in: 0..<20, using: &random) == 0 ? "\"*\"" : names[source]
            var input = Self.inputs.randomElement(using: &random)!
            if !compound.isEmpty && Int.random(in: 0..<10, using: &random) == 0 {
                input = "done.state." + names[compound.randomElement(using: &random)!]
            }
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 7 {
                text += "  - { input: \(input), from: \(from), reject: not now"
                if Bool.random(using: &random) { text += ", when: \"\(guards.randomElement(using: &random)!)\"" }
                text += " }\n"
                continue
            }
            let delayed = timers && roll < 15
            text += delayed ? "  - after: \(["0s", "500ms", "1s"].randomElement(using: &random)!)\n" : "  - input: \(input)\n"
            text += "    from: \(from)\n"
            let targetRoll = Int.random(in: 0..<10, using: &random)
            if targetRoll < 7 {
                // Half of these inside the source (its descendants, or itself).
                let inside = [source] + descendants(of: source)
                let target = Bool.random(using: &random) ? inside.randomElement(using: &random)! : names.indices.randomElement(using: &random)!
                text += "    to: \(names[target])\n"
                if Int.random(in: 0..<10, using: &random) < 3 { text += "    type: internal\n" }
            }
            if Int.random(in: 0..<10, using: &random) < 4 {
                let guardText = input == "k" && !delayed && Bool.random(using: &random) ? "arg > 2" : guards.randomElement(using: &random)!
                text += "    when: \"\(guardText)\"\n"
            }
            if Int.random(in: 0..<10, using: &random) < 4 { text += "    effects: \(someEffects())\n" }
        }
        return text
    }

    private mutating func addState(parent: Int, depth: Int, mayBeFinal: Bool, nests: Bool = false) {
        let id = names.count
        names.append("s\(id)")
        parents.append(parent)
        children.append([])
        isFinal.append(false)
        if parent >= 0 { children[parent].append(id) }
        if nests || (depth < 4 && Int.random(in: 0..<10, using: &random) < 5) {
            for _ in 0..<Int.random(in: 1...3, using: &random) { addState(parent: id, depth: depth + 1, mayBeFinal: true) }
        } else if mayBeFinal && Int.random(in: 0..<10, using: &random) == 0 {
            isFinal[id] = true
        }
    }

    private func descendants(of state: Int) -> [Int] {
        children[state].flatMap { [$0] + descendants(of: $0) }
    }
}
