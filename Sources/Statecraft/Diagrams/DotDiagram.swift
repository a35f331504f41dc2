/// Writes a ``DiagramGraph`` as a Graphviz `digraph`.
///
/// Node ids are generated (`s0`, `s1`, ... for states, `start`, `any`, `except0`, ...), so only
/// quoted labels carry text from the machine. Each node's and edge's attributes are a list, one
/// entry each. Descriptions are `tooltip`s of their state or edge (an edge's, of every
/// transition it draws that has one, one per line).
enum DotDiagram {
    /// The fill of the highlighted state.
    static let highlightColor = "#ffe08a"

    static func render(_ graph: DiagramGraph, options: Diagram.Options = Diagram.Options()) -> String {
        var out = "digraph \(quoted(graph.name)) {\n"
        out += "    rankdir=\((options.direction ?? .leftToRight).rawValue);\n"
        out += "    node [shape=box, style=rounded, fontname=\"Helvetica,Arial,sans-serif\"];\n"
        out += "    edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=10];\n"
        out += "    start [shape=point, width=0.15, label=\"\"];\n"
        for id in graph.stateNames.indices {
            out += "    s\(id) [\(stateAttributes(id, graph, options).joined(separator: ", "))];\n"
        }
        if graph.hasAnyState {
            out += "    any [label=\"any state\", style=\"rounded,dashed\"];\n"
        }
        for index in graph.exceptions.indices {
            out += "    except\(index) [label=\(quoted(graph.exceptionLabel(index))), style=\"rounded,dashed\"];\n"
        }
        out += "    start -> s\(graph.initialState);\n"
        for edge in graph.edges {
            out += "    \(id(edge.from)) -> \(id(edge.to)) [\(edgeAttributes(edge).joined(separator: ", "))];\n"
        }
        out += "}\n"
        return out
    }

    /// A state's attributes: its name and effect lines, a double border when final, a fill
    /// when highlighted.
    private static func stateAttributes(_ id: Int, _ graph: DiagramGraph, _ options: Diagram.Options) -> [String] {
        var attributes = ["label=\(quoted(([graph.stateNames[id]] + graph.effectLines(of: id)).joined(separator: "\n")))"]
        if graph.isFinal[id] { attributes.append("peripheries=2") }
        if let description = graph.stateDescriptions[id] { attributes.append("tooltip=\(quoted(description))") }
        if options.highlightedState == id {
            attributes += ["style=\"rounded,filled,bold\"", "fillcolor=\"\(highlightColor)\""]
        }
        return attributes
    }

    /// An edge's attributes: its label, and a dashed line for staying transitions.
    private static func edgeAttributes(_ edge: DiagramGraph.Edge) -> [String] {
        var attributes = ["label=\(quoted(edge.labels.joined(separator: "\n")))"]
        let descriptions = edge.descriptions.compactMap { $0 }
        if !descriptions.isEmpty { attributes.append("tooltip=\(quoted(descriptions.joined(separator: "\n")))") }
        if edge.stays { attributes.append("style=dashed") }
        return attributes
    }

    private static func id(_ node: DiagramGraph.Node) -> String {
        switch node {
        case .state(let id): "s\(id)"
        case .anyState: "any"
        case .anyStateExcept(let index): "except\(index)"
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
