/// Writes a ``DiagramGraph`` as a Graphviz `digraph`.
///
/// Node ids are generated (`s0`, `s1`, ... for states, `start`, `any`, `except0`, ...), so only
/// quoted labels carry text from the machine. With ``Diagram/Options/identifiesParts``, each
/// state's node or cluster also has the attribute `id="state_ID"` and each edge `id="edge_INDEX"`,
/// which Graphviz keeps in its SVG (``IdentifiedDiagram``). Each node's and edge's attributes are a list, one
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
                out += "    s\(state) [\(historyAttributes(state, tree, options))];\n"
            }
            if graph.hasAnyState { out += "    any [label=\"any state\", style=\"rounded,dashed\"];\n" }
            for index in graph.exceptions.indices {
                out += "    except\(index) [label=\(quoted(graph.exceptionLabel(index))), style=\"rounded,dashed\"];\n"
            }
            out += "    start -> \(anchor(graph.initialState, tree))\(head(graph.initialState, tree));\n"
            for (index, edge) in graph.edges.enumerated() {
                var attributes = edgeAttributes(edge, index: index, options)
                let inner = Self.innerEnds(edge, tree)
                // An edge between a cluster and a state inside it (or a loop on a cluster) ends at
                // the cluster's own point: Graphviz cannot clip an end to a cluster the other end is in.
                if !inner.from, case .state(let from) = edge.from, isCluster(from, tree) { attributes.append("ltail=cluster_s\(from)") }
                if !inner.to, case .state(let to) = edge.to, isCluster(to, tree) { attributes.append("lhead=cluster_s\(to)") }
                let from = inner.from ? "o\(Self.stateID(edge.from))" : node(edge.from, tree)
                let to = inner.to ? "o\(Self.stateID(edge.to))" : node(edge.to, tree)
                out += "    \(from) -> \(to) [\(attributes.joined(separator: ", "))];\n"
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
        for (index, edge) in graph.edges.enumerated() {
            out += "    \(id(edge.from)) -> \(id(edge.to)) [\(edgeAttributes(edge, index: index, options).joined(separator: ", "))];\n"
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
            out += "\(indent)s\(state) [\(stateAttributes(state, graph, options).joined(separator: ", "))];\n"
        case .shallowHistory, .deepHistory:
            out += "\(indent)s\(state) [\(historyAttributes(state, tree, options))];\n"
        case .compound, .parallel:
            let parallel = tree.kinds[state] == .parallel
            out += "\(indent)subgraph cluster_s\(state) {\n"
            out += "\(indent)    label=\(quoted(([graph.stateNames[state]] + graph.effectLines(of: state)).joined(separator: "\n")));\n"
            out += "\(indent)    style=\(parallel ? "\"rounded,dashed\"" : "rounded");\n"
            if options.identifiesParts { out += "\(indent)    id=\"state_\(state)\";\n" }
            if let description = graph.stateDescriptions[state] { out += "\(indent)    tooltip=\(quoted(description));\n" }
            // A parallel state's point is smaller: it marks no initial child (every region is entered).
            out += "\(indent)    i\(state) [shape=point, width=\(parallel ? "0.05" : "0.1"), label=\"\"];\n"
            if graph.edges.contains(where: { Self.innerEnds($0, tree) != (false, false) && ($0.from == .state(state) || $0.to == .state(state)) }) {
                // The state itself, apart from its initial point: a hollow point that the edges
                // between it and its own descendants (and its loops) start or end at.
                out += "\(indent)    o\(state) [shape=point, width=0.1, style=filled, fillcolor=white, label=\"\"];\n"
            }
            for child in tree.children[state] { cluster(Int(child), graph, tree, options, indent: indent + "    ", into: &out) }
            for history in tree.histories[state] { cluster(Int(history), graph, tree, options, indent: indent + "    ", into: &out) }
            if !parallel, let first = tree.defaultEntries[state].first {
                out += "\(indent)    i\(state) -> \(anchor(Int(first), tree))\(head(Int(first), tree));\n"
            }
            out += "\(indent)}\n"
        }
    }

    /// Whether `state` is drawn as a cluster.
    private static func isCluster(_ state: Int, _ tree: StateTree) -> Bool {
        tree.kinds[state] == .compound || tree.kinds[state] == .parallel
    }

    /// Which ends of `edge` are a cluster drawn at its hollow point: a loop on a cluster, or a
    /// cluster and a state inside it (a transition from a compound state to its own child, or
    /// from a state to one of its ancestors).
    static func innerEnds(_ edge: DiagramGraph.Edge, _ tree: StateTree) -> (from: Bool, to: Bool) {
        guard case .state(let from) = edge.from, case .state(let to) = edge.to else { return (false, false) }
        if from == to { return isCluster(from, tree) ? (true, true) : (false, false) }
        return (isCluster(from, tree) && isAncestor(from, of: to, tree), isCluster(to, tree) && isAncestor(to, of: from, tree))
    }

    /// Whether `ancestor` is a proper ancestor of `state`.
    private static func isAncestor(_ ancestor: Int, of state: Int, _ tree: StateTree) -> Bool {
        var parent = Int(tree.parents[state])
        while parent >= 0 {
            if parent == ancestor { return true }
            parent = Int(tree.parents[parent])
        }
        return false
    }

    /// The id of a state node (only called for states).
    private static func stateID(_ node: DiagramGraph.Node) -> Int {
        if case .state(let id) = node { return id }
        return -1
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
        if options.identifiesParts { attributes.append("id=\"state_\(id)\"") }
        if let description = graph.stateDescriptions[id] { attributes.append("tooltip=\(quoted(description))") }
        if options.highlightedStates.contains(id) {
            attributes += ["style=\"rounded,filled,bold\"", "fillcolor=\"\(highlightColor)\""]
        }
        return attributes
    }

    /// A history state's attributes: `H` (`H*` for a deep one) in a circle.
    private static func historyAttributes(_ state: Int, _ tree: StateTree, _ options: Diagram.Options) -> String {
        "label=\(quoted(tree.kinds[state] == .deepHistory ? "H*" : "H")), shape=circle" + (options.identifiesParts ? ", id=\"state_\(state)\"" : "")
    }

    /// An edge's attributes: its label, and a dashed line for staying transitions; its id
    /// `edge-INDEX` when the options identify parts.
    private static func edgeAttributes(_ edge: DiagramGraph.Edge, index: Int, _ options: Diagram.Options) -> [String] {
        var attributes = ["label=\(quoted(edge.labels.joined(separator: "\n")))"]
        if options.identifiesParts { attributes.append("id=\"edge_\(index)\"") }
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
