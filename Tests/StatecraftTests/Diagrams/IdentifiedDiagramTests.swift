import Testing

@testable import Statecraft

/// The drawing a page reads (`diagram.svg`, `smrun graph --format svg`): one edge per transition,
/// ids in the DOT, and hooks added to Graphviz's SVG from those ids alone.
@Suite struct IdentifiedDiagramTests {
    @Test func eachTransitionIsAnEdgeOfItsOwnWithAnID() throws {
        let machine = try compile(DiagramTests.door)
        let dot = IdentifiedDiagram(machine, definition: DiagramTests.door).dot
        // `open` and `kick` join the same two states yet share no edge; `kick` leaves from two states, an edge from each.
        #expect(dot.contains(#"s0 -> s1 [label="open", id="edge_0"];"#), "\(dot)")
        #expect(dot.contains(#"s0 -> s1 [label="kick", id="edge_4"];"#), "\(dot)")
        #expect(dot.contains(#"s2 -> s1 [label="kick", id="edge_5"];"#), "\(dot)")
        #expect(dot.contains(#"s3 [label="broken", peripheries=2, id="state_3"];"#), "\(dot)")
        #expect(dot.contains("start -> s0;"), "\(dot)")
        // The drawing `smrun graph` prints is unchanged: the transitions between two states share an edge.
        #expect(!Diagram.dot(machine, definition: DiagramTests.door).contains("id="))
    }

    /// Only this drawing's ids get hooks (`state_9` is no state, `edge_7x` no edge id); a name
    /// is escaped for an attribute (a name cannot hold `"`, which separates names).
    @Test func hooksComeFromTheIDsAndNamesAreEscaped() throws {
        let definition = MachineDefinition(
            name: "m", initial: "a<b>&'",
            states: [StateDeclaration("a<b>&'"), StateDeclaration("c")],
            transitions: [TransitionDefinition("go", from: .states(["a<b>&'"]), to: "c")])
        let diagram = IdentifiedDiagram(try compile(definition), definition: definition)
        let svg = #"<g id="state_0" class="node"><g id="a_state_0"><g id="edge_0" class="edge"><g id="state_9" class="node"><g id="edge_7x"><g id="node1">"#
        #expect(
            String(decoding: diagram.addingHooks(toSVG: Array(svg.utf8)), as: UTF8.self)
                == #"<g data-state="a&lt;b&gt;&amp;&apos;" id="state_0" class="node"><g id="a_state_0"><g data-transition="0" id="edge_0" class="edge"><g id="state_9" class="node"><g id="edge_7x"><g id="node1">"#)
    }
}
