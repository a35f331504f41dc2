/// Writes a ``DiagramGraph`` as a Mermaid `stateDiagram-v2`.
///
/// States get generated ids (`s0`, `s1`, ..., `anyState`, `anyStateExcept0`, ...) and their
/// names through `state "NAME" as ID`, so a name is never parsed as syntax. A state's entry and
/// exit effects are description lines (`s0 : entry / a, b`), and its description a `note right
/// of` it; a transition's description follows its label, on a line of its own, in parentheses
/// (Mermaid has no notes on transitions), and a staying transition's label ends with a
/// `(stays)` line, as Mermaid cannot style one edge apart.
enum MermaidDiagram {
    /// The class of the highlighted state.
    static let highlightClass = "classDef current fill:#ffe08a,stroke:#b58900,stroke-width:2px"

    static func render(_ graph: DiagramGraph, options: Diagram.Options = Diagram.Options()) -> String {
        var out = "stateDiagram-v2\n"
        if let direction = options.direction { out += "    direction \(direction.rawValue)\n" }
        if let tree = graph.tree {
            for state in tree.topLevel { composite(Int(state), graph, tree, indent: "    ", into: &out) }
            if graph.hasAnyState { out += "    state \"any state\" as anyState\n" }
            for index in graph.exceptions.indices {
                out += "    state \"\(escaped(graph.exceptionLabel(index), inName: true))\" as anyStateExcept\(index)\n"
            }
            out += "    [*] --> s\(graph.initialState)\n"
            for edge in graph.edges { out += "    \(id(edge.from)) --> \(id(edge.to)) : \(label(edge))\n" }
            notes(graph, into: &out)
            for state in tree.topLevel where tree.isFinal[Int(state)] { out += "    s\(state) --> [*]\n" }
            highlight(options, into: &out)
            return out
        }
        for (id, name) in graph.stateNames.enumerated() {
            out += "    state \"\(escaped(name, inName: true))\" as s\(id)\n"
        }
        for id in graph.stateNames.indices {
            for line in graph.effectLines(of: id) { out += "    s\(id) : \(escaped(line))\n" }
        }
        if graph.hasAnyState {
            out += "    state \"any state\" as anyState\n"
        }
        for index in graph.exceptions.indices {
            out += "    state \"\(escaped(graph.exceptionLabel(index), inName: true))\" as anyStateExcept\(index)\n"
        }
        out += "    [*] --> s\(graph.initialState)\n"
        for edge in graph.edges { out += "    \(id(edge.from)) --> \(id(edge.to)) : \(label(edge))\n" }
        notes(graph, into: &out)
        for (id, isFinal) in graph.isFinal.enumerated() where isFinal {
            out += "    s\(id) --> [*]\n"
        }
        highlight(options, into: &out)
        return out
    }

    /// An edge's label: each transition's, its description under it in parentheses, and a
    /// `(stays)` line for a staying transition.
    private static func label(_ edge: DiagramGraph.Edge) -> String {
        (zip(edge.labels, edge.descriptions).map { label, description in
            escaped(label) + (description.map { "<br/>(" + escaped($0) + ")" } ?? "")
        } + (edge.stays ? ["(stays)"] : [])).joined(separator: "<br/>")
    }

    /// Each state's description, as a note right of it.
    private static func notes(_ graph: DiagramGraph, into out: inout String) {
        for (id, description) in graph.stateDescriptions.enumerated() {
            if let description { out += "    note right of s\(id) : \(escaped(description))\n" }
        }
    }

    /// The `current` class and the states that have it.
    private static func highlight(_ options: Diagram.Options, into out: inout String) {
        guard !options.highlightedStates.isEmpty else { return }
        out += "    \(highlightClass)\n"
        out += "    class \(options.highlightedStates.sorted().map { "s\($0)" }.joined(separator: ",")) current\n"
    }

    /// A statechart's state: an atomic one by its name, a history one as `H` or `H*`, a compound
    /// one as a composite state with its initial arrow, a parallel one as a composite state whose
    /// regions are separated by `--`.
    private static func composite(_ state: Int, _ graph: DiagramGraph, _ tree: StateTree, indent: String, into out: inout String) {
        let name = escaped(graph.stateNames[state], inName: true)
        switch tree.kinds[state] {
        case .atomic:
            out += "\(indent)state \"\(name)\" as s\(state)\n"
            for line in graph.effectLines(of: state) { out += "\(indent)s\(state) : \(escaped(line))\n" }
        case .shallowHistory, .deepHistory:
            out += "\(indent)state \"\(tree.kinds[state] == .deepHistory ? "H*" : "H")\" as s\(state)\n"
        case .compound, .parallel:
            // A composite state's entry and exit effects are lines of its name: Mermaid draws
            // no description lines on a composite state.
            let label = ([name] + graph.effectLines(of: state).map { escaped($0, inName: true) }).joined(separator: "<br/>")
            out += "\(indent)state \"\(label)\" as s\(state) {\n"
            let inner = indent + "    "
            if tree.kinds[state] == .parallel {
                for (index, region) in tree.children[state].enumerated() {
                    if index > 0 { out += "\(inner)--\n" }
                    composite(Int(region), graph, tree, indent: inner, into: &out)
                }
            } else {
                if let first = tree.defaultEntries[state].first { out += "\(inner)[*] --> s\(first)\n" }
                for child in tree.children[state] {
                    composite(Int(child), graph, tree, indent: inner, into: &out)
                    if tree.isFinal[Int(child)] { out += "\(inner)s\(child) --> [*]\n" }
                }
            }
            for history in tree.histories[state] { composite(Int(history), graph, tree, indent: inner, into: &out) }
            out += "\(indent)}\n"
        }
    }

    private static func id(_ node: DiagramGraph.Node) -> String {
        switch node {
        case .state(let id): "s\(id)"
        case .anyState: "anyState"
        case .anyStateExcept(let index): "anyStateExcept\(index)"
        }
    }

    /// `text` with every character that Mermaid would read as syntax written as an entity
    /// code (`#58;` for `:`, `#quot;` for `"`, ...), which Mermaid turns back into the
    /// character when it draws. A line feed is `<br/>`; other control and line-separator
    /// characters are spaces. Mermaid reads `direction TB` anywhere in a line as a statement,
    /// so a blank after `direction` is an entity code too. In a state's name (`inName`),
    /// `[` and `]` are escaped as well: `[[fork]]` and the like make a state a pseudo-state.
    static func escaped(_ text: String, inName: Bool = false) -> String {
        var out = ""
        var tail = ""  // the last scalars written as themselves, to spot `direction`
        for original in text.unicodeScalars {
            if original == "\n" {
                out += "<br/>"
                tail = ""
                continue
            }
            let scalar = isBreaking(original) ? " " : original
            let isSyntax: Bool
            switch scalar {
            case "#", "%", ":", ";", "\"", "&", "<", ">": isSyntax = true
            // Mermaid's placeholders for entity codes: kept as they are, they would turn into `&` and `;`.
            case "\u{FB02}", "\u{B6}": isSyntax = true
            case "[", "]": isSyntax = inName
            default: isSyntax = scalar.properties.isWhitespace && tail.lowercased().hasSuffix("direction")
            }
            if isSyntax {
                out += entity(scalar)
                tail = ""
            } else {
                out.unicodeScalars.append(scalar)
                tail.unicodeScalars.append(scalar)
                if tail.unicodeScalars.count > 16 { tail = String(tail.unicodeScalars.suffix(9)) }
            }
        }
        return out
    }

    /// Control and line-separator characters other than the line feed.
    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Mermaid's entity code for `scalar`: `#quot;`, `#lt;`, `#gt;`, `#amp;`, else `#DECIMAL;`.
    private static func entity(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": "#quot;"
        case "<": "#lt;"
        case ">": "#gt;"
        case "&": "#amp;"
        default: "#\(scalar.value);"
        }
    }
}
