import Testing

@testable import Statecraft

/// `description` on states and transitions: shown by diagrams, no part of the machine.
@Suite struct DescriptionTests {
    static func door(_ closed: String? = "the door is shut", _ open: String? = "pull the handle") -> MachineDefinition {
        MachineDefinition(
            name: "door", initial: "closed",
            states: [StateDeclaration("closed", description: closed), StateDeclaration("open")],
            transitions: [
                TransitionDefinition("open", from: .states(["closed"]), to: "open", description: open),
                TransitionDefinition("close", from: .states(["open"]), to: "closed"),
                TransitionDefinition("open", from: .states(["closed"]), to: "open", when: "false", description: "never \"quoted\""),
            ])
    }

    @Test func dotShowsThemAsTooltips() throws {
        let definition = Self.door()
        let dot = Diagram.dot(try compile(definition), definition: definition)
        #expect(dot.contains(#"    s0 [label="closed", tooltip="the door is shut"];"#), "\(dot)")
        #expect(dot.contains(#"    s1 [label="open"];"#), "\(dot)")
        #expect(dot.contains(#"    s0 -> s1 [label="open\nopen [false]", tooltip="pull the handle\nnever \"quoted\""];"#), "\(dot)")
        #expect(dot.contains(#"    s1 -> s0 [label="close"];"#), "\(dot)")
    }

    @Test func mermaidShowsStateNotesAndTransitionLines() throws {
        let definition = Self.door()
        let mermaid = Diagram.mermaid(try compile(definition), definition: definition)
        #expect(mermaid.contains("    note right of s0 : the door is shut\n"), "\(mermaid)")
        #expect(!mermaid.contains("note right of s1"), "\(mermaid)")
        #expect(mermaid.contains("    s0 --> s1 : open<br/>(pull the handle)<br/>open [false]<br/>(never #quot;quoted#quot;)\n"), "\(mermaid)")
    }

    @Test func theyAreNoPartOfTheFingerprint() throws {
        let base = try compile(Self.door()).fingerprint
        #expect(try compile(Self.door("closed, really", "push")).fingerprint == base)
        #expect(try compile(Self.door(nil, nil)).fingerprint == base)
    }
}
