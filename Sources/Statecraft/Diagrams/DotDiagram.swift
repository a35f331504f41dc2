/// Writes a ``DiagramGraph`` as a Graphviz `digraph`.
///
/// Node ids are generated (`s0`, `s1`, ... for states, `start`, `any`), so only quoted labels
/// carry text from the machine.
enum DotDiagram {
    /// The graph; the states `highlighting` filled and bold.
    static func render(_ graph: DiagramGraph, highlighting: [Int] = []) -> String {
        var out = "digraph \(quoted(graph.name)) {\n"
        out += "    rankdir=LR;\n"
        out += "    node [shape=box, style=rounded, fontname=\"Helvetica,Arial,sans-serif\"];\n"
        out += "    edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=10];\n"
        out += "    start [shape=point, width=0.15, label=\"\"];\n"
        for (id, name) in graph.stateNames.enumerated() {
            let highlight = highlighting.contains(id) ? ##", style="rounded,filled,bold", fillcolor="#ffe08a""## : ""
            out += "    s\(id) [label=\(quoted(name))\(graph.isFinal[id] ? ", peripheries=2" : "")\(highlight)];\n"
        }
        if graph.hasAnyState {
            out += "    any [label=\"any state\", style=\"rounded,dashed\"];\n"
        }
        out += "    start -> s\(graph.initialState);\n"
        for edge in graph.edges {
            out += "    \(id(edge.from)) -> \(id(edge.to)) [label=\(quoted(edge.labels.joined(separator: "\n")))];\n"
        }
        out += "}\n"
        return out
    }

    private static func id(_ node: DiagramGraph.Node) -> String {
        switch node {
        case .state(let id): "s\(id)"
        case .anyState: "any"
        }
    }

    /// `text` as a DOT quoted string: `"` and `\` escaped (so Graphviz's `\N`, `\l` and the
    /// like cannot appear), `&` as `&amp;` (Graphviz reads entities in labels), a line feed as
    /// the line break `\n`, other control characters as spaces.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "&": out += "&amp;"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
