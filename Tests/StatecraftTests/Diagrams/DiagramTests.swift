import Testing

@testable import Statecraft

/// Diagram export (`smrun graph`, docs/cli.md): Graphviz DOT and Mermaid text for machines built in Swift.
@Suite struct DiagramTests {
    /// A door with every feature a diagram draws: an initial state, a final state, two
    /// transitions between one pair of states, guards, effects, a staying transition, and
    /// wildcard transitions (one to a state, one staying).
    static let door = MachineDefinition(
        name: "door", initial: "closed", context: [ContextVariable("hasKey", .bool(false))],
        states: [
            StateDeclaration("closed"), StateDeclaration("open"), StateDeclaration("locked"),
            StateDeclaration("broken", isFinal: true),
        ],
        transitions: [
            TransitionDefinition("open", from: .states(["closed"]), to: "open"),
            TransitionDefinition("close", from: .states(["open"]), to: "closed", effects: ["slam"]),
            TransitionDefinition("lock", from: .states(["closed"]), to: "locked", when: "hasKey"),
            TransitionDefinition("unlock", from: .states(["locked"]), to: "closed", when: "hasKey", effects: ["click", "beep"]),
            TransitionDefinition("kick", from: .states(["closed", "locked"]), to: "open"),
            TransitionDefinition("knock", from: .states(["closed"]), to: nil),
            TransitionDefinition("smash", from: .anyNonFinal(.unknown), to: "broken"),
            TransitionDefinition("tick", from: .anyNonFinal(.unknown), to: nil),
        ])

    @Test func dotDrawsTheWholeMachineInFileOrder() throws {
        let machine = try compile(Self.door)
        #expect(
            Diagram.dot(machine, definition: Self.door) == #"""
                digraph "door" {
                    rankdir=LR;
                    node [shape=box, style=rounded, fontname="Helvetica,Arial,sans-serif"];
                    edge [fontname="Helvetica,Arial,sans-serif", fontsize=10];
                    start [shape=point, width=0.15, label=""];
                    s0 [label="closed"];
                    s1 [label="open"];
                    s2 [label="locked"];
                    s3 [label="broken", peripheries=2];
                    any [label="any state", style="rounded,dashed"];
                    start -> s0;
                    s0 -> s1 [label="open\nkick"];
                    s1 -> s0 [label="close / slam"];
                    s0 -> s2 [label="lock [hasKey]"];
                    s2 -> s0 [label="unlock [hasKey] / click, beep"];
                    s2 -> s1 [label="kick"];
                    s0 -> s0 [label="knock", style=dashed];
                    any -> s3 [label="smash"];
                    any -> any [label="tick", style=dashed];
                }

                """#)
    }

    @Test func mermaidDrawsTheWholeMachineInFileOrder() throws {
        let machine = try compile(Self.door)
        #expect(
            Diagram.mermaid(machine, definition: Self.door) == """
                stateDiagram-v2
                    state "closed" as s0
                    state "open" as s1
                    state "locked" as s2
                    state "broken" as s3
                    state "any state" as anyState
                    [*] --> s0
                    s0 --> s1 : open<br/>kick
                    s1 --> s0 : close / slam
                    s0 --> s2 : lock [hasKey]
                    s2 --> s0 : unlock [hasKey] / click, beep
                    s2 --> s1 : kick
                    s0 --> s0 : knock<br/>(stays)
                    anyState --> s3 : smash
                    anyState --> anyState : tick<br/>(stays)
                    s3 --> [*]

                """)
    }

    @Test func renderPicksTheFormat() throws {
        let machine = try compile(Self.door)
        #expect(Diagram.render(machine, definition: Self.door, format: .dot) == Diagram.dot(machine, definition: Self.door))
        #expect(Diagram.render(machine, definition: Self.door, format: .mermaid) == Diagram.mermaid(machine, definition: Self.door))
        #expect(Diagram.Format.allCases.map(\.rawValue) == ["dot", "mermaid"])
    }

    /// Without the definition, nothing says which transitions were `"*"`: they are drawn from
    /// every state they leave from, merged with the other transitions between the same states.
    @Test func withoutTheDefinitionWildcardsAreDrawnExpanded() throws {
        let machine = try compile(Self.door)
        for dot in [Diagram.dot(machine), Diagram.dot(machine, definition: Self.traffic)] {
            #expect(!dot.contains("any"), "\(dot)")
            #expect(dot.contains(#"    s0 -> s0 [label="knock\ntick", style=dashed];"#), "\(dot)")
            #expect(dot.contains(#"    s1 -> s1 [label="tick", style=dashed];"#), "\(dot)")
            for source in 0...2 { #expect(dot.contains(#"    s\#(source) -> s3 [label="smash"];"#), "\(dot)") }
        }
        let mermaid = Diagram.mermaid(machine)
        #expect(!mermaid.contains("anyState"), "\(mermaid)")
        #expect(mermaid.contains("    s0 --> s0 : knock<br/>tick<br/>(stays)\n"), "\(mermaid)")
    }

    /// A lamp whose states have entry and exit effects, and that both stays in `on` (`dim`,
    /// no exit or entry) and leaves and re-enters it (`reset`, an external self-transition).
    static let lamp = MachineDefinition(
        name: "lamp", initial: "off",
        states: [
            StateDeclaration("off"),
            StateDeclaration("on", entry: ["powerUp", "glow"], exit: ["powerDown"]),
        ],
        transitions: [
            TransitionDefinition("flip", from: .states(["off"]), to: "on"),
            TransitionDefinition("flip", from: .states(["on"]), to: "off"),
            TransitionDefinition("dim", from: .states(["on"]), to: nil, effects: ["lower"]),
            TransitionDefinition("reset", from: .states(["on"]), to: "on"),
        ])

    @Test func dotShowsEntryAndExitEffectsAndDashesStayingTransitions() throws {
        let machine = try compile(Self.lamp)
        #expect(
            Diagram.dot(machine, definition: Self.lamp) == #"""
                digraph "lamp" {
                    rankdir=LR;
                    node [shape=box, style=rounded, fontname="Helvetica,Arial,sans-serif"];
                    edge [fontname="Helvetica,Arial,sans-serif", fontsize=10];
                    start [shape=point, width=0.15, label=""];
                    s0 [label="off"];
                    s1 [label="on\nentry / powerUp, glow\nexit / powerDown"];
                    start -> s0;
                    s0 -> s1 [label="flip"];
                    s1 -> s0 [label="flip"];
                    s1 -> s1 [label="dim / lower", style=dashed];
                    s1 -> s1 [label="reset"];
                }

                """#)
    }

    @Test func mermaidShowsEntryAndExitEffectsAndMarksStayingTransitions() throws {
        let machine = try compile(Self.lamp)
        #expect(
            Diagram.mermaid(machine, definition: Self.lamp) == """
                stateDiagram-v2
                    state "off" as s0
                    state "on" as s1
                    s1 : entry / powerUp, glow
                    s1 : exit / powerDown
                    [*] --> s0
                    s0 --> s1 : flip
                    s1 --> s0 : flip
                    s1 --> s1 : dim / lower<br/>(stays)
                    s1 --> s1 : reset

                """)
    }

    @Test func optionsSetTheDirectionAndHighlightAState() throws {
        let machine = try compile(Self.lamp)
        let options = Diagram.Options(direction: .topToBottom, highlightedStates: [1])
        let dot = Diagram.render(machine, definition: Self.lamp, format: .dot, options: options)
        #expect(dot.contains("    rankdir=TB;\n"), "\(dot)")
        #expect(dot.contains(##"    s1 [label="on\nentry / powerUp, glow\nexit / powerDown", style="rounded,filled,bold", fillcolor="#ffe08a"];"##), "\(dot)")
        #expect(dot.contains(#"    s0 [label="off"];"#), "only the highlighted state is filled")
        let mermaid = Diagram.render(machine, definition: Self.lamp, format: .mermaid, options: options)
        #expect(mermaid.hasPrefix("stateDiagram-v2\n    direction TB\n"), "\(mermaid)")
        #expect(mermaid.hasSuffix("    classDef current fill:#ffe08a,stroke:#b58900,stroke-width:2px\n    class s1 current\n"), "\(mermaid)")
        let leftToRight = Diagram.render(machine, format: .mermaid, options: Diagram.Options(direction: .leftToRight))
        #expect(leftToRight.hasPrefix("stateDiagram-v2\n    direction LR\n"))
        #expect(!Diagram.mermaid(machine).contains("direction"), "no direction line unless asked")
        #expect(!Diagram.mermaid(machine).contains("classDef"), "no class unless a state is highlighted")
    }

    static let traffic = MachineDefinition(
        name: "traffic", initial: "red", states: [StateDeclaration("red"), StateDeclaration("green")],
        transitions: [
            TransitionDefinition("go", from: .states(["red"]), to: "green"),
            TransitionDefinition("stop", from: .states(["green"]), to: "red"),
        ])

    /// Names as odd as the name rules allow, and guards whose string literals hold every
    /// character that DOT or Mermaid could read as syntax.
    static let hostile = MachineDefinition(
        name: #"evil"name\"#, initial: "x:y", context: [ContextVariable("mode", .string(""))],
        states: [
            StateDeclaration("x:y"), StateDeclaration("c;d"), StateDeclaration("a<b>&amp;"), StateDeclaration(#"back\slash"#),
            StateDeclaration("%%x", isFinal: true),
        ],
        transitions: [
            TransitionDefinition(
                "go:1", from: .states(["x:y"]), to: "c;d", when: #"mode == "a\"b #1; %% <i>&amp; \\N""#, effects: ["e:1", "e;2"]),
            TransitionDefinition("go:1", from: .states(["x:y"]), to: "c;d", when: #"mode == "direction LR""#),
            TransitionDefinition("end", from: .states(["c;d", "a<b>&amp;"]), to: "%%x"),
            TransitionDefinition("jump", from: .anyNonFinal(.unknown), to: #"back\slash"#),
        ])

    @Test func dotEscapesQuotesBackslashesAndEntities() throws {
        let dot = Diagram.dot(try compile(Self.hostile), definition: Self.hostile)
        #expect(dot.hasPrefix(#"digraph "evil\"name\\" {"#), "\(dot)")
        #expect(dot.contains(#"    s0 [label="x:y"];"#), "\(dot)")
        #expect(dot.contains(#"    s2 [label="a<b>&amp;amp;"];"#), "\(dot)")
        #expect(dot.contains(#"    s3 [label="back\\slash"];"#), "\(dot)")
        #expect(dot.contains(#"    s4 [label="%%x", peripheries=2];"#), "\(dot)")
        #expect(
            dot.contains(
                #"    s0 -> s1 [label="go:1 [mode == \"a\\\"b #1; %% <i>&amp;amp; \\\\N\"] / e:1, e;2\ngo:1 [mode == \"direction LR\"]"];"#),
            "\(dot)")
        #expect(dot.contains(#"    any -> s3 [label="jump"];"#), "\(dot)")
    }

    @Test func mermaidEscapesThroughAliasesAndEntityCodes() throws {
        let mermaid = Diagram.mermaid(try compile(Self.hostile), definition: Self.hostile)
        #expect(
            mermaid == ##"""
                stateDiagram-v2
                    state "x#58;y" as s0
                    state "c#59;d" as s1
                    state "a#lt;b#gt;#amp;amp#59;" as s2
                    state "back\slash" as s3
                    state "#37;#37;x" as s4
                    state "any state" as anyState
                    [*] --> s0
                    s0 --> s1 : go#58;1 [mode == #quot;a\#quot;b #35;1#59; #37;#37; #lt;i#gt;#amp;amp#59; \\N#quot;] / e#58;1, e#59;2<br/>go#58;1 [mode == #quot;direction#32;LR#quot;]
                    s1 --> s4 : end
                    s2 --> s4 : end
                    anyState --> s3 : jump
                    s4 --> [*]

                """##)
    }

    /// Characters the name rules forbid are escaped all the same, for machines built otherwise.
    @Test func escapingCoversEveryBreakingCharacter() {
        #expect(DotDiagram.quoted(#"a"b"#) == #""a\"b""#)
        #expect(DotDiagram.quoted("#{}[]|<>") == ##""#{}[]|<>""##)
        #expect(DotDiagram.quoted("line\nbreak\ttab\u{7}") == #""line\nbreak tab ""#)
        #expect(DotDiagram.quoted(#"\N\l"#) == #""\\N\\l""#)
        #expect(MermaidDiagram.escaped(#"a"b"#) == "a#quot;b")
        #expect(MermaidDiagram.escaped("#") == "#35;")
        #expect(MermaidDiagram.escaped("x:y;z") == "x#58;y#59;z")
        #expect(MermaidDiagram.escaped("<b>&") == "#lt;b#gt;#amp;")
        #expect(MermaidDiagram.escaped("two\nlines\r") == "two<br/>lines ")
        #expect(MermaidDiagram.escaped("[[fork]]") == "[[fork]]")
        #expect(MermaidDiagram.escaped("a[[fork]]", inName: true) == "a#91;#91;fork#93;#93;")
        #expect(MermaidDiagram.escaped("DIRECTION\ttb, direction") == "DIRECTION#32;tb, direction")
        #expect(MermaidDiagram.escaped("redirection  bt") == "redirection#32; bt")
        #expect(MermaidDiagram.escaped("\u{FB02}\u{B6}") == "#64258;#182;")
    }

    @Test func outputIsDeterministic() throws {
        for definition in [Self.door, Self.hostile] {
            let first = try compile(definition)
            let second = try compile(definition)
            for format in Diagram.Format.allCases {
                let text = Diagram.render(first, definition: definition, format: format)
                for _ in 0..<5 {
                    #expect(Diagram.render(first, definition: definition, format: format) == text)
                    #expect(Diagram.render(second, definition: definition, format: format) == text)
                }
            }
        }
    }

    /// A final state accepts no input, so no edge leaves it, even without the definition: a
    /// transition is drawn from its other sources only, and not at all when all are final.
    @Test func noEdgeLeavesAFinalState() throws {
        let definition = MachineDefinition(
            name: "m", initial: "a", states: [StateDeclaration("a"), StateDeclaration("done", isFinal: true)],
            transitions: [
                TransitionDefinition("finish", from: .states(["a"]), to: "done"),
                TransitionDefinition("restart", from: .states(["done"]), to: "a"),
                TransitionDefinition("poke", from: .states(["a", "done"]), to: nil),
            ])
        let machine = try compile(definition)
        for diagram in [Diagram.mermaid(machine, definition: definition), Diagram.mermaid(machine)] {
            #expect(diagram.split(separator: "\n").filter { $0.contains("-->") } == [
                "    [*] --> s0", "    s0 --> s1 : finish", "    s0 --> s0 : poke<br/>(stays)", "    s1 --> [*]",
            ])
        }
    }
}
