/// A compiled machine drawn as a state diagram: Graphviz DOT or Mermaid `stateDiagram-v2` text.
///
/// Both formats draw the same graph: an initial marker, every state in declaration order
/// (final states marked), and one edge per pair of states that some transition joins, labelled
/// `input [guard] / effects` once per transition, in file order. A staying transition is a
/// self-loop. Transitions written `from: "*"` leave from one "any state" node instead of from
/// every non-final state. Everything taken from the machine is escaped, so any name or guard
/// yields valid output, and the same machine always yields the same text.
public enum Diagram {
    /// A diagram language.
    public enum Format: String, Sendable, CaseIterable {
        /// Graphviz DOT (`dot -Tsvg`).
        case dot
        /// Mermaid `stateDiagram-v2`.
        case mermaid
    }

    /// `machine` as a diagram in `format`.
    ///
    /// `definition` is the definition the machine was compiled from: it tells which transitions
    /// were written `from: "*"`. Without it (or with another machine's), those transitions are
    /// drawn from every state they leave from. `highlighting` lists the ids of states to draw
    /// filled and bold (a machine's current state, a statechart's active states).
    public static func render(
        _ machine: CompiledMachine, definition: MachineDefinition? = nil, format: Format, highlighting: [Int] = []
    ) -> String {
        let graph = DiagramGraph(machine, definition: definition)
        switch format {
        case .dot: return DotDiagram.render(graph, highlighting: highlighting)
        case .mermaid: return MermaidDiagram.render(graph, highlighting: highlighting)
        }
    }

    /// `machine` as a Graphviz `digraph`; see ``render(_:definition:format:)``.
    public static func dot(_ machine: CompiledMachine, definition: MachineDefinition? = nil) -> String {
        render(machine, definition: definition, format: .dot)
    }

    /// `machine` as a Mermaid `stateDiagram-v2`; see ``render(_:definition:format:)``.
    public static func mermaid(_ machine: CompiledMachine, definition: MachineDefinition? = nil) -> String {
        render(machine, definition: definition, format: .mermaid)
    }
}
