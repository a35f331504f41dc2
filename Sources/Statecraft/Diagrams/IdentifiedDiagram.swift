/// A machine drawn so that a page can find its parts in Graphviz's SVG: one edge per
/// transition (``Diagram/Options/identifiesParts``), and the SVG given hooks afterwards from the
/// ids the DOT gave its nodes and edges, never from text of the machine.
///
/// Each state's group (an atomic or history state's node, a compound or parallel state's
/// cluster) gets `data-state="NAME"`, and each edge's group `data-transition="N"`: the
/// transition's index in ``CompiledMachine/transitions`` (the order the machine file writes
/// transitions, one per input a pattern matches). The start arrow and a compound state's
/// initial arrow have none.
package struct IdentifiedDiagram: Sendable {
    /// The DOT to give Graphviz.
    package let dot: String
    /// The machine's state names, by id.
    private let stateNames: [String]
    /// The transition each edge draws, by edge index.
    private let edgeTransitions: [Int]

    /// `machine` (with the definition it was compiled from, for `from: "*"` sources and
    /// descriptions) drawn with `options`, its parts identified.
    package init(_ machine: CompiledMachine, definition: MachineDefinition?, options: Diagram.Options = Diagram.Options()) {
        var options = options
        options.identifiesParts = true
        let graph = DiagramGraph(machine, definition: definition, separatingTransitions: true)
        dot = DotDiagram.render(graph, options: options)
        stateNames = machine.stateNames
        edgeTransitions = graph.edges.map { $0.transitions[0] }
    }

    /// Graphviz's SVG of ``dot`` with the hooks: `<g id="state_ID"` becomes
    /// `<g data-state="NAME" id="state_ID"`, `<g id="edge_INDEX"` becomes
    /// `<g data-transition="N" id="edge_INDEX"` (the name XML-escaped).
    package func addingHooks(toSVG svg: [UInt8]) -> [UInt8] {
        let opening = Array("<g id=\"".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(svg.count + stateNames.count * 32 + edgeTransitions.count * 24)
        var index = 0
        while index < svg.count {
            guard svg[index] == opening[0], svg[index...].starts(with: opening) else {
                out.append(svg[index])
                index += 1
                continue
            }
            let idStart = index + opening.count
            let found = hook(at: idStart, in: svg)
            out.append(contentsOf: "<g ".utf8)
            if let found {
                out.append(contentsOf: found.utf8)
                out.append(UInt8(ascii: " "))
            }
            out.append(contentsOf: "id=\"".utf8)
            index = idStart
        }
        return out
    }

    /// The hook for the id that starts at `start` (`state_ID"` or `edge_INDEX"`), if it is one
    /// of this drawing's.
    private func hook(at start: Int, in svg: [UInt8]) -> String? {
        for (prefix, isState) in [("state_", true), ("edge_", false)] {
            let prefixBytes = Array(prefix.utf8)
            guard svg[start...].starts(with: prefixBytes) else { continue }
            var end = start + prefixBytes.count
            var number = 0
            while end < svg.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[end]), number < 1 << 40 {
                number = number * 10 + Int(svg[end] - UInt8(ascii: "0"))
                end += 1
            }
            guard end > start + prefixBytes.count, end < svg.count, svg[end] == UInt8(ascii: "\"") else { return nil }
            if isState {
                return number < stateNames.count ? "data-state=\"\(Self.xmlEscaped(stateNames[number]))\"" : nil
            }
            return number < edgeTransitions.count ? "data-transition=\"\(edgeTransitions[number])\"" : nil
        }
        return nil
    }

    /// `text` for an XML attribute value: `& < > " '` as character references.
    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.value < 0x20: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
