import Statecraft
import Testing

/// `smrun graph` of a statechart: compound and parallel states drawn as clusters (DOT) and
/// composite states (Mermaid, `--` between regions), history as `H` / `H*`, an initial arrow
/// inside each compound state.
struct StatechartDiagramTests {
    static let player = """
        initial: stopped
        states:
          stopped:
          active:
            states:
              playing:
                parallel: true
                states:
                  audio: { states: [sound, muted] }
                  video: { states: [hd, sd] }
              paused:
              memory: { history: deep }
              lastChild: { history: shallow }
        transitions:
          - play | stopped => active
          - pause | playing => paused
          - play | paused => memory
          - mute | sound => muted
          - stop | active => stopped
        """

    @Test func mermaidNestsCompositeStatesAndSeparatesRegions() throws {
        let text = Diagram.render(try ChartTrace.machine(Self.player), format: .mermaid)
        #expect(
            text == """
                stateDiagram-v2
                    state "stopped" as s0
                    state "active" as s1 {
                        [*] --> s2
                        state "playing" as s2 {
                            state "audio" as s3 {
                                [*] --> s4
                                state "sound" as s4
                                state "muted" as s5
                            }
                            --
                            state "video" as s6 {
                                [*] --> s7
                                state "hd" as s7
                                state "sd" as s8
                            }
                        }
                        state "paused" as s9
                        state "H*" as s10
                        state "H" as s11
                    }
                    [*] --> s0
                    s0 --> s1 : play
                    s2 --> s9 : pause
                    s9 --> s10 : play
                    s4 --> s5 : mute
                    s1 --> s0 : stop

                """)
    }

    @Test func dotDrawsClustersWithEdgesClippedToThem() throws {
        let text = Diagram.render(try ChartTrace.machine(Self.player), format: .dot)
        #expect(text.contains("    compound=true;\n"))
        #expect(text.contains("    subgraph cluster_s1 {\n        label=\"active\";\n        style=rounded;\n"))
        #expect(text.contains("        subgraph cluster_s2 {\n            label=\"playing\";\n            style=\"rounded,dashed\";\n"))
        #expect(text.contains("        i1 -> i2 [lhead=cluster_s2];\n"))
        #expect(text.contains("        s10 [label=\"H*\", shape=circle];\n"))
        #expect(text.contains("        s11 [label=\"H\", shape=circle];\n"))
        #expect(text.contains("    s0 -> i1 [label=\"play\", lhead=cluster_s1];\n"))
        #expect(text.contains("    i2 -> s9 [label=\"pause\", ltail=cluster_s2];\n"))
        #expect(text.contains("    start -> s0;\n"))
    }
}
