/// Writes a ``DiagramGraph`` as a Mermaid `stateDiagram-v2`.
///
/// States get generated ids (`s0`, `s1`, ..., `anyState`) and their names through
/// `state "NAME" as ID`, so a name is never parsed as syntax.
enum MermaidDiagram {
    /// The graph; the states `highlighting` filled and bold.
    static func render(_ graph: DiagramGraph, highlighting: [Int] = []) -> String {
        var out = "stateDiagram-v2\n"
        for (id, name) in graph.stateNames.enumerated() {
            out += "    state \"\(escaped(name, inName: true))\" as s\(id)\n"
        }
        if graph.hasAnyState {
            out += "    state \"any state\" as anyState\n"
        }
        out += "    [*] --> s\(graph.initialState)\n"
        for edge in graph.edges {
            let label = edge.labels.map { escaped($0) }.joined(separator: "<br/>")
            out += "    \(id(edge.from)) --> \(id(edge.to)) : \(label)\n"
        }
        for (id, isFinal) in graph.isFinal.enumerated() where isFinal {
            out += "    s\(id) --> [*]\n"
        }
        if !highlighting.isEmpty {
            out += "    classDef current fill:#ffe08a,stroke-width:3px\n"
            out += "    class \(highlighting.map { "s\($0)" }.joined(separator: ",")) current\n"
        }
        return out
    }

    private static func id(_ node: DiagramGraph.Node) -> String {
        switch node {
        case .state(let id): "s\(id)"
        case .anyState: "anyState"
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
