import Testing

@testable import Statecraft

private func position(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

/// `from: { not: [...] }`: every non-final state except the listed ones.
@Suite struct ExceptSourceTests {

    static func phone(except excluded: [Named], states extra: [StateDeclaration] = []) -> MachineDefinition {
        MachineDefinition(
            name: "phone", initial: "idle",
            states: [StateDeclaration("idle"), StateDeclaration("ringing"), StateDeclaration("talking"), StateDeclaration("broken", isFinal: true)]
                + extra,
            transitions: [
                TransitionDefinition("ring", from: .states(["idle"]), to: "ringing"),
                TransitionDefinition("answer", from: .states(["ringing"]), to: "talking"),
                TransitionDefinition("hangUp", from: .anyNonFinalExcept(excluded, position(9, 11)), to: "idle", at: position(7, 5)),
                TransitionDefinition("drop", from: .anyNonFinal(position(11, 11)), to: "broken"),
            ])
    }

    @Test func itLeavesFromEveryNonFinalStateButTheListedOnes() throws {
        let machine = try compile(Self.phone(except: ["idle"]))
        let hangUp = machine.transitions[2]
        #expect(hangUp.sources.map { machine.stateNames[$0] } == ["ringing", "talking"])
        #expect(try compile(Self.phone(except: ["idle", "ringing"])).transitions[2].sources == [2])
    }

    /// Final states are left out already; naming one is harmless (and reads as intended), so it
    /// is not reported.
    @Test func namingAFinalStateIsAllowedAndChangesNothing() throws {
        let output = MachineCompiler.compile(Self.phone(except: ["idle", "broken"]))
        #expect(output.diagnostics.isEmpty)
        #expect(output.machine?.transitions[2].sources == [1, 2])
    }

    @Test func anUnknownNameIsAnUndefinedStateWithASuggestion() {
        let output = MachineCompiler.compile(Self.phone(except: [Named("idel", at: position(9, 17))]))
        #expect(output.machine == nil)
        #expect(output.diagnostics.map(\.description) == [
            "9:17: error: 'not' refers to undefined state 'idel' (did you mean 'idle'?) [undefined-state]"
        ])
    }

    @Test func excludingEveryNonFinalStateIsAnError() {
        let output = MachineCompiler.compile(Self.phone(except: ["idle", "ringing", "talking"]))
        #expect(output.machine == nil)
        #expect(output.diagnostics.map(\.description) == [
            "9:11: error: 'not' excludes every non-final state, so the transition leaves from none and can never be taken [invalid-value]"
        ])
    }

    /// The fingerprint sees the states a source expands to: `not` is the list written out, and
    /// a state added later joins it.
    @Test func theFingerprintCountsTheExpandedSources() throws {
        var listed = Self.phone(except: ["idle"])
        listed.transitions[2].source = .states(["ringing", "talking"])
        let base = try compile(Self.phone(except: ["idle"])).fingerprint
        #expect(try compile(listed).fingerprint == base)
        #expect(try compile(Self.phone(except: ["ringing"])).fingerprint != base)
        let grown = Self.phone(except: ["idle"], states: [StateDeclaration("onHold")])
        var grownListed = grown
        grownListed.transitions[2].source = .states(["ringing", "talking"])
        #expect(try compile(grown).fingerprint != (try compile(grownListed).fingerprint))
    }

    @Test func theLinterSeesTheExpandedSources() throws {
        let definition = MachineDefinition(
            name: "m", initial: "a",
            states: [StateDeclaration("a"), StateDeclaration("b"), StateDeclaration("c")],
            transitions: [
                TransitionDefinition("go", from: .anyNonFinalExcept(["c"], .unknown), to: "c", at: position(5, 5)),
                TransitionDefinition("go", from: .states(["a", "b"]), to: "a", at: position(8, 5)),
                TransitionDefinition("back", from: .anyNonFinalExcept(["a", "b"], .unknown), to: "a", at: position(11, 5)),
            ])
        let machine = try compile(definition)
        let warnings = MachineLinter.lint(machine, definition: definition)
        // Every state `go` (line 8) leaves from is covered by line 5's; only `a` and `c` are reached.
        #expect(warnings.map(\.description) == [
            "0:0: warning: state 'b' cannot be reached from initial state 'a' [unreachable-state]",
            "8:5: warning: this 'go' transition can never be taken: an earlier unguarded one (line 5) covers every state it leaves from [shadowed-transition]",
        ])
    }

    /// A graph draws such a transition once, from an "any state except ..." node: one node per
    /// set of excluded states, however many transitions share it.
    @Test func aGraphDrawsOneNodePerSetOfExcludedStates() throws {
        var definition = Self.phone(except: ["idle"])
        definition.transitions.append(TransitionDefinition("mute", from: .anyNonFinalExcept(["idle"], .unknown), to: nil))
        definition.transitions.append(TransitionDefinition("reset", from: .anyNonFinalExcept(["idle", "talking"], .unknown), to: "idle"))
        let machine = try compile(definition)
        let dot = Diagram.dot(machine, definition: definition)
        #expect(dot.contains(#"    except0 [label="any state except idle", style="rounded,dashed"];"#), "\(dot)")
        #expect(dot.contains(#"    except1 [label="any state except idle, talking", style="rounded,dashed"];"#), "\(dot)")
        #expect(dot.contains(#"    except0 -> s0 [label="hangUp"];"#), "\(dot)")
        #expect(dot.contains(#"    except0 -> except0 [label="mute", style=dashed];"#), "\(dot)")
        #expect(dot.contains(#"    except1 -> s0 [label="reset"];"#), "\(dot)")
        let mermaid = Diagram.mermaid(machine, definition: definition)
        #expect(mermaid.contains(#"    state "any state except idle" as anyStateExcept0"#), "\(mermaid)")
        #expect(mermaid.contains("    anyStateExcept0 --> s0 : hangUp\n"), "\(mermaid)")
        #expect(mermaid.contains("    anyStateExcept1 --> s0 : reset\n"), "\(mermaid)")
        // Without the definition, each source is drawn.
        #expect(Diagram.dot(machine).contains(#"    s1 -> s0 [label="hangUp\nreset"];"#))
    }
}
