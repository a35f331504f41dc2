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
        if let tree = graph.tree {
            out += "    compound=true;\n"
            for state in tree.topLevel { cluster(Int(state), graph, tree, options, indent: "    ", into: &out) }
            for state in 0..<tree.count where tree.parents[state] < 0 && tree.kinds[state].isHistory {
                out += "    s\(state) [label=\(quoted(tree.kinds[state] == .deepHistory ? "H*" : "H")), shape=circle];\n"
            }
            if graph.hasAnyState { out += "    any [label=\"any state\", style=\"rounded,dashed\"];\n" }
            for index in graph.exceptions.indices {
                out += "    except\(index) [label=\(quoted(graph.exceptionLabel(index))), style=\"rounded,dashed\"];\n"
            }
            out += "    start -> \(anchor(graph.initialState, tree))\(head(graph.initialState, tree));\n"
            for edge in graph.edges {
                var attributes = "label=\(quoted(edge.labels.joined(separator: "\n")))"
                // A loop on a cluster is drawn on its point (Graphviz cannot clip both ends to one cluster).
                if edge.from != edge.to, case .state(let from) = edge.from, tree.kinds[from] == .compound || tree.kinds[from] == .parallel {
                    attributes += ", ltail=cluster_s\(from)"
                }
                if edge.from != edge.to, case .state(let to) = edge.to, tree.kinds[to] == .compound || tree.kinds[to] == .parallel {
                    attributes += ", lhead=cluster_s\(to)"
                }
                out += "    \(node(edge.from, tree)) -> \(node(edge.to, tree)) [\(attributes)];\n"
            }
            out += "}\n"
            return out
        }
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

    /// A statechart's state: an atomic one as a node, a history one as `H` or `H*`, a compound
    /// or parallel one as a cluster (dashed for a parallel state, whose children are its regions)
    /// holding a point that marks its initial child and anchors the edges to and from it.
    private static func cluster(
        _ state: Int, _ graph: DiagramGraph, _ tree: StateTree, _ options: Diagram.Options, indent: String, into out: inout String
    ) {
        switch tree.kinds[state] {
        case .atomic:
            let highlight = options.highlightedStates.contains(state) ? ", style=\"rounded,filled,bold\", fillcolor=\"\(highlightColor)\"" : ""
            out += "\(indent)s\(state) [label=\(quoted(graph.stateNames[state]))\(tree.isFinal[state] ? ", peripheries=2" : "")\(highlight)];\n"
        case .shallowHistory, .deepHistory:
            out += "\(indent)s\(state) [label=\(quoted(tree.kinds[state] == .deepHistory ? "H*" : "H")), shape=circle];\n"
        case .compound, .parallel:
            let parallel = tree.kinds[state] == .parallel
            out += "\(indent)subgraph cluster_s\(state) {\n"
            out += "\(indent)    label=\(quoted(graph.stateNames[state]));\n"
            out += "\(indent)    style=\(parallel ? "\"rounded,dashed\"" : "rounded");\n"
            // A parallel state's point is smaller: it marks no initial child (every region is entered).
            out += "\(indent)    i\(state) [shape=point, width=\(parallel ? "0.05" : "0.1"), label=\"\"];\n"
            for child in tree.children[state] { cluster(Int(child), graph, tree, options, indent: indent + "    ", into: &out) }
            for history in tree.histories[state] { cluster(Int(history), graph, tree, options, indent: indent + "    ", into: &out) }
            if !parallel, let first = tree.defaultEntries[state].first {
                out += "\(indent)    i\(state) -> \(anchor(Int(first), tree))\(head(Int(first), tree));\n"
            }
            out += "\(indent)}\n"
        }
    }

    /// The node that stands for `state`: its own, or its cluster's point.
    private static func anchor(_ state: Int, _ tree: StateTree) -> String {
        tree.kinds[state] == .compound || tree.kinds[state] == .parallel ? "i\(state)" : "s\(state)"
    }

    /// ` [lhead=...]` for an arrow into a cluster.
    private static func head(_ state: Int, _ tree: StateTree) -> String {
        tree.kinds[state] == .compound || tree.kinds[state] == .parallel ? " [lhead=cluster_s\(state)]" : ""
    }

    private static func node(_ node: DiagramGraph.Node, _ tree: StateTree) -> String {
        switch node {
        case .state(let id): anchor(id, tree)
        case .anyState: "any"
        case .anyStateExcept(let index): "except\(index)"
        }
    }

    /// A state's attributes: its name and effect lines, a double border when final, a fill
    /// when highlighted.
    private static func stateAttributes(_ id: Int, _ graph: DiagramGraph, _ options: Diagram.Options) -> [String] {
        var attributes = ["label=\(quoted(([graph.stateNames[id]] + graph.effectLines(of: id)).joined(separator: "\n")))"]
        if graph.isFinal[id] { attributes.append("peripheries=2") }
        if let description = graph.stateDescriptions[id] { attributes.append("tooltip=\(quoted(description))") }
        if options.highlightedStates.contains(id) {
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
