/// A compiled machine drawn as a state diagram: Graphviz DOT or Mermaid `stateDiagram-v2` text.
///
/// Both formats draw the same graph: an initial marker, every state in declaration order
/// (final states marked), and one edge per pair of states that some transition joins, labelled
/// `input [guard] / effects` once per transition, in file order. A state's entry and exit
/// effects are written under its name (`entry / a, b`, `exit / c`). A staying transition (no
/// `to`) is a self-loop drawn apart from external self-transitions: dashed in DOT, its label
/// ending with `(stays)` in Mermaid; so is a refusal (`reject:`, labelled
/// `input [guard] rejected: MESSAGE`). Transitions written `from: "*"` leave from one "any
/// state" node instead of from every non-final state, and those written
/// `from: { not: [a, b] }` from an "any state except a, b" node (one per set of excluded
/// states). Transitions leaving from a final state are left out: they can never be taken
/// (`smrun validate` warns `from-final-state`). States' and transitions' descriptions are DOT
/// tooltips, and Mermaid notes (states) or a line under the label (transitions). A statechart
/// is drawn with all of that inside its clusters (DOT) or composite states (Mermaid); a compound
/// or parallel state's own entry and exit effects are lines of its cluster's label (of its
/// composite state's name). In DOT, an edge between a compound state and a state inside it (or
/// a loop on a compound state) ends at the state's own hollow point, not at the point that
/// marks its initial child, so that Graphviz draws it without a warning. Everything
/// taken from the machine is escaped, so any name or guard yields valid output, and the same
/// machine always yields the same text.
public enum Diagram {
    /// A diagram language.
    package enum Format: String, Sendable, CaseIterable {
        /// Graphviz DOT (`dot -Tsvg`).
        case dot
        /// Mermaid `stateDiagram-v2`.
        case mermaid
    }

    /// Which way a diagram flows.
    package enum Direction: String, Sendable, CaseIterable {
        /// Left to right (DOT `rankdir=LR`, Mermaid `direction LR`).
        case leftToRight = "LR"
        /// Top to bottom (DOT `rankdir=TB`, Mermaid `direction TB`).
        case topToBottom = "TB"
    }

    /// How to draw a machine, beyond what it is.
    package struct Options: Sendable, Hashable {
        /// The direction, or `nil` for each format's usual one: left to right in DOT; Mermaid's
        /// own default (top to bottom), with no `direction` line.
        package var direction: Direction?
        /// The states to highlight, by id (the current state of a saved run, or a statechart's
        /// active atomic states): filled in DOT, with a `current` class in Mermaid.
        package var highlightedStates: Set<Int>
        /// Whether each transition is an edge of its own (else the transitions between two
        /// states share one), and, in DOT, each state's node or cluster has the id
        /// `state_ID` and each edge `edge_INDEX` (by ``DiagramGraph/edges``): what the SVG
        /// drawing's hooks are made from (``IdentifiedDiagram``).
        package var identifiesParts: Bool

        /// Options with `direction` and `highlightedStates`; the defaults draw as without options.
        package init(direction: Direction? = nil, highlightedStates: Set<Int> = [], identifiesParts: Bool = false) {
            self.direction = direction
            self.highlightedStates = highlightedStates
            self.identifiesParts = identifiesParts
        }
    }

    /// `machine` as a diagram in `format`.
    ///
    /// `definition` is the definition the machine was compiled from: it tells which transitions
    /// were written `from: "*"` or `from: { not: [...] }`, and gives the descriptions. Without it
    /// (or with another machine's), those transitions are drawn from every state they leave
    /// from, and there are no descriptions.
    package static func render(
        _ machine: CompiledMachine, definition: MachineDefinition? = nil, format: Format, options: Options = Options()
    ) -> String {
        let graph = DiagramGraph(machine, definition: definition, separatingTransitions: options.identifiesParts)
        switch format {
        case .dot: return DotDiagram.render(graph, options: options)
        case .mermaid: return MermaidDiagram.render(graph, options: options)
        }
    }

    /// `machine` as a Graphviz `digraph`.
    ///
    /// `definition` is the definition the machine was compiled from (a load result's): it tells
    /// which transitions were written `from: "*"` or `from: { not: [...] }`, and gives the
    /// descriptions. Without it (or with another machine's), those transitions are drawn from
    /// every state they leave from, and there are no descriptions.
    public static func dot(_ machine: CompiledMachine, definition: MachineDefinition? = nil) -> String {
        render(machine, definition: definition, format: .dot)
    }

    /// `machine` as a Mermaid `stateDiagram-v2`; `definition` as in ``dot(_:definition:)``.
    public static func mermaid(_ machine: CompiledMachine, definition: MachineDefinition? = nil) -> String {
        render(machine, definition: definition, format: .mermaid)
    }
}
